// Stepping through a replay: each hand is the auction (with what happens before the first trick),
// then each trick, then the hand's result. A position is a hand and a step within it; the address
// carries it as `?hand=3&step=2` (hand counted from 1; step 0 is the auction, step k is trick k, and
// the step after the last trick is the result). What each step shows is the server's (the hand's
// `steps`, docs/protocol.md): this file only looks it up.

import type { ReplayDecision, ReplayHand, ReplayStep, ReplayTrick, ReplayView } from "./types";

export interface Position {
  /** The index of the hand in `view.hands` (0 for hand 1). */
  hand: number;
  /** The index of the step in the hand's `steps`: 0 the auction, then each trick, then the result. */
  step: number;
}

/** What a step shows: its kind, and for a trick its place in the hand's `tricks` (from 0). */
export type Step = ReplayStep;

/** How many steps a hand has: the auction, each trick, and the result once there is one. */
export function stepCount(hand: ReplayHand): number {
  return hand.steps.length;
}

/** Every step of the match, hand after hand. */
export function totalSteps(view: ReplayView): number {
  return view.hands.reduce((sum, hand) => sum + stepCount(hand), 0);
}

/** What a step of a hand shows (a step out of range is the nearest there is). */
export function stepOf(hand: ReplayHand, step: number): Step {
  return hand.steps[Math.min(Math.max(0, Math.trunc(step) || 0), hand.steps.length - 1)];
}

/** Each seat's cards at a step: as dealt at the auction, then as held before the step's trick. */
export function cardsAt(hand: ReplayHand, step: number): string[][] {
  return stepOf(hand, step).held.map((places, seat) => places.map((place) => hand.cards[seat][place]));
}

/** The trick a step shows, or null at the auction and the result. */
export function trickAt(hand: ReplayHand, step: number): ReplayTrick | null {
  const shown = stepOf(hand, step);
  return shown.kind === "trick" ? hand.tricks[shown.trick] : null;
}

/**
 * The trick a step shows by seat, in the order the seats first played to it: one entry per seat with
 * the cards it played (more than one where a seat plays extra cards to a trick); none at the auction
 * and the result.
 */
export function trickBySeat(hand: ReplayHand, step: number): { seat: number; cards: string[] }[] {
  const shown = stepOf(hand, step);
  if (shown.kind !== "trick") return [];
  const { plays } = hand.tricks[shown.trick];
  return shown.by_seat.map((places) => ({
    seat: plays[places[0]].seat,
    cards: places.map((place) => plays[place].card),
  }));
}

/** The cards a seat plays to the trick a step shows (none at the auction and the result). */
export function playedAt(hand: ReplayHand, step: number, seat: number): string[] {
  return trickBySeat(hand, step).find((entry) => entry.seat === seat)?.cards ?? [];
}

/** The side a seat belongs to, or -1. */
export function sideOfSeat(view: ReplayView, seat: number): number {
  return view.sides.findIndex((side) => side.includes(seat));
}

/** The scores a step shows: before the hand, or after it at its result. */
export function scoresAt(hand: ReplayHand, step: number): { scores: number[]; after: boolean } {
  const { scores, after } = stepOf(hand, step);
  return { scores, after };
}

// --- moving ----------------------------------------------------------------------------------------

/** A position inside the match: the hand and the step clamped to the ones that exist. */
export function clampPosition(view: ReplayView, position: Position): Position {
  const last = view.hands.length - 1;
  const hand = Math.min(Math.max(0, Math.trunc(position.hand) || 0), Math.max(0, last));
  const steps = view.hands[hand] ? stepCount(view.hands[hand]) : 1;
  const step = Math.min(Math.max(0, Math.trunc(position.step) || 0), steps - 1);
  return { hand, step };
}

export function firstPosition(): Position {
  return { hand: 0, step: 0 };
}

export function lastPosition(view: ReplayView): Position {
  const hand = Math.max(0, view.hands.length - 1);
  return { hand, step: view.hands[hand] ? stepCount(view.hands[hand]) - 1 : 0 };
}

export function isFirst(position: Position): boolean {
  return position.hand === 0 && position.step === 0;
}

export function isLast(view: ReplayView, position: Position): boolean {
  const last = lastPosition(view);
  return position.hand === last.hand && position.step === last.step;
}

/** The step after this one: the next trick, the result, then the next hand's auction. */
export function nextPosition(view: ReplayView, position: Position): Position {
  const hand = view.hands[position.hand];
  if (!hand) return clampPosition(view, position);
  if (position.step < stepCount(hand) - 1) return { hand: position.hand, step: position.step + 1 };
  if (position.hand < view.hands.length - 1) return { hand: position.hand + 1, step: 0 };
  return position;
}

