import { describe, expect, it } from "vitest";
import { game, HOUSE_RULES, NINE_CARD_RULES, seat, taken, TEN_POINT_RULES, watching } from "../../test/states";
import type { RulesInfo } from "../../types";
import {
  bidChip,
  contractText,
  deadCards,
  drewChip,
  exchanging,
  playNotes,
  tricksWon,
  waitingText,
} from "./table";

const MOON: RulesInfo = { ...HOUSE_RULES, shoot_the_moon: true, top_bid: 7, moon_bid: 7 };
const WIDOW: RulesInfo = { ...TEN_POINT_RULES, name: "widow", widow: 4, refill: true, take_stock: true };
// In the widow game everyone but the bidder (Ben) trades with the stock, as the server says.
const WIDOW_REFILLS = [true, false, true, true];

describe("tricksWon", () => {
  it("counts the tricks each side has taken, partners together", () => {
    const trick = (winner: number) => ({ leader: 0, cards: ["2c", "3c", "4c", "5c"], winner, winning_card: "5c" });
    const pub = game({ sides: [[0, 2], [1, 3]], seat_side: [0, 1, 0, 1], tricks: [0, 2, 3, 2].map(trick) });
    expect([tricksWon(pub, 0), tricksWon(pub, 1)]).toEqual([3, 1]);
  });
});

describe("bidChip", () => {
  const bids: [number, number | null][] = [
    [1, null],
    [2, 3],
    [3, 7],
  ];

  it("shows each seat's bid or pass during the auction, the moon named so", () => {
    const pub = game({ rules: MOON, bids, to_act: 0 });
    expect(bidChip(pub, 1)).toEqual({ text: "pass", passed: true, moon: false });
    expect(bidChip(pub, 2)).toEqual({ text: "bid 3", passed: false, moon: false });
    expect(bidChip(pub, 3)).toEqual({ text: "moon (7)", passed: false, moon: true });
    expect(bidChip(pub, 0)).toBeNull();
  });

  it("keeps only the bidder's bid once the auction is over", () => {
    const pub = game({ phase: "play", bids: [...bids.slice(0, 2), [3, null]], bidder: 2, bid: 3 });
    expect(bidChip(pub, 2)).toEqual({ text: "bid 3", passed: false, moon: false });
    expect(bidChip(pub, 1)).toBeNull();
  });
});

describe("drewChip", () => {
  it("shows what a player drew from the stock once it has discarded", () => {
    const traded = { discarded: [0, 0, 3, 0], refilled: [0, 0, 3, 0] };
    const pub = game({ rules: WIDOW, phase: "discard", bidder: 1, to_act: 3, refills: WIDOW_REFILLS, ...traded });
    expect(drewChip(pub, 2)).toBe("drew 3");
    expect(drewChip(pub, 3)).toBeNull();
  });

  it("shows what the bidder took, and nothing during the auction", () => {
    const pub = game({ rules: WIDOW, phase: "trump", bidder: 1, to_act: 1, ...taken(0, 4) });
    expect(drewChip(pub, 1)).toBe("took 4");
    expect(drewChip({ ...pub, phase: "auction" }, 1)).toBeNull();
  });
});

describe("contractText", () => {
  it("names the bidder and the bid, the moon as such", () => {
    expect(contractText(watching(game()), game())).toEqual({ text: "no bid yet", moon: false });
    const made = game({ phase: "play", bidder: 2, bid: 4 });
    expect(contractText(watching(made), made)).toEqual({ text: "Cy: 4", moon: false });
    const moon = game({ rules: MOON, phase: "play", bidder: 3, bid: 7 });
    expect(contractText(watching(moon), moon)).toEqual({ text: "Di: the moon (7)", moon: true });
  });
});

