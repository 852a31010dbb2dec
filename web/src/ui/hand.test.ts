import { describe, expect, it } from "vitest";
import { cardLook, fitHand } from "./hand";

describe("fitHand", () => {
  it("leaves a single card alone", () => {
    expect(fitHand(1, 300, 80)).toEqual({ rows: 1, step: null });
  });

  it("spaces the cards by a small gap when the row is wide enough", () => {
    expect(fitHand(6, 1000, 80)).toEqual({ rows: 1, step: 6 });
  });

  it("overlaps the cards to fit one row while enough of each shows", () => {
    expect(fitHand(6, 300, 80)).toEqual({ rows: 1, step: 44 - 80 });
  });

  it("takes a second row when one row would hide the corners", () => {
    const fit = fitHand(14, 300, 80);
    expect(fit.rows).toBe(2);
    expect(fit.step).toBeCloseTo(220 / 6 - 80);
  });

  it("stops at three rows, overlapping as much as it takes", () => {
    expect(fitHand(20, 200, 80)).toEqual({ rows: 3, step: 20 - 80 });
  });

  it("puts a card a row when not even two fit side by side", () => {
    expect(fitHand(2, 50, 80)).toEqual({ rows: 2, step: 0 });
  });
});

describe("cardLook", () => {
  const none = new Set<string>();
  const ace = new Set(["Ah"]);

  it("lets a playable card be played on this seat's turn", () => {
    expect(cardLook("Ah", { playable: ace, myTurn: true })).toMatchObject({
      canUse: true,
      dimmed: false,
      label: "A♥, ace of hearts",
    });
  });

  it("dims a card that cannot be played on this seat's turn, and says so", () => {
    expect(cardLook("Ah", { playable: none, myTurn: true })).toMatchObject({
      canUse: false,
      dimmed: true,
      label: "A♥, ace of hearts, cannot be played now",
    });
  });

  it("neither dims nor names unplayable the cards held while others play", () => {
    expect(cardLook("Ah", { playable: none, myTurn: false })).toMatchObject({ dimmed: false, label: "A♥, ace of hearts" });
  });

  it("keeps a playable card from being used while a request is waiting, without dimming it", () => {
    expect(cardLook("Ah", { playable: ace, myTurn: true, disabled: true })).toMatchObject({
      canUse: false,
      dimmed: false,
    });
  });

  it("names a card picked up and required by the discard both ways", () => {
    const look = cardLook("Ah", { playable: none, myTurn: false, locked: ace, selected: ace, fromKitty: ace });
    expect(look).toMatchObject({ locked: true, selected: true, fromKitty: true });
    expect(look.label).toBe("A♥, ace of hearts, from the kitty, must be discarded");
    const picked = cardLook("Ah", { playable: none, myTurn: false, fromKitty: ace, fromLabel: "picked" });
    expect(picked.label).toBe("A♥, ace of hearts, picked up");
  });

  it("names a chosen discard, and dims a card the rules keep", () => {
    expect(cardLook("Ah", { playable: ace, myTurn: false, selected: ace, keepDimmed: true }).label).toBe(
      "A♥, ace of hearts, chosen",
    );
    expect(cardLook("Ah", { playable: none, myTurn: false, selected: none, keepDimmed: true })).toMatchObject({
      dimmed: true,
      label: "A♥, ace of hearts, must be kept",
    });
  });

  it("dims a dead card at any time", () => {
    expect(cardLook("Ah", { playable: none, myTurn: false, dead: ace })).toMatchObject({
      dead: true,
      dimmed: true,
      label: "A♥, ace of hearts, dead: only trumps are played",
    });
  });

  it("starts a card's name with the text on its face, which a joker's name holds already", () => {
    expect(cardLook("Tc", { playable: none, myTurn: false }).label).toBe("10♣, ten of clubs");
    expect(cardLook("BJ", { playable: none, myTurn: false }).label).toBe("big joker");
  });

  it("marks a suggested card", () => {
    expect(cardLook("Ah", { playable: ace, myTurn: true, suggested: ace }).suggested).toBe(true);
    expect(cardLook("Kh", { playable: ace, myTurn: true, suggested: ace }).suggested).toBe(false);
  });
});
