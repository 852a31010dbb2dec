import { describe, expect, it } from "vitest";
import { NINE_CARD_HAND, WIDOW_HAND } from "./engineHands";
import { fixtureView } from "./fixture";
import {
  cardsAt,
  clampPosition,
  decisionsAt,
  isFirst,
  isLast,
  lastPosition,
  nextPosition,
  placeDecisions,
  placeOfAction,
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
  type Position,
} from "./steps";
import type { ReplayDecision, ReplayHand, ReplayTrick, ReplayView } from "./types";

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

  it("names what each step shows, as the server sent it", () => {
    expect(stepOf(first, 0)).toBe(first.steps[0]);
    expect(stepOf(first, 0).kind).toBe("auction");
    expect(stepOf(first, 1)).toMatchObject({ kind: "trick", trick: 0 });
    expect(stepOf(first, 6)).toMatchObject({ kind: "trick", trick: 5 });
    expect(stepOf(first, 7).kind).toBe("result");
    expect(trickAt(first, 3)).toBe(first.tricks[2]);
    expect(trickAt(first, 0)).toBeNull();
    expect(trickAt(first, 7)).toBeNull();
  });

  it("takes a step out of range as the nearest one", () => {
    expect(stepOf(first, -2).kind).toBe("auction");
    expect(stepOf(first, 40).kind).toBe("result");
    expect(stepOf(second, 40)).toMatchObject({ kind: "trick", trick: 1 });
  });
});

describe("cards held", () => {
  it("shows the deal at the auction", () => {
    expect(cardsAt(first, 0)).toEqual(first.deal);
    // A copy: the view itself is never changed.
    expect(cardsAt(first, 0)).not.toBe(first.deal);
  });

  it("takes away the cards of the tricks played before", () => {
    expect(cardsAt(first, 1)).toEqual(first.held);
    expect(cardsAt(first, 3)).toEqual([
      ["Th", "Ac", "Qc", "Ad"],
      ["Jh", "Jc", "Qd", "Kd"],
      ["Ah", "Kh", "Tc", "Jd"],
    ]);
    expect(cardsAt(first, 7)).toEqual([[], [], []]);
    expect(first.held[0]).toHaveLength(6);
  });

  it("shows at a trick the cards held before it, and marks the ones played to it", () => {
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
    expect(trickBySeat(first, 3)).toEqual([
      { seat: 1, cards: ["Kd"] },
      { seat: 2, cards: ["Jd"] },
      { seat: 0, cards: ["Ad"] },
    ]);
    expect(trickBySeat(first, 0)).toEqual([]);
    expect(trickBySeat(first, 7)).toEqual([]);
    expect(trickBySeat(second, 2)).toEqual([{ seat: 1, cards: ["Qs"] }]);
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
    // A seat that plays two cards to a trick: the server groups their places in the plays.
    const step = { ...first.steps[1], kind: "trick" as const, trick: 0, by_seat: [[0], [1, 2], [3]] };
    const extraHand: ReplayHand = { ...first, tricks: [extra], steps: [first.steps[0], step] };
    expect(trickBySeat(extraHand, 1)).toEqual([
      { seat: 3, cards: ["Ah"] },
      { seat: 0, cards: ["2h", "3h"] },
      { seat: 1, cards: ["Kh"] },
    ]);
    expect(playedAt(extraHand, 1, 0)).toEqual(["2h", "3h"]);
  });

  it("finds a seat's side", () => {
    expect(sideOfSeat(view, 2)).toBe(2);
    expect(sideOfSeat({ ...view, sides: [[0, 2], [1, 3]] }, 3)).toBe(1);
    expect(sideOfSeat(view, 7)).toBe(-1);
  });
});

