import { describe, expect, it } from "vitest";
import { game, HOUSE_RULES, NINE_CARD_RULES, seat, taken, TEN_POINT_RULES } from "../../test/states";
import type { DiscardInfo, PublicGame } from "../../types";
import {
  discardChoice,
  discardKey,
  discardNotes,
  discardTitle,
  pickedUpCards,
  togglePick,
  type DiscardNote,
} from "./discard";

const HAND = ["2c", "3d", "Ah", "Kh", "5s"];
/** No stock to draw from: the seat keeps what it does not discard. */
const NO_REFILL = { draws: 0, holds: 3, stock_short: false };
const INFO: DiscardInfo = { count: 2, required: ["2c"], choosable: ["3d", "5s"], ...NO_REFILL };

describe("discardChoice", () => {
  it("keeps the picks among the choosable cards, as many as are free, the required cards chosen too", () => {
    const choice = discardChoice(HAND, INFO, new Set(["5s", "Ah", "3d"]));
    expect(choice.free).toBe(1);
    expect(choice.picked).toEqual(new Set(["5s"]));
    expect(choice.selected).toEqual(["2c", "5s"]);
  });

  it("lists the chosen cards in the hand's order", () => {
    const info = { count: 3, required: [], choosable: HAND, ...NO_REFILL };
    expect(discardChoice(HAND, info, new Set(["5s", "2c", "Ah"])).selected).toEqual(["2c", "Ah", "5s"]);
  });
});

describe("togglePick", () => {
  it("picks a free card and unpicks it again", () => {
    const empty = discardChoice(HAND, INFO, new Set());
    const picked = togglePick(empty, "3d");
    expect(picked).toEqual(new Set(["3d"]));
    expect(togglePick(discardChoice(HAND, INFO, picked ?? new Set()), "3d")).toEqual(new Set());
  });

  it("picks no more than are free", () => {
    const full = discardChoice(HAND, INFO, new Set(["3d"]));
    expect(togglePick(full, "5s")).toEqual(new Set(["3d"]));
  });

  it("refuses a required card and one the rules keep", () => {
    const choice = discardChoice(HAND, INFO, new Set());
    expect(togglePick(choice, "2c")).toBeNull();
    expect(togglePick(choice, "Ah")).toBeNull();
  });
});

describe("discardKey", () => {
  it("changes with the hand and with the legal discards, and is empty off the discard", () => {
    const key = discardKey(3, INFO);
    expect(discardKey(3, { ...INFO })).toBe(key);
    expect(discardKey(4, INFO)).not.toBe(key);
    expect(discardKey(3, { ...INFO, choosable: ["3d"] })).not.toBe(key);
    expect(discardKey(3, null)).toBe("");
  });
});

describe("pickedUpCards", () => {
  it("is the hand less the cards dealt, when it counts what the bidder took", () => {
    const dealt = new Set(["2c", "3d", "Ah"]);
    expect(pickedUpCards(dealt, ["2c", "3d", "Ah", "Kh", "5s"], 2)).toEqual(new Set(["Kh", "5s"]));
  });

  it("is unknown when the count does not match (the hand dealt was not seen)", () => {
    expect(pickedUpCards(new Set(["2c"]), ["2c", "3d", "Ah", "Kh"], 2)).toBeUndefined();
  });
});

describe("discardTitle", () => {
  it("names the exchange with the kitty, the nine-card trade and a plain discard", () => {
    const kitty = game({ rules: { ...HOUSE_RULES, kitty: 3 }, phase: "discard", bidder: 1, to_act: 1, ...taken(3) });
    expect(discardTitle(kitty, 3)).toBe("Pick up the kitty: choose 3 cards to put back");
    expect(discardTitle(game({ rules: NINE_CARD_RULES, phase: "discard" }), 1)).toBe("Discard your 1 non-trump");
    expect(discardTitle(game({ rules: TEN_POINT_RULES, phase: "discard" }), 4)).toBe("Choose 4 cards to discard");
    // A discard the rules decide card by card (the widow's bidder holding only cards that must go)
    // is worded as such, never as a choice.
    expect(discardTitle(game({ rules: TEN_POINT_RULES, phase: "discard" }), 8, true)).toBe("Discard these 8 cards");
  });
});

const KEEP_SCORING =
  "Non-trumps go first, then trumps that do not score; a scoring trump (ace, jack, jick, a joker, ten, three or two of trump) only when nothing else is left.";

