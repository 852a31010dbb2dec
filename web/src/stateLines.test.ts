import { describe, expect, it } from "vitest";
import { derivedLines } from "./stateLines";
import { game, TEN_POINT_RULES } from "./test/states";

const WIDOW = { ...TEN_POINT_RULES, name: "widow" as const, widow: 4, refill: true, take_stock: true };

describe("derivedLines", () => {
  it("writes the winner of a trick just taken", () => {
    const trick = { leader: 1, cards: ["Ah", "2h", "3h", "4h"], winner: 1, winning_card: "Ah" };
    const before = game({ phase: "play", to_act: 1 });
    expect(derivedLines(before, { ...before, tricks: [trick] })).toEqual([{ kind: "trick", seat: 1 }]);
  });

  it("writes the kitty the bidder picked up, as the server counts it", () => {
    const before = game({ phase: "auction", to_act: 3, bidder: 2 });
    const after = game({ phase: "discard", to_act: 2, bidder: 2, took: 3, bidder_took: { kitty: 3, widow: 0, stock: 0 } });
    expect(derivedLines(before, after)).toEqual([{ kind: "kitty", seat: 2, count: 3 }]);
  });

  it("leaves the widow to its own event and writes the stock the bidder takes after it", () => {
    const base = game({ rules: WIDOW, phase: "widow", bidder: 1, to_act: 1 });
    const widow = { ...base, phase: "trump" as const, took: 4, bidder_took: { kitty: 0, widow: 4, stock: 0 } };
    expect(derivedLines(base, widow)).toEqual([]);
    const stock = { ...widow, phase: "discard" as const, took: 9, bidder_took: { kitty: 0, widow: 4, stock: 5 } };
    expect(derivedLines(widow, stock)).toEqual([{ kind: "stock", seat: 1, count: 5 }]);
  });

  it("writes what a seat the server says refills drew after discarding, once", () => {
    const refills = [true, false, true, true];
    const before = game({ rules: WIDOW, phase: "discard", bidder: 1, to_act: 2, refills });
    const after = { ...before, to_act: 3, discarded: [0, 0, 3, 0], refilled: [0, 0, 3, 0] };
    expect(derivedLines(before, after)).toEqual([{ kind: "refill", seat: 2, count: 3 }]);
    expect(derivedLines(after, { ...after, to_act: 0 })).toEqual([]);
    // The bidder discards too, but does not refill: no line.
    const bidder = { ...after, discarded: [0, 5, 3, 0] };
    expect(derivedLines(after, bidder)).toEqual([]);
  });

  it("counts a new hand from nothing and writes no trick of the hand before", () => {
    const trick = { leader: 1, cards: ["Ah", "2h", "3h", "4h"], winner: 1, winning_card: "Ah" };
    const over = game({ phase: "hand_over", to_act: null, hand_number: 1, tricks: [trick], took: 3 });
    const next = game({ hand_number: 2, bidder: 0, took: 3, bidder_took: { kitty: 3, widow: 0, stock: 0 } });
    expect(derivedLines(over, next)).toEqual([{ kind: "kitty", seat: 0, count: 3 }]);
    expect(derivedLines(null, next)).toEqual([]);
  });
});
