import { describe, expect, it } from "vitest";
import { isRed, parseCard, rankLabel, shortCard } from "./cards";

describe("parseCard", () => {
  it("reads a rank and a suit letter", () => {
    expect(parseCard("Td")).toEqual({ joker: false, rank: "T", suit: "d", text: "Td" });
  });

  it("reads the two jokers", () => {
    expect(parseCard("BJ")).toEqual({ joker: true, big: true, text: "BJ" });
    expect(parseCard("LJ")).toEqual({ joker: true, big: false, text: "LJ" });
  });

  it("refuses what is not record notation", () => {
    for (const text of ["10d", "1d", "Ax", "ah", "", "J", "BJh"]) expect(parseCard(text)).toBeNull();
  });
});

describe("card texts", () => {
  it("prints the ten as 10", () => {
    expect(rankLabel("T")).toBe("10");
    expect(rankLabel("Q")).toBe("Q");
  });

  it("writes a short card with its suit symbol and leaves jokers and unknown text as they are", () => {
    expect(shortCard("Th")).toBe("10♥");
    expect(shortCard("As")).toBe("A♠");
    expect(shortCard("LJ")).toBe("LJ");
    expect(shortCard("??")).toBe("??");
  });

  it("colours hearts, diamonds and the big joker red", () => {
    const colour = (text: string) => {
      const card = parseCard(text);
      return card && isRed(card);
    };
    expect(["Ah", "2d", "BJ"].map(colour)).toEqual([true, true, true]);
    expect(["Ac", "2s", "LJ"].map(colour)).toEqual([false, false, false]);
  });
});
