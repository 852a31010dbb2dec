// The server's messages, as docs/protocol.md describes them.

/** The presets this client has words for (names, How to play pages); the server says which exist. */
export type Preset =
  | "house"
  | "ten_point"
  | "no_jick"
  | "cutthroat"
  | "five_point"
  | "mcleod"
  | "widow"
  | "nine_card";
export type Phase = "auction" | "widow" | "trump" | "discard" | "play" | "hand_over" | "match_over";
export type SuitLetter = "c" | "d" | "h" | "s";

/**
 * An action as the server sends it (docs/protocol.md, "Actions"): what it is, for the client to put
 * into words (i18n/actions.ts), and its `text` in record notation, which the client sends back in
 * `act` and never reads.
 */
export type Action =
  | { text: string; kind: "pass" }
  | { text: string; kind: "widow" }
  | { text: string; kind: "bid"; amount: number }
  | { text: string; kind: "trump"; suit: SuitLetter }
  | { text: string; kind: "discard"; cards: string[] }
  | { text: string; kind: "play"; card: string };

/** An action as everyone learns it from an event: a discard says how many cards, never which. */
export type PublicAction = Exclude<Action, { kind: "discard" }> | { kind: "discard"; count: number };

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** Whether a value from the server is an action of one of the kinds this client knows. */
export function isAction(value: unknown): value is Action {
  if (!value || typeof value !== "object") return false;
  const action = value as Record<string, unknown>;
  if (typeof action.text !== "string") return false;
  switch (action.kind) {
    case "pass":
    case "widow":
      return true;
    case "bid":
      return typeof action.amount === "number";
    case "trump":
      return typeof action.suit === "string" && "cdhs".includes(action.suit) && action.suit.length === 1;
    case "discard":
      return isStrings(action.cards);
    case "play":
      return typeof action.card === "string";
    default:
      return false;
  }
}

export interface Settings {
  preset: Preset;
  players: number;
  teams: boolean;
  target: number;
  turn_timer: number;
  bot_level: string;
  hints: boolean;
  /** One bid above the preset's highest that wins or loses the match. */
  shoot_the_moon: boolean;
  /** A side at -21 or below loses. */
  elimination: boolean;
  /** The bidder exchanges with a three-card kitty (five_point only). */
  kitty: boolean;
  /** Made by "Find a game": public, timed, no host; people take bots' seats at the next hand. */
  matchmade?: boolean;
}

export interface SeatInfo {
  seat: number;
  name: string | null;
  bot: boolean;
  /** A bot's seat: the bot's level (`expert`), shown beside its name; null otherwise. */
  bot_level?: string | null;
  open: boolean;
  /** A person who found a game takes this bot's seat at the next hand (the bot plays until then). */
  arriving?: boolean;
  connected: boolean;
  /** During a match, for a person who is away: the ms before the server plays for the seat (0: it does). */
  bot_in_ms?: number | null;
  /** The seat's player profile (a bot's: its level's, e.g. `bot-heuristic`), or null for a guest. */
  player?: string | null;
  /** That profile's rating in the table's preset, or null (absent from a server without profiles). */
  rating?: number | null;
  /** The mark that tells this person apart (its name taken twice, or like a bot level), or null: shown as sent. */
  mark?: string | null;
  /** A person's matches finished and left (null for a bot or a guest). */
  finished?: number | null;
  left?: number | null;
}

export interface TableInfo {
  code: string;
  settings: Settings;
  status: "lobby" | "playing" | "finished";
  host: number | null;
  seats: SeatInfo[];
  you: number | null;
  /** The seat this browser's person takes at the next hand (watching until then), or null. */
  you_arrive?: number | null;
  match_number: number;
  /** What the host chose for the chat (absent from a server older than the chat). */
  chat?: ChatControls;
  /** Whether the host listed the table as open, for anyone to find on the landing page. */
  listed?: boolean;
  /** After a match: the seats ready to play the next one, and whether the host asked for new partners. */
  rematch?: { ready: number[]; new_partners: boolean };
}

/** A table listed as open, as the landing page shows it (never a token). */
export interface OpenTable {
  table: string;
  settings: Settings;
  seats: number;
  free: number;
  bots: number;
  host: string | null;
  /** The host's mark (a name taken twice at the table, or like a bot level), or null: shown as sent. */
  host_mark?: string | null;
}

/** The host's controls of the table's chat, and who may write in it now. */
export interface ChatControls {
  on: boolean;
  /** Whether spectators may write (they may always read). */
  spectators: boolean;
  /** The seats the host has muted. */
  muted: number[];
  /** The server's error code refusing a line now from each seat and from a spectator, or null. */
  refused: { seats: (string | null)[]; spectator: string | null };
}

/** A line of the table's chat; `seat` is null for a spectator. Shown as plain text, never markup. */
export interface ChatLine {
  id: number;
  at: number;
  seat: number | null;
  name: string;
  /** The mark its name is shown with (see SeatInfo.mark), or null. */
  mark?: string | null;
  text: string;
}