describe("the engine's hands", () => {
  it("show the deal at the auction, the cards held when play began at the first trick, each trick by seat", () => {
    for (const { hand } of [WIDOW_HAND, NINE_CARD_HAND]) {
      expect(cardsAt(hand, 0)).toEqual(hand.deal);
      expect(cardsAt(hand, 1)).toEqual(hand.held);
      hand.tricks.forEach((trick, index) => {
        const seats = [...new Set(trick.plays.map((play) => play.seat))];
        expect(trickBySeat(hand, index + 1).map((entry) => entry.seat)).toEqual(seats);
        for (const seat of seats) {
          const cards = trick.plays.filter((play) => play.seat === seat).map((play) => play.card);
          expect(playedAt(hand, index + 1, seat)).toEqual(cards);
          // A card played to the trick is held before it, and not after it.
          for (const card of cards) {
            expect(cardsAt(hand, index + 1)[seat]).toContain(card);
            expect(cardsAt(hand, index + 2)[seat]).not.toContain(card);
          }
        }
      });
    }
    // The nine_card hand: the seats out of trumps keep their other cards to the end.
    expect(cardsAt(NINE_CARD_HAND.hand, stepCount(NINE_CARD_HAND.hand) - 1)).toEqual([["3c", "Jd", "5h"], ["7d"], ["8c", "Td", "4h"]]);
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

/** A decision of the review at a hand's action, its seat and action as the record has them. */
function decision(hand: number, actionIndex: number, seat: number, action: string, loss = 1): ReplayDecision {
  return { hand, actionIndex, seat, action, best: "pass", expectedAction: 0, expectedBest: loss, loss, error: null };
}

describe("the step of a reviewed decision", () => {
  it("puts the bids and passes at the auction, and each card at its trick, in the record's order", () => {
    // Hand 1: pass, pass, bid 3, then six tricks of three cards.
    expect(placeOfAction(first, 0)).toEqual({ step: 0, kind: "auction", index: 0, seat: 0, action: "pass" });
    expect(placeOfAction(first, 2)).toEqual({ step: 0, kind: "auction", index: 2, seat: 2, action: "bid 3" });
    expect(placeOfAction(first, 3)).toEqual({ step: 1, kind: "play", trick: 0, index: 0, seat: 2, action: "Ks" });
    expect(placeOfAction(first, 7)).toEqual({ step: 2, kind: "play", trick: 1, index: 1, seat: 0, action: "Ts" });
    expect(placeOfAction(first, 20)).toEqual({ step: 6, kind: "play", trick: 5, index: 2, seat: 2, action: "Ah" });
    expect(placeOfAction(first, 21)).toBeNull();
    // Hand 2 stops in its second trick.
    expect(placeOfAction(second, 6)).toEqual({ step: 2, kind: "play", trick: 1, index: 0, seat: 1, action: "Qs" });
    expect(placeOfAction(second, 7)).toBeNull();
    for (const wrong of [-1, 1.5, Number.NaN]) expect(placeOfAction(first, wrong)).toBeNull();
  });

  it("finds every action of the engine's hands where the engine put it, the widow and discards included", () => {
    for (const { hand, actions } of [WIDOW_HAND, NINE_CARD_HAND]) {
      const before = hand.auction.length + hand.before_play.length;
      expect(before).toBeGreaterThan(hand.auction.length); // trump, discards (and the widow) come between
      actions.forEach(({ seat, action }, index) => {
        const place = placeOfAction(hand, index);
        expect(place, `action ${index}`).not.toBeNull();
        expect([place?.seat, place?.action]).toEqual([seat, action]);
        const card = !/^(pass|bid |widow|trump |discard )/.test(action);
        if (card) {
          // The trick's step, and the card among that trick's plays.
          expect(place?.kind).toBe("play");
          const trick = hand.tricks[(place?.step ?? 0) - 1];
          expect(trick.plays[place?.kind === "play" ? place.index : -1]).toEqual({ seat, card: action });
        } else {
          expect(place?.step).toBe(0);
          expect(place?.kind).toBe(index < hand.auction.length ? "auction" : "before_play");
        }
      });
      expect(placeOfAction(hand, actions.length)).toBeNull();
    }
    // The widow hand: the widow and trump by the bidder, then each seat's discard in turn.
    expect(placeOfAction(WIDOW_HAND.hand, 5)).toEqual({
      step: 0,
      kind: "before_play",
      index: 2,
      seat: 2,
      action: "discard 2c 5c 6c 3h 9h Jh",
    });
    expect(placeOfAction(WIDOW_HAND.hand, 8)).toMatchObject({ step: 1, kind: "play", index: 0, seat: 1 });
    // The nine_card hand: tricks that only some seats play to.
    const lengths = NINE_CARD_HAND.hand.tricks.map((trick) => trick.plays.length);
    expect(lengths).toEqual([3, 3, 3, 1, 1]);
    expect(placeOfAction(NINE_CARD_HAND.hand, 15)).toMatchObject({ step: 3, kind: "play", trick: 2, index: 2, seat: 2 });
    expect(placeOfAction(NINE_CARD_HAND.hand, 16)).toMatchObject({ step: 4, kind: "play", trick: 3, index: 0, action: "Js" });
    expect(placeOfAction(NINE_CARD_HAND.hand, 17)).toMatchObject({ step: 5, kind: "play", trick: 4, index: 0, action: "LJ" });
  });

  it("places a review's decisions on their steps, leaving out any the view does not show as they say", () => {
    const decisions = [
      decision(0, 7, 0, "Ts", 2.5), // hand 1, trick 2
      decision(1, 0, 1, "bid 2", 1.25), // hand 2, the auction
      decision(0, 4, 0, "LJ", 0.5), // hand 1, trick 1
      decision(0, 8, 1, "Js", 0.25), // hand 1, trick 2 again
      decision(0, 1, 0, "pass"), // the seat is not the view's: left out
      decision(0, 5, 1, "Ah"), // not the card the view has there: left out
      decision(1, 9, 1, "Kd"), // past the record's end: left out
      decision(5, 0, 0, "pass"), // no such hand: left out
    ];
    const placed = placeDecisions(view, decisions);
    expect(placed.map((entry) => [entry.position, entry.decision.loss])).toEqual([
      [{ hand: 0, step: 2 }, 2.5],
      [{ hand: 1, step: 0 }, 1.25],
      [{ hand: 0, step: 1 }, 0.5],
      [{ hand: 0, step: 2 }, 0.25],
    ]);
    expect(decisionsAt(placed, { hand: 0, step: 2 }).map((entry) => entry.decision.action)).toEqual(["Ts", "Js"]);
    expect(decisionsAt(placed, { hand: 1, step: 0 }).map((entry) => entry.place.kind)).toEqual(["auction"]);
    expect(decisionsAt(placed, { hand: 0, step: 0 })).toEqual([]);
    // Every placed decision's step is a step of the view.
    for (const { position } of placed) expect(clampPosition(view, position)).toEqual(position);
  });

  it("places a discard and the widow at the auction step of a hand that has them", () => {
    const widowView: ReplayView = { ...view, hands: [WIDOW_HAND.hand] };
    const placed = placeDecisions(widowView, [
      decision(0, 3, 1, "widow"),
      decision(0, 6, 0, "discard 9c Tc 3d 2h Qh Kh Ah"),
      decision(0, 25, 0, "3c"),
    ]);
    expect(placed.map((entry) => [entry.position.step, entry.place.kind, entry.place.index])).toEqual([
      [0, "before_play", 0],
      [0, "before_play", 3],
      [6, "play", 2],
    ]);
  });
});