describe("waitingText", () => {
  const kitty: RulesInfo = { ...HOUSE_RULES, name: "five_point", kitty: 3 };

  it("says whom everyone waits for", () => {
    const pub = game({ to_act: 1 });
    expect(waitingText(watching(pub), pub, true)).toBe("Waiting for Ben");
    expect(waitingText(watching(pub), pub, false)).toBe("Waiting for Ben…");
  });

  it("says what the seat to act is doing with the widow, the kitty and the stock", () => {
    const text = (pub: ReturnType<typeof game>) => waitingText(watching(pub), pub, false);
    expect(text(game({ rules: WIDOW, phase: "widow", bidder: 1, to_act: 1 }))).toBe("Ben takes the widow…");
    expect(text(game({ rules: kitty, phase: "discard", bidder: 1, to_act: 1, ...taken(3) }))).toBe(
      "Ben is exchanging with the kitty…",
    );
    const trading = { rules: WIDOW, phase: "discard" as const, bidder: 1, ...taken(0, 4), refills: WIDOW_REFILLS };
    expect(text(game({ ...trading, to_act: 2 }))).toBe("Cy discards non-trumps and draws from the stock…");
    // The bidder has taken the rest of the stock, as the server says, when its discard comes.
    const tookStock = game({ ...trading, to_act: 1, ...taken(0, 4, 3) });
    expect(text(tookStock)).toBe("Ben takes the rest of the stock and discards…");
    expect(text(game({ ...trading, to_act: 1 }))).toBe("Waiting for Ben…");
  });

  it("says nothing when nobody is to act", () => {
    const over = game({ phase: "hand_over", to_act: null });
    expect(waitingText(watching(over), over, true)).toBeNull();
  });
});

describe("exchanging", () => {
  it("is the bidder's discard once the server says it took the kitty", () => {
    const kitty: RulesInfo = { ...HOUSE_RULES, kitty: 3 };
    expect(exchanging(game({ rules: kitty, phase: "discard", bidder: 1, to_act: 1, ...taken(3) }))).toBe(true);
    expect(exchanging(game({ rules: kitty, phase: "discard", bidder: 1, to_act: 2, ...taken(3) }))).toBe(false);
    // Cards taken from the widow are no kitty.
    expect(exchanging(game({ rules: WIDOW, phase: "discard", bidder: 1, to_act: 1, ...taken(0, 3) }))).toBe(false);
  });
});

describe("deadCards", () => {
  it("is the cards the server says can never be played", () => {
    const pub = game({ rules: NINE_CARD_RULES, phase: "play", trump: "s" });
    const told = { trumps_in_hand: ["As", "Jc", "BJ"], dead_cards: ["Ah", "9d"] };
    const view = seat(pub, 0, ["As", "Jc", "BJ", "Ah", "9d"], told);
    expect(deadCards(view)).toEqual(new Set(["Ah", "9d"]));
  });

  it("is none when the server lists none, or for a spectator", () => {
    const pub = game({ rules: NINE_CARD_RULES, phase: "play", trump: "s" });
    // Non-trumps in hand are not dead unless the server says so (as while discarding).
    expect(deadCards(seat(pub, 0, ["Ah"]))).toBeUndefined();
    expect(deadCards(null)).toBeUndefined();
  });
});

describe("playNotes", () => {
  it("says the first lead sets trump where trump is not named", () => {
    const pub = game({ phase: "play", bidder: 0, to_act: 0 });
    expect(playNotes(pub, seat(pub, 0, ["Ah"]))).toEqual({ leadSetsTrump: true, extras: 0, keeps: 1, dead: false });
    const led = game({ phase: "play", trump: "h", trick: [[0, "Ah"]], to_act: 1 });
    expect(playNotes(led, seat(led, 1, ["Kh"])).leadSetsTrump).toBe(false);
  });

  it("takes the extra trumps a seat plays to the first trick and its dead cards from the server", () => {
    const hand = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s"];
    const pub = game({ rules: NINE_CARD_RULES, phase: "play", trump: "s", bidder: 0, to_act: 0 });
    const view = seat(pub, 0, hand, { trumps_in_hand: hand, extra_trumps: 2 });
    expect(playNotes(pub, view)).toEqual({ leadSetsTrump: false, extras: 2, keeps: 5, dead: false });
    // The client counts nothing itself: no extra trumps unless the server says so.
    expect(playNotes(pub, { ...view, extra_trumps: 0 }).extras).toBe(0);
    const mixed = seat(pub, 0, ["As", "Ks", "2h"], { trumps_in_hand: ["As", "Ks"], dead_cards: ["2h"] });
    expect(playNotes(pub, mixed).dead).toBe(true);
  });
});