describe("discardNotes", () => {
  type Refill = Pick<DiscardInfo, "draws" | "holds" | "stock_short">;

  /** The notes for `hand`, whose trumps (as the server lists them) are the cards of the trump suit here. */
  function notes(
    pub: PublicGame,
    you: number,
    hand: string[],
    choice: Pick<DiscardInfo, "count" | "required" | "choosable">,
    refill: Refill = { draws: 0, holds: hand.length - choice.count, stock_short: false },
    jokers: string[] = [],
  ): DiscardNote[] {
    const trumps = hand.filter((card) => card[1] === pub.trump || jokers.includes(card));
    const info = { ...choice, ...refill };
    const view = seat(pub, you, hand, { trumps_in_hand: trumps, discard: info });
    return discardNotes(view, pub, discardChoice(hand, info, new Set()));
  }

  it("says nothing of a free discard", () => {
    const pub = game({ rules: TEN_POINT_RULES, phase: "discard", trump: "h", bidder: 1, to_act: 2 });
    const hand = ["Ah", "Kh", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"];
    expect(notes(pub, 2, hand, { count: 4, required: [], choosable: hand })).toEqual([]);
  });

  const widow = {
    ...TEN_POINT_RULES,
    name: "widow" as const,
    min_bid: 4,
    widow: 4,
    refill: true,
    take_stock: true,
    keep_trumps: true,
    keep_scoring_trumps: true,
  };
  // Everyone but the bidder (Ben) trades with the stock, as the server says.
  const trading = {
    rules: widow,
    phase: "discard" as const,
    trump: "h" as const,
    bidder: 1,
    refills: [true, false, true, true],
  };

  it("tells a player trading with the stock what the server says it draws, and that the stock runs short", () => {
    // The count is the server's: the client does no sums on the stock or the hand.
    const pub = game({ ...trading, to_act: 2, ...taken(0, 4), stock_left: 9, stock: 9 });
    const hand = ["Ah", "2h", "Kc", "Qc", "Jc", "9d", "8d", "7s", "6s"];
    const choice = { count: 5, required: [], choosable: hand.slice(2) };
    expect(notes(pub, 2, hand, choice, { draws: 2, holds: 6, stock_short: true })).toEqual([
      "Discard every non-trump, then draw from the stock back up to 6 cards.",
      "You will draw 2 cards.",
      "The stock cannot replace all your non-trumps: choose the 5 to throw away and keep the others.",
    ]);
  });

  it("tells a player trading more than a hand of trumps which trumps go first, by the server's trumps", () => {
    const pub = game({ ...trading, to_act: 2, ...taken(0, 4), stock_left: 9, stock: 9 });
    const hand = ["Ah", "Kh", "Qh", "Th", "9h", "8h", "7h", "BJ", "2c"];
    const choice = { count: 3, required: ["2c"], choosable: ["Qh", "9h", "8h", "7h"] };
    const keep = { summary: "Non-trumps go first, scoring trumps last.", detail: KEEP_SCORING };
    const told = notes(pub, 2, hand, choice, { draws: 0, holds: 6, stock_short: false }, ["BJ"]);
    expect(told).toContainEqual(keep);
    expect(told).toContain("You will draw nothing this time.");
    // The same cards with no trump among them (as before trump is known) say nothing of trumps.
    const info = { ...choice, draws: 0, holds: 6, stock_short: false };
    const unknown = discardNotes(seat(pub, 2, hand, { discard: info }), pub, discardChoice(hand, info, new Set()));
    expect(unknown).not.toContainEqual(keep);
  });

  it("tells the bidder who took the stock to keep its best cards, scoring trumps last", () => {
    const pub = game({ ...trading, to_act: 1, ...taken(0, 4, 4), stock_left: 0, stock: 0 });
    const hand = ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "2h", "Jd", "Kc", "Qc", "Jc", "9d", "8d", "7s"];
    const plain = ["Kc", "Qc", "Jc", "9d", "8d", "7s"];
    const trumps = ["Kh", "Qh", "9h"];
    expect(notes(pub, 1, hand, { count: 8, required: plain, choosable: trumps })).toEqual([
      "You have picked up the stock (tinted gold): keep your best 6 cards.",
      { summary: "Non-trumps go first, scoring trumps last.", detail: KEEP_SCORING },
      "6 cards have to go and are already chosen: choose 2 more.",
    ]);
    // Where the server says the bidder took nothing from the stock, nothing is said of it.
    const widowOnly = game({ ...trading, to_act: 1, ...taken(0, 4) });
    expect(notes(widowOnly, 1, hand.slice(0, 10), { count: 4, required: [], choosable: hand.slice(0, 10) })).toEqual([
      { summary: "Non-trumps go first, scoring trumps last.", detail: KEEP_SCORING },
    ]);
  });

  const nine = {
    rules: NINE_CARD_RULES,
    phase: "discard" as const,
    trump: "s" as const,
    bidder: 1,
    refills: [true, true, true, true],
  };
  const NINE_HAND = ["As", "Ks", "Qs", "2s", "Ah", "Kh", "Qd", "Jd", "9c"];

  it("says where only trumps are played that every non-trump goes and what comes back", () => {
    const pub = game({ ...nine, to_act: 1, stock_left: 20, stock: 20 });
    const choice = { count: 5, required: NINE_HAND.slice(4), choosable: [] };
    expect(notes(pub, 1, NINE_HAND, choice, { draws: 2, holds: 6, stock_short: false })).toEqual([
      "Discard every non-trump; you will draw back up to 6 cards.",
      "You will draw 2 cards.",
      "Only trumps are played: a non-trump you draw is dead and stays in your hand.",
      "The rules decide every card of this discard: just confirm it.",
    ]);
  });

  it("warns when the server says the stock cannot deal back up to a hand", () => {
    const pub = game({ ...nine, to_act: 2, stock_left: 1, stock: 1 });
    const choice = { count: 5, required: NINE_HAND.slice(4), choosable: [] };
    expect(notes(pub, 2, NINE_HAND, choice, { draws: 1, holds: 5, stock_short: true }).slice(1, 3)).toEqual([
      "You will draw 1 card.",
      "The stock is running out: you will hold only 5 cards.",
    ]);
  });

  it("tells a player holding more than a hand of trumps that it keeps them all", () => {
    const pub = game({ ...nine, to_act: 2, stock_left: 9, stock: 9 });
    const hand = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "2s", "9c"];
    const choice = { count: 1, required: ["9c"], choosable: [] };
    expect(notes(pub, 2, hand, choice, { draws: 0, holds: 8, stock_short: false }).slice(1, 3)).toEqual([
      "You will draw nothing this time.",
      "You hold more than 6 trumps: you keep them all and play the extra ones to the first trick.",
    ]);
  });
});
