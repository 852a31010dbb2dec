import { describe, expect, it } from "vitest";
import { game, handResult, watching } from "../test/states";
import type { HandResult } from "../types";
import { outcomeClass, verdictText } from "./summary";

function verdict(result: Partial<HandResult>, scoresBefore = [0, 0, 0, 0]): string {
  const pub = game({ phase: "hand_over", start_scores: scoresBefore, results: [handResult(result)] });
  return verdictText(watching(pub), pub, 0);
}

describe("verdictText", () => {
  it("says what the server's outcome says", () => {
    expect(verdict({})).toBe("Ben bid 3 and made it.");
    expect(verdict({ made: false, outcome: "set" })).toBe("Ben bid 3 and was set.");
    expect(verdict({ bid: 7, outcome: "moon_made" })).toBe(
      "Ben shot the moon (7) and took every point: the match is won.",
    );
    expect(verdict({ bid: 7, made: false, outcome: "moon_set" })).toBe(
      "Ben shot the moon (7) and fell short: the match is lost.",
    );
    expect(verdict({ bidder: null, bid: null, made: null, outcome: "thrown_in" })).toBe(
      "Everyone passed: the hand was thrown in.",
    );
  });

  it("takes the reset of a moon from the server, whatever the scores it sees", () => {
    // The client does not work out that the bidder was below zero: the outcome says it.
    expect(verdict({ bid: 7, outcome: "moon_reset" }, [0, 5, 0, 0])).toMatch(/only goes back to 0/);
    expect(verdict({ bid: 7, outcome: "moon_made" }, [0, -5, 0, 0])).toMatch(/the match is won/);
  });

  it("falls back on made or set for an outcome it does not know", () => {
    expect(verdict({ outcome: "doubled" as HandResult["outcome"] })).toBe("Ben bid 3 and made it.");
  });
});

describe("outcomeClass", () => {
  it("marks a set bid and a moon", () => {
    expect(outcomeClass("made")).toBe("made");
    expect(outcomeClass("set")).toBe("set");
    expect(outcomeClass("moon_made")).toBe("made moon");
    expect(outcomeClass("moon_reset")).toBe("made moon");
    expect(outcomeClass("moon_set")).toBe("set moon");
    expect(outcomeClass("thrown_in")).toBe("made");
  });
});