/** A reaction a seat may show: one of those the server lists (GET /api/presets `reactions`). */
export type Reaction = string;

export interface RulesInfo {
  name: Preset;
  target: number;
  min_bid: number;
  max_bid: number;
  /** The moon (max_bid + 1) where it may be shot, else max_bid. */
  top_bid: number;
  shoot_the_moon: boolean;
  /** The bid that is the moon at this table, or null where it may not be shot. */
  moon_bid: number | null;
  /** The score that puts a side out (-21), or 0 when elimination is off. */
  elimination: number;
  /** Cards the bidder takes after the auction (the kitty), or 0 when none. */
  kitty: number;
  /** Cards the bidder takes with the `widow` action before naming trump, or 0 when none. */
  widow: number;
  /** The others discard their non-trumps and draw back from the stock; the bidder discards last. */
  refill: boolean;
  /** The bidder takes what is left of the stock before discarding. */
  take_stock: boolean;
  /** A trump may be discarded only with every non-trump. */
  keep_trumps: boolean;
  /** A scoring trump may be discarded only with every other card. */
  keep_scoring_trumps: boolean;
  /** The bidder must lead a trump when it holds one. */
  bidder_leads_trump: boolean;
  /**
   * Only trumps are played (nine_card): everyone, the bidder first, trades every non-trump for stock
   * cards; a player with no trump left is out of the hand; extra trumps go to the first trick.
   */
  trumps_only?: boolean;
  /** The jokers score for the side of the player who held them, whoever takes the trick. */
  jokers_to_holder?: boolean;
  /** Only the bidding side can win the match, in a hand where it makes its bid. */
  only_bidder_wins?: boolean;
  trump_named: boolean;
  hand_size: number;
  cards_dealt: number;
  /** Jokers in the deck: 2, or 1 where there is a single joker (BJ). */
  jokers: number;
  points: string[];
  point_values: Record<string, number>;
}

export interface TrickInfo {
  leader: number;
  cards: string[];
  winner: number;
  /** The card that won it (the winner's strongest where it played several). */
  winning_card: string;
  /**
   * The seat of each card, in the order of `cards`. Where only trumps are played a seat may be
   * missing (out of trumps) or repeated (extra trumps to the first trick).
   */
  seats?: number[];
}

/** A finished trick as `[seat, card]` pairs; without `seats`, every seat once from the leader. */
export function trickPlays(trick: TrickInfo, players: number): [number, string][] {
  return trick.cards.map((card, i): [number, string] => [trick.seats?.[i] ?? (trick.leader + i) % players, card]);
}

/** What became of a hand's bid, as the server says. */
export type Outcome = "made" | "set" | "moon_made" | "moon_reset" | "moon_set" | "thrown_in";

/** What ended a match, as the server says. */
export type EndedBy = "target" | "moon_made" | "moon_set" | "elimination";

/** Why a side at or above the target has not won the match, as the server says. */
export type NotWon = "beaten" | "thrown_in" | "bidder_only" | "set" | "tie";

export interface HandResult {
  number: number;
  dealer: number;
  bidder: number | null;
  bid: number | null;
  trump: SuitLetter | null;
  points: Record<string, number | null>;
  game_points: number[];
  taken: number[];
  made: boolean | null;
  outcome: Outcome;
  scores: number[];
  out: string[];
  discards: string[][];
  /** What ended the match with this hand, or null while it goes on. */
  ended_by: EndedBy | null;
  /** The sides at or above the target after this hand that have not won the match, and why. */
  above_target: { side: number; why: NotWon }[];
}

export interface PublicGame {
  rules: RulesInfo;
  players: number;
  sides: number[][];
  seat_side: number[];
  scores: number[];
  start_scores: number[];
  hand_number: number;
  dealer: number;
  phase: Phase;
  to_act: number | null;
  bids: [number, number | null][];
  bidder: number | null;
  bid: number;
  trump: SuitLetter | null;
  leader: number | null;
  trick: [number, string][];
  /** How many undealt cards the bidder has taken into its hand this hand (kitty, widow, stock; never which). */
  took: number;
  /** `took` by where the cards came from. */
  bidder_took: { kitty: number; widow: number; stock: number };
  /** Undealt cards drawn this hand, by the bidder and by refills. */
  drawn: number;
  /** How many cards each seat has discarded this hand (0: not yet, or never). */
  discarded: number[];
  /** Cards each seat drew from the stock after discarding (presets that refill). */
  refilled: number[];
  /** Undealt cards not drawn yet: the stock, or the sleeping cards. */
  stock_left: number;
  /** The cards left in the stock: `stock_left` less the widow while it waits. */
  stock: number;
  /** The cards of the widow not taken yet. */
  widow_left: number;
  /** Per seat: whether it trades its non-trumps for stock cards after discarding. */
  refills: boolean[];
  tricks: TrickInfo[];
  hand_sizes: number[];
  /** Where only trumps are played: the seats everyone can tell hold no trump (out of the hand). */
  out_of_hand: number[];
  results: HandResult[];
  winner: number | null;
  /** What ended the match, once it is over. */
  ended_by: EndedBy | null;
  /** The sides at or below the elimination score (none with elimination off). */
  eliminated: number[];
  /** Once the match is over, every side's place and figures, best place first (else null). */
  standings: Standing[] | null;
}

