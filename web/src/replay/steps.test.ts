import { describe, expect, it } from "vitest";
import { fixtureView } from "./fixture";
import {
  cardsAt,
  clampPosition,
  heldAfter,
  isFirst,
  isLast,
  lastPosition,
  nextPosition,
  playedAt,
  positionFromSearch,
  previousPosition,
  scoresAt,
  searchWithPosition,
  sideOfSeat,
  stepCount,
  stepNumber,
  stepOf,
  totalSteps,
  trickAt,
  trickBySeat,
  tricksBefore,
  type Position,
} from "./steps";
import type { ReplayTrick } from "./types";

const view = fixtureView();
const [first, second] = view.hands;

/** Every position of the view, in order, by stepping forward from the start. */
function walk(): Position[] {
  const seen: Position[] = [{ hand: 0, step: 0 }];
  for (;;) {
    const next = nextPosition(view, seen[seen.length - 1]);
    if (next === seen[seen.length - 1]) return seen;
    seen.push(next);
  }
}

describe("steps of a hand", () => {
  it("counts the auction, each trick, and the result when there is one", () => {
    expect(stepCount(first)).toBe(8);
    // The record stops in the second trick of hand 2: no result step.
    expect(stepCount(second)).toBe(3);
    expect(totalSteps(view)).toBe(11);
  });

  it("names what each step shows", () => {
    expect(stepOf(first, 0)).toEqual({ kind: "auction" });
    expect(stepOf(first, 1)).toEqual({ kind: "trick", trick: 0 });
    expect(stepOf(first, 6)).toEqual({ kind: "trick", trick: 5 });
    expect(stepOf(first, 7)).toEqual({ kind: "result" });
    expect(trickAt(first, 3)).toBe(first.tricks[2]);
    expect(trickAt(first, 0)).toBeNull();
    expect(trickAt(first, 7)).toBeNull();
    expect(tricksBefore(first, 0)).toBe(0);
    expect(tricksBefore(first, 1)).toBe(0);
    expect(tricksBefore(first, 4)).toBe(3);
    expect(tricksBefore(first, 7)).toBe(6);
  });
});

describe("cards held", () => {
  it("shows the deal at the auction", () => {
    expect(cardsAt(first, 0)).toEqual(first.deal);
    // A copy: the view itself is never changed.
    expect(cardsAt(first, 0)).not.toBe(first.deal);
  });

  it("takes away the cards of the tricks played before", () => {
    expect(heldAfter(first, 0)).toEqual(first.held);
    expect(heldAfter(first, 2)).toEqual([
      ["Th", "Ac", "Qc", "Ad"],
      ["Jh", "Jc", "Qd", "Kd"],
      ["Ah", "Kh", "Tc", "Jd"],
    ]);
    expect(heldAfter(first, 6)).toEqual([[], [], []]);
    expect(first.held[0]).toHaveLength(6);
  });

  it("shows at a trick the cards held before it, and marks the ones played to it", () => {
    expect(cardsAt(first, 1)).toEqual(first.held);
    expect(cardsAt(first, 3)).toEqual(heldAfter(first, 2));
    expect(playedAt(first, 3, 0)).toEqual(["Ad"]);
    expect(playedAt(first, 3, 1)).toEqual(["Kd"]);
    expect(playedAt(first, 0, 1)).toEqual([]);
    expect(cardsAt(first, 7)).toEqual([[], [], []]);
  });

  it("keeps the cards of an unfinished trick until it is shown", () => {
    expect(cardsAt(second, 2)).toEqual([
      ["Js", "Ac", "Td", "Qd", "LJ"],
      ["Qs", "Jc", "Kd", "Tc", "Ks"],
      ["As", "BJ", "Jd", "Qc", "Ad"],
    ]);
  });
});