/** The step before this one: back to the previous hand's result from an auction. */
export function previousPosition(view: ReplayView, position: Position): Position {
  if (position.step > 0) return { hand: position.hand, step: position.step - 1 };
  if (position.hand > 0) {
    const hand = position.hand - 1;
    return { hand, step: stepCount(view.hands[hand]) - 1 };
  }
  return position;
}

/** The first step of a hand (its auction). */
export function handStart(view: ReplayView, hand: number): Position {
  return clampPosition(view, { hand, step: 0 });
}

/** The step's place in the whole match, counted from 1: "step 12 of 80". */
export function stepNumber(view: ReplayView, position: Position): number {
  return view.hands.slice(0, position.hand).reduce((sum, hand) => sum + stepCount(hand), 0) + position.step + 1;
}

// --- the decisions of a review ---------------------------------------------------------------------

/**
 * Where one of a hand's actions is shown. Each step names its actions among the hand's
 * (`first_action`, `actions`): the auction step's are the view's `auction`, then `before_play`
 * (the widow, trump and discards); a trick step's are that trick's `plays`.
 */
export type ActionPlace =
  | { step: 0; kind: "auction" | "before_play"; index: number; seat: number; action: string }
  /** `trick` counts from 0 (the step is `trick + 1`); `index` is the play's place in the trick. */
  | { step: number; kind: "play"; trick: number; index: number; seat: number; action: string };

/** The place of the hand's action `actionIndex` (from 0, every seat's actions counted), or null past its last. */
export function placeOfAction(hand: ReplayHand, actionIndex: number): ActionPlace | null {
  if (!Number.isInteger(actionIndex) || actionIndex < 0) return null;
  const step = hand.steps.findIndex(
    (shown) => actionIndex >= shown.first_action && actionIndex < shown.first_action + shown.actions,
  );
  if (step < 0) return null;
  const shown = hand.steps[step];
  const index = actionIndex - shown.first_action;
  if (shown.kind === "trick") {
    const { seat, card } = hand.tricks[shown.trick].plays[index];
    return { step, kind: "play", trick: shown.trick, index, seat, action: card };
  }
  if (shown.kind !== "auction") return null;
  if (index < hand.auction.length) {
    const { seat, action } = hand.auction[index];
    return { step: 0, kind: "auction", index, seat, action };
  }
  const before = index - hand.auction.length;
  const entry = hand.before_play[before];
  return entry ? { step: 0, kind: "before_play", index: before, seat: entry.seat, action: entry.action } : null;
}

/** A reviewed decision with the step that shows it. */
export interface PlacedDecision {
  decision: ReplayDecision;
  position: Position;
  place: ActionPlace;
}

/**
 * The decisions the view can show, each with its step (the auction step for bids, passes, the widow,
 * trump and discards; the trick's step for a card), in the order given. A decision the view does
 * not hold, or whose seat (or card) is not the one the view has there, is left out.
 */
export function placeDecisions(view: ReplayView, decisions: ReplayDecision[]): PlacedDecision[] {
  const placed: PlacedDecision[] = [];
  for (const decision of decisions) {
    const hand = view.hands[decision.hand];
    const place = hand ? placeOfAction(hand, decision.actionIndex) : null;
    if (!place || place.seat !== decision.seat) continue;
    if (place.kind === "play" && place.action !== decision.action) continue;
    placed.push({ decision, position: { hand: decision.hand, step: place.step }, place });
  }
  return placed;
}

/** The placed decisions a step shows. */
export function decisionsAt(placed: PlacedDecision[], position: Position): PlacedDecision[] {
  return placed.filter((entry) => entry.position.hand === position.hand && entry.position.step === position.step);
}

// --- the address -----------------------------------------------------------------------------------

/** The position an address's query string asks for (`?hand=3&step=2`), clamped; the start without one. */
export function positionFromSearch(view: ReplayView, search: string): Position {
  const params = new URLSearchParams(search);
  const hand = Number(params.get("hand") ?? "1");
  const step = Number(params.get("step") ?? "0");
  if (!Number.isFinite(hand) || !Number.isFinite(step)) return firstPosition();
  return clampPosition(view, { hand: hand - 1, step });
}

/** A query string with the position in it, other parameters kept: `?hand=3&step=2`. */
export function searchWithPosition(search: string, position: Position): string {
  const params = new URLSearchParams(search);
  params.set("hand", String(position.hand + 1));
  params.set("step", String(position.step));
  return `?${params.toString()}`;
}