/** A side's place and the figures of its match, as the server decides them (smear.standings). */
export interface Standing {
  side: number;
  /** 1 the best; sides tied in the same group share a place ("1st, 2nd, 2nd, 4th"). */
  place: number;
  score: number;
  /** Out of the match: eliminated, or set on the moon (placed after every side still in). */
  out: boolean;
  /** Hands its side won the auction in, and of those the bids made and the bids set. */
  bids: number;
  made: number;
  set: number;
  /** Points taken over the hands played (a hand thrown in is not played), and per hand played. */
  points: number;
  hands: number;
  points_per_hand: number | null;
}

/**
 * The legal discards on this seat's turn to discard: exactly `count` cards, all of `required` and
 * the rest chosen from `choosable`.
 */
export interface DiscardInfo {
  count: number;
  required: string[];
  choosable: string[];
  /** How many cards the stock deals this seat back after the discard (0 where it does not refill). */
  draws: number;
  /** How many cards it holds then. */
  holds: number;
  /** Its trumps and the stock make less than a hand: it keeps non-trumps, or holds less than a hand. */
  stock_short: boolean;
}

export interface SeatView {
  seat: number;
  hand: string[];
  discards: string[];
  /** The legal actions; a discard may be legal while this is empty (too many to list). */
  legal: Action[];
  /** On this seat's turn to discard, which discards are legal; else null. */
  discard: DiscardInfo | null;
  /** The cards of `hand` that are trumps this hand, in hand order (none before trump is known). */
  trumps_in_hand: string[];
  /** The public `out_of_hand`, and this seat too when it holds no trump. */
  out_of_hand: number[];
  /** Where only trumps are played, once play has begun: the cards of `hand` it can never play this hand. */
  dead_cards: string[];
  /** On this seat's turn in the first trick where only trumps are played: the cards it plays to it in a row; else 0. */
  extra_trumps: number;
  public: PublicGame;
}

export interface StateMessage {
  version: number;
  table: TableInfo;
  game: SeatView | PublicGame | null;
  resync: boolean;
  /** With a turn timer, the milliseconds the seat to act had left when the state was sent; else null. */
  turn_left_ms?: number | null;
  /** The change that made this version, when this state is the first to show it; else null. */
  event?: TableEvent | null;
}

/**
 * A line of the play log that an action made happen besides its own (docs/protocol.md, `lines`):
 * the trick it won, the kitty or the stock the bidder took, a seat's refill. Seats and counts only.
 */
export type LogLine =
  | { kind: "trick"; seat: number }
  /** A deal's: a person who found a game takes that bot's seat now. */
  | { kind: "took_seat"; seat: number }
  | { kind: "kitty" | "stock" | "refill"; seat: number; count: number };

export interface TableEvent {
  kind: string;
  seat?: number;
  /** `action`: what the seat did. */
  action?: PublicAction;
  /** `action`: the log's lines it made happen, in the order the server shows them after its own. */
  lines?: LogLine[];
  bot?: boolean;
  match?: number;
  hand?: number;
  /** `chat_settings`: the chat on or off, spectators writing or not. */
  on?: boolean;
  spectators?: boolean;
  /** `muted`: the seat muted or given its voice back. */
  muted?: boolean;
  /** `rematch`: the seat will play again, or not. */
  ready?: boolean;
  /** `listed`: the table listed as open, or taken off the list. */
  listed?: boolean;
}

export interface EventMessage {
  version: number;
  event: TableEvent;
}

export interface ServerError {
  code: string;
  args: Record<string, string | number>;
  message: string;
}

export type Ack = ({ ok: true } & Record<string, unknown>) | { ok: false; error: ServerError };

/** It is this seat's turn: an action is listed, or a discard is due (its choices are not always listed). */
export function canAct(view: SeatView): boolean {
  return view.public.to_act === view.seat && (view.legal.length > 0 || !!view.discard);
}

/** Whether `bid` is the moon at this table (the server names the moon bid in the rules). */
export function isMoonBid(rules: RulesInfo, bid: number | null | undefined): boolean {
  return rules.moon_bid !== null && bid === rules.moon_bid;
}

/** The seat's view when the receiver holds a seat, null for a spectator or in the lobby. */
export function seatView(state: StateMessage): SeatView | null {
  const game = state.game;
  if (game && "hand" in game) return game;
  return null;
}

/** The public part of the game, for seats and spectators alike. */
export function publicGame(state: StateMessage): PublicGame | null {
  const game = state.game;
  if (!game) return null;
  return "hand" in game ? game.public : game;
}