describe("a trick by seat", () => {
  it("groups a seat's cards in the order the seats first played", () => {
    expect(trickBySeat(first.tricks[2])).toEqual([
      { seat: 1, cards: ["Kd"] },
      { seat: 2, cards: ["Jd"] },
      { seat: 0, cards: ["Ad"] },
    ]);
    const extra: ReplayTrick = {
      leader: 3,
      plays: [
        { seat: 3, card: "Ah" },
        { seat: 0, card: "2h" },
        { seat: 0, card: "3h" },
        { seat: 1, card: "Kh" },
      ],
      winner: 3,
    };
    expect(trickBySeat(extra)).toEqual([
      { seat: 3, cards: ["Ah"] },
      { seat: 0, cards: ["2h", "3h"] },
      { seat: 1, cards: ["Kh"] },
    ]);
  });

  it("finds a seat's side", () => {
    expect(sideOfSeat(view, 2)).toBe(2);
    expect(sideOfSeat({ ...view, sides: [[0, 2], [1, 3]] }, 3)).toBe(1);
    expect(sideOfSeat(view, 7)).toBe(-1);
  });
});

describe("scores", () => {
  it("shows the scores before the hand, and after it at the result", () => {
    expect(scoresAt(first, 3)).toEqual({ scores: [0, 0, 0], after: false });
    expect(scoresAt(first, 7)).toEqual({ scores: [2, 2, -3], after: true });
    expect(scoresAt(second, 2)).toEqual({ scores: [2, 2, -3], after: false });
  });
});

describe("moving", () => {
  it("goes trick by trick, then on to the next hand's auction", () => {
    const positions = walk();
    expect(positions).toHaveLength(totalSteps(view));
    expect(positions[7]).toEqual({ hand: 0, step: 7 });
    expect(positions[8]).toEqual({ hand: 1, step: 0 });
    expect(positions.map((position) => stepNumber(view, position))).toEqual(positions.map((_, i) => i + 1));
  });

  it("goes back to the previous hand's result from an auction", () => {
    expect(previousPosition(view, { hand: 1, step: 0 })).toEqual({ hand: 0, step: 7 });
    expect(previousPosition(view, { hand: 0, step: 3 })).toEqual({ hand: 0, step: 2 });
  });

  it("stays put at either end", () => {
    const start = { hand: 0, step: 0 };
    const end = lastPosition(view);
    expect(end).toEqual({ hand: 1, step: 2 });
    expect(previousPosition(view, start)).toBe(start);
    expect(nextPosition(view, end)).toBe(end);
    expect(isFirst(start)).toBe(true);
    expect(isLast(view, end)).toBe(true);
    expect(isLast(view, { hand: 0, step: 7 })).toBe(false);
  });

  it("clamps a position to the match", () => {
    expect(clampPosition(view, { hand: 5, step: 40 })).toEqual({ hand: 1, step: 2 });
    expect(clampPosition(view, { hand: -1, step: -3 })).toEqual({ hand: 0, step: 0 });
    expect(clampPosition(view, { hand: 0.7, step: Number.NaN })).toEqual({ hand: 0, step: 0 });
  });
});

describe("the position in the address", () => {
  it("writes the hand from 1 and the step from 0", () => {
    expect(searchWithPosition("", { hand: 2, step: 2 })).toBe("?hand=3&step=2");
    expect(searchWithPosition("?step=9&hand=1", { hand: 0, step: 4 })).toBe("?step=4&hand=1");
  });

  it("keeps the address's other parameters", () => {
    expect(searchWithPosition("?lang=fr", { hand: 1, step: 0 })).toBe("?lang=fr&hand=2&step=0");
  });

  it("reads back every position it writes", () => {
    for (const position of walk()) {
      expect(positionFromSearch(view, searchWithPosition("", position))).toEqual(position);
    }
  });

  it("starts at the beginning without a position, and clamps one out of range", () => {
    expect(positionFromSearch(view, "")).toEqual({ hand: 0, step: 0 });
    expect(positionFromSearch(view, "?hand=2")).toEqual({ hand: 1, step: 0 });
    expect(positionFromSearch(view, "?hand=9&step=99")).toEqual({ hand: 1, step: 2 });
    expect(positionFromSearch(view, "?hand=1&step=99")).toEqual({ hand: 0, step: 7 });
    expect(positionFromSearch(view, "?hand=abc&step=2")).toEqual({ hand: 0, step: 0 });
    expect(positionFromSearch(view, "?hand=0&step=-4")).toEqual({ hand: 0, step: 0 });
  });
});
