// Server messages for the unit tests: the shapes docs/protocol.md gives, filled with a preset's
// rules and a table of four, each test overriding only the facts it is about.

import type { HandResult, PublicGame, RulesInfo, SeatInfo, SeatView, StateMessage } from "../types";

/** The rules of the `house` preset as the server sends them. */
export const HOUSE_RULES: RulesInfo = {
  name: "house",
  target: 21,
  min_bid: 2,
  max_bid: 6,
  top_bid: 6,
  shoot_the_moon: false,
  moon_bid: null,
  elimination: 0,
  kitty: 0,
  widow: 0,
  refill: false,
  take_stock: false,
  keep_trumps: false,
  keep_scoring_trumps: false,
  bidder_leads_trump: false,
  trumps_only: false,
  jokers_to_holder: false,
  only_bidder_wins: false,
  trump_named: false,
  hand_size: 6,
  cards_dealt: 6,
  jokers: 2,
  points: ["high", "low", "jack", "big_joker", "little_joker", "game"],
  point_values: { high: 1, low: 1, jack: 1, big_joker: 1, little_joker: 1, game: 1 },
};

/** The `ten_point` preset: trump named, the jick, the Trey. */
export const TEN_POINT_RULES: RulesInfo = {
  ...HOUSE_RULES,
  name: "ten_point",
  max_bid: 10,
  top_bid: 10,
  bidder_leads_trump: true,
  trump_named: true,
  cards_dealt: 10,
  points: ["high", "low", "jack", "jick", "big_joker", "little_joker", "game", "trey"],
  point_values: { high: 1, low: 1, jack: 1, jick: 1, big_joker: 1, little_joker: 1, game: 1, trey: 3 },
};

/** The `nine_card` preset: everyone trades its non-trumps with the stock, only trumps are played. */
export const NINE_CARD_RULES: RulesInfo = {
  ...TEN_POINT_RULES,
  name: "nine_card",
  refill: true,
  trumps_only: true,
  jokers_to_holder: true,
  only_bidder_wins: true,
  cards_dealt: 9,
};

/** A hand of four players on their own, seat 0 dealing, nothing bid yet. */
export function game(overrides: Partial<PublicGame> = {}): PublicGame {
  return {
    rules: HOUSE_RULES,
    players: 4,
    sides: [[0], [1], [2], [3]],
    seat_side: [0, 1, 2, 3],
    scores: [0, 0, 0, 0],
    start_scores: [0, 0, 0, 0],
    hand_number: 1,
    dealer: 0,
    phase: "auction",
    to_act: 1,
    bids: [],
    bidder: null,
    bid: 0,
    trump: null,
    leader: null,
    trick: [],
    took: 0,
    bidder_took: { kitty: 0, widow: 0, stock: 0 },
    drawn: 0,
    discarded: [0, 0, 0, 0],
    refilled: [0, 0, 0, 0],
    stock_left: 6,
    stock: 6,
    widow_left: 0,
    refills: [false, false, false, false],
    tricks: [],
    hand_sizes: [6, 6, 6, 6],
    out_of_hand: [],
    results: [],
    winner: null,
    ended_by: null,
    eliminated: [],
    standings: null,
    ...overrides,
  };
}

/** What the bidder has taken this hand, by where it came from, as the server says it. */
export function taken(kitty: number, widow = 0, stock = 0): Pick<PublicGame, "took" | "bidder_took"> {
  return { took: kitty + widow + stock, bidder_took: { kitty, widow, stock } };
}

/** Ann, Ben, Cy and Di at seats 0 to 3. */
export const NAMES = ["Ann", "Ben", "Cy", "Di"];

function seats(names: (string | null)[]): SeatInfo[] {
  return names.map((name, seat) => ({ seat, name, bot: false, open: name === null, connected: true }));
}

/** A state as a spectator receives it. */
export function watching(pub: PublicGame, names: (string | null)[] = NAMES): StateMessage {
  return {
    version: 7,
    table: {
      code: "abcdefgh",
      settings: {
        preset: pub.rules.name,
        players: pub.players,
        teams: false,
        target: pub.rules.target,
        turn_timer: 0,
        bot_level: "heuristic",
        hints: true,
        shoot_the_moon: pub.rules.shoot_the_moon,
        elimination: pub.rules.elimination < 0,
        kitty: pub.rules.kitty > 0,
      },
      status: "playing",
      host: 0,
      seats: seats(names),
      you: null,
      match_number: 1,
    },
    game: pub,
    resync: false,
  };
}

/** A seat's view of `pub`, holding `hand`. */
export function seat(pub: PublicGame, you: number, hand: string[], overrides: Partial<SeatView> = {}): SeatView {
  return {
    seat: you,
    hand,
    discards: [],
    legal: [],
    discard: null,
    trumps_in_hand: [],
    out_of_hand: [],
    dead_cards: [],
    extra_trumps: 0,
    public: pub,
    ...overrides,
  };
}

/** A state as the player at `view.seat` receives it. */
export function seated(view: SeatView, names: (string | null)[] = NAMES): StateMessage {
  const state = watching(view.public, names);
  return { ...state, table: { ...state.table, you: view.seat }, game: view };
}

/** A finished hand of four players on their own: Ben (seat 1) bid 3 in hearts and made it. */
export function handResult(overrides: Partial<HandResult> = {}): HandResult {
  return {
    number: 1,
    dealer: 0,
    bidder: 1,
    bid: 3,
    trump: "h",
    points: { high: 1, low: 1, jack: 1, big_joker: 1, little_joker: 1, game: 1 },
    game_points: [0, 20, 0, 0],
    taken: [0, 6, 0, 0],
    made: true,
    outcome: "made",
    scores: [0, 6, 0, 0],
    out: [],
    discards: [[], [], [], []],
    ended_by: null,
    above_target: [],
    ...overrides,
  };
}
