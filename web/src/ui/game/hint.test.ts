import { describe, expect, it } from "vitest";
import { acts } from "../../test/fakes";
import { game, watching } from "../../test/states";
import type { Action } from "../../types";
import { currentHint, hintedCards } from "./hint";

describe("currentHint", () => {
  const state = watching(game()); // at version 7

  it("keeps a suggestion made for the version on screen", () => {
    const hint = { version: 7, action: acts.pass(), expected: null };
    expect(currentHint(hint, state)).toBe(hint);
  });

  it("drops one made for another version", () => {
    expect(currentHint({ version: 6, action: acts.pass(), expected: null }, state)).toBeNull();
    expect(currentHint(null, state)).toBeNull();
  });
});

describe("hintedCards", () => {
  const hint = (action: Action) => ({ version: 7, action, expected: null });

  it("names the card to play", () => {
    expect(hintedCards(hint(acts.play("Th")))).toEqual(new Set(["Th"]));
  });

  it("names every card to discard", () => {
    expect(hintedCards(hint(acts.discard("2c", "3d", "4h")))).toEqual(new Set(["2c", "3d", "4h"]));
  });

  it("names no card for a bid, a pass, the widow or a trump", () => {
    for (const action of [acts.bid(3), acts.pass(), acts.widow(), acts.trump("h")]) {
      expect(hintedCards(hint(action)).size).toBe(0);
    }
    expect(hintedCards(null).size).toBe(0);
  });
});
