// The replay of a match as the server builds it from a `smear-record/1` (GET /api/matches/{match}/replay,
// POST /api/replay): everything the viewer shows comes from here, the browser does no rules work.

import type { Action, Standing, SuitLetter } from "../types";

/** One card played to a trick. */
export interface ReplayPlay {
  seat: number;
  card: string;
}

export interface ReplayTrick {
  leader: number;
  plays: ReplayPlay[];
  /** The seat that took the trick, or null when the record stops before it is over. */
  winner: number | null;
}

/** An action of the auction or between the auction and the first trick, in record notation. */
export interface ReplayAction {
  seat: number;
  /** `pass`, `bid 3`, `trump h`, `widow`, `discard 2c 3d`... */
  action: string;
  /** What the action is, to put it into words (absent from a view made before the server sent it). */
  act?: Action;
}

/** What a finished hand came to. */
export interface ReplayResult {
  /** Each point of the preset, in its order, to the side that took it, or null. */
  points: Record<string, number | null>;
  game_points: number[];
  taken: number[];
  /** Whether the bid was made; null when everyone passed. */
  made: boolean | null;
  /** The scores after the hand, by side. */
  scores: number[];
}

/** What every step of a hand carries, as the server decided it. */
interface ReplayStepBase {
  /** Per seat, the cards it holds at the step, as places in the hand's `cards`, in the order shown. */
  held: number[][];
  /** The scores the step shows, by side: before the hand, or after it at its result (`after`). */
  scores: number[];
  after: boolean;
  /** The step's actions among the hand's, counted from 0 in the record's order, and how many. */
  first_action: number;
  actions: number;
}

/**
 * One step of a hand: the auction (with what comes before the first trick; its cards as dealt), a
 * trick (its cards as held before it), or the hand's result.
 */
export type ReplayStep =
  | (ReplayStepBase & { kind: "auction" | "result" })
  | (ReplayStepBase & {
      kind: "trick";
      /** The trick's place in the hand's `tricks`. */
      trick: number;
      /** The trick's plays by seat: per seat, its places in the trick's `plays`, seats in the order they first played. */
      by_seat: number[][];
    });

export interface ReplayHand {
  number: number;
  dealer: number;
  /** Per seat, the cards as dealt. */
  deal: string[][];
  /** The cards not dealt (widow, kitty, stock...). */
  out: string[];
  auction: ReplayAction[];
  bidder: number | null;
  bid: number | null;
  trump: SuitLetter | null;
  before_play: ReplayAction[];
  /** Per seat, the cards held when trick play begins. */
  held: string[][];
  tricks: ReplayTrick[];
  /** Null when the record stops in this hand. */
  result: ReplayResult | null;
  scores_before: number[];
  /** Per seat, every card it holds at some step: as dealt, then those it takes later (widow, kitty, stock). */
  cards: string[][];
  /** The auction, each trick, and the result once there is one. */
  steps: ReplayStep[];
}

export interface ReplayView {
  /** The preset's name (or a record's rules object, which names it under `preset`). */
  rules: string | { preset: string; [option: string]: unknown };
  players: string[];
  /** The sides as lists of seats; scores, points and the winner are by side index. */
  sides: number[][];
  target: number;
  hands: ReplayHand[];
  scores: number[];
  winner: number | null;
  /** Whether the record ends between hands (not in the middle of one). */
  complete: boolean;
  /** Every side's place and figures as the record leaves it, best place first (the server's). */
  standings: Standing[];
}

// A finished match's summary is the players' API's.
export type { MatchInfo, MatchPlayer } from "../playersApi";

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

function isCardLists(value: unknown): boolean {
  return isList(value) && value.every((cards) => isList(cards) && cards.every((card) => typeof card === "string"));
}

function isPlaceLists(value: unknown): boolean {
  return isList(value) && value.every((places) => isList(places) && places.every((place) => typeof place === "number"));
}

function looksLikeStep(value: unknown): value is ReplayStep {
  if (!value || typeof value !== "object") return false;
  const step = value as Partial<ReplayStep> & { trick?: unknown; by_seat?: unknown };
  const trick = step.kind !== "trick" || (typeof step.trick === "number" && isPlaceLists(step.by_seat));
  return (
    (step.kind === "auction" || step.kind === "trick" || step.kind === "result") &&
    trick &&
    isPlaceLists(step.held) &&
    isList(step.scores) &&
    typeof step.first_action === "number" &&
    typeof step.actions === "number"
  );
}

function looksLikeHand(value: unknown): value is ReplayHand {
  if (!value || typeof value !== "object") return false;
  const hand = value as Partial<ReplayHand>;
  return (
    typeof hand.number === "number" &&
    typeof hand.dealer === "number" &&
    isCardLists(hand.deal) &&
    isCardLists(hand.held) &&
    isList(hand.out) &&
    isList(hand.auction) &&
    isList(hand.before_play) &&
    isList(hand.tricks) &&
    hand.tricks.every((trick) => trick && isList(trick.plays)) &&
    isList(hand.scores_before) &&
    isCardLists(hand.cards) &&
    isList(hand.steps) &&
    hand.steps.length > 0 &&
    hand.steps.every(looksLikeStep) &&
    (hand.result === null || (typeof hand.result === "object" && isList(hand.result?.scores)))
  );
}

/** The shape the viewer relies on; anything else is treated as a failed answer. */
export function looksLikeView(value: unknown): value is ReplayView {
  if (!value || typeof value !== "object") return false;
  const view = value as Partial<ReplayView>;
  return (
    isList(view.players) &&
    view.players.every((name) => typeof name === "string") &&
    isList(view.sides) &&
    view.sides.every((side) => isList(side)) &&
    isList(view.hands) &&
    view.hands.length > 0 &&
    view.hands.every(looksLikeHand) &&
    isList(view.scores)
  );
}

/** The preset's name, whichever form the rules take. */
export function presetOf(view: ReplayView): string {
  return typeof view.rules === "string" ? view.rules : String(view.rules?.preset ?? "");
}

/**
 * A decision of a finished match as the expert judged it from its seat's own view (GET
 * /api/matches/{match}/review). `hand` and `actionIndex` count from 0: the hand in `view.hands`,
 * and the decision's place among every action of that hand, in the record's order.
 */
export interface ReplayDecision {
  hand: number;
  actionIndex: number;
  seat: number;
  /** What the seat did and what the expert preferred, in record notation. */
  action: string;
  best: string;
  /** The same two as the server sends them, to put them into words. */
  acts?: { action: Action; best: Action };
  /** The expected change of the seat's side's score this hand after each; null when forced. */
  expectedAction: number | null;
  expectedBest: number | null;
  /** The expected points given away (above 0). */
  loss: number;
  /** Its margin of error: a loss is named only when it is larger (null from an older server). */
  error: number | null;
}

/** One seat's figures in a match's review: its decisions judged and their total loss. */
export interface ReplayReviewPlayer {
  seat: number;
  decisions: number;
  totalLoss: number;
}

/** The review of a finished match: its costliest decisions (costliest first), every seat's figures. */
export interface ReplayReview {
  decisions: ReplayDecision[];
  players: ReplayReviewPlayer[];
  /** The sampled deals each decision was judged over. */
  samples: number;
}
