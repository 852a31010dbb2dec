import { describe, expect, it } from "vitest";
import { game } from "../../test/states";
import { angleOf, shownTrick, trickFans } from "./layout";

describe("angleOf", () => {
  it("puts the receiver's own seat at the bottom and the others clockwise from it", () => {
    const at = (seat: number) => {
      const angle = angleOf(seat, 2, 4);
      return [Math.cos(angle), Math.sin(angle)].map((v) => Math.round(v) || 0); // no -0
    };
    // Screen coordinates: y grows downwards, so the bottom is (0, 1) and the left (-1, 0).
    expect(at(2)).toEqual([0, 1]);
    expect(at(3)).toEqual([-1, 0]);
    expect(at(0)).toEqual([0, -1]);
    expect(at(1)).toEqual([1, 0]);
  });

  it("spreads the seats evenly", () => {
    expect(angleOf(1, 0, 6) - angleOf(0, 0, 6)).toBeCloseTo(Math.PI / 3);
  });
});

describe("shownTrick", () => {
  const last = { leader: 1, cards: ["Ah", "Kh", "Qh", "Jh"], winner: 1, winning_card: "Ah", seats: [1, 2, 3, 0] };

  it("shows the trick being played, with no winner yet", () => {
    const pub = game({ phase: "play", trick: [[2, "9h"]], tricks: [last] });
    expect(shownTrick(pub)).toEqual({ plays: [[2, "9h"]], winner: null, winning: null });
  });

  it("shows the last trick and its winner until the next lead", () => {
    const pub = game({ phase: "play", trick: [], tricks: [last] });
    expect(shownTrick(pub)).toEqual({
      plays: [
        [1, "Ah"],
        [2, "Kh"],
        [3, "Qh"],
        [0, "Jh"],
      ],
      winner: 1,
      winning: "Ah",
    });
  });

  it("shows nothing before the first lead", () => {
    expect(shownTrick(game({ phase: "play" }))).toEqual({ plays: [], winner: null, winning: null });
  });
});

describe("trickFans", () => {
  it("leaves one card a seat where it is", () => {
    const plays: [number, string][] = [
      [0, "Ah"],
      [1, "Kh"],
    ];
    expect(trickFans(plays)).toEqual([
      { fan: 0, fanned: false },
      { fan: 0, fanned: false },
    ]);
  });

  it("spreads a seat's several cards evenly around its spot, in the order played", () => {
    const plays: [number, string][] = [
      [0, "Ah"],
      [0, "Kh"],
      [0, "Qh"],
      [1, "Jh"],
      [2, "Th"],
      [2, "9h"],
    ];
    expect(trickFans(plays).map(({ fan }) => fan)).toEqual([-1, 0, 1, 0, -0.5, 0.5]);
    expect(trickFans(plays).map(({ fanned }) => fanned)).toEqual([true, true, true, false, true, true]);
  });
});
