// Stepping through a replay: each hand is the auction (with what happens before the first trick),
// then each trick, then the hand's result. A position is a hand and a step within it; the address
// carries it as `?hand=3&step=2` (hand counted from 1; step 0 is the auction, step k is trick k, and
// the step after the last trick is the result).

import type { ReplayDecision, ReplayHand, ReplayTrick, ReplayView } from "./types";

export interface Position {
  /** The index of the hand in `view.hands` (0 for hand 1). */
  hand: number;
  /** 0: the auction; 1..tricks: that trick; tricks + 1: the result (when the hand has one). */
  step: number;
}

export type Step = { kind: "auction" } | { kind: "trick"; trick: number } | { kind: "result" };

/** How many steps a hand has: the auction, each trick, and the result once there is one. */
export function stepCount(hand: ReplayHand): number {
  return 1 + hand.tricks.length + (hand.result ? 1 : 0);
}

/** Every step of the match, hand after hand. */
export function totalSteps(view: ReplayView): number {
  return view.hands.reduce((sum, hand) => sum + stepCount(hand), 0);
}

/** What a step of a hand shows (`trick` counts from 0). */
export function stepOf(hand: ReplayHand, step: number): Step {
  if (step <= 0) return { kind: "auction" };
  if (step <= hand.tricks.length) return { kind: "trick", trick: step - 1 };
  return { kind: "result" };
}

/** How many tricks of the hand are over before a step shows its own: 0 at the auction and the first trick. */
export function tricksBefore(hand: ReplayHand, step: number): number {
  const shown = stepOf(hand, step);
  if (shown.kind === "auction") return 0;
  if (shown.kind === "trick") return shown.trick;
  return hand.tricks.length;
}

/** Each seat's cards once the first `k` tricks of the hand are played: `held` less the cards played. */
export function heldAfter(hand: ReplayHand, k: number): string[][] {
  const played = new Set<string>();
  for (const trick of hand.tricks.slice(0, Math.max(0, k))) {
    for (const play of trick.plays) played.add(`${play.seat}:${play.card}`);
  }
  return hand.held.map((cards, seat) => cards.filter((card) => !played.has(`${seat}:${card}`)));
}

/** Each seat's cards at a step: as dealt at the auction, then as held before the step's trick. */
export function cardsAt(hand: ReplayHand, step: number): string[][] {
  if (stepOf(hand, step).kind === "auction") return hand.deal.map((cards) => [...cards]);
  return heldAfter(hand, tricksBefore(hand, step));
}

/** The trick a step shows, or null at the auction and the result. */
export function trickAt(hand: ReplayHand, step: number): ReplayTrick | null {
  const shown = stepOf(hand, step);
  return shown.kind === "trick" ? hand.tricks[shown.trick] : null;
}

/**
 * A trick's plays by seat, in the order the seats first played to it: one entry per seat with the
 * cards it played (more than one where a seat plays extra cards to a trick).
 */
export function trickBySeat(trick: ReplayTrick): { seat: number; cards: string[] }[] {
  const bySeat = new Map<number, string[]>();
  for (const play of trick.plays) bySeat.set(play.seat, [...(bySeat.get(play.seat) ?? []), play.card]);
  return [...bySeat].map(([seat, cards]) => ({ seat, cards }));
}

/** The cards a seat plays to the trick a step shows (none at the auction and the result). */
export function playedAt(hand: ReplayHand, step: number, seat: number): string[] {
  const trick = trickAt(hand, step);
  return trick ? trick.plays.filter((play) => play.seat === seat).map((play) => play.card) : [];
}

/** The side a seat belongs to, or -1. */
export function sideOfSeat(view: ReplayView, seat: number): number {
  return view.sides.findIndex((side) => side.includes(seat));
}

/** The scores a step shows: before the hand, or after it at its result. */
export function scoresAt(hand: ReplayHand, step: number): { scores: number[]; after: boolean } {
  if (stepOf(hand, step).kind === "result" && hand.result) return { scores: hand.result.scores, after: true };
  return { scores: hand.scores_before, after: false };
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
 * Where one of a hand's actions is shown. A hand's actions in the record come in this order (the
 * engine's phases: bids and passes, then the widow, trump and discards, then the cards trick by
 * trick), which is the order of the view's `auction`, then `before_play`, then each trick's `plays`.
 */
export type ActionPlace =
  | { step: 0; kind: "auction" | "before_play"; index: number; seat: number; action: string }
  /** `trick` counts from 0 (the step is `trick + 1`); `index` is the play's place in the trick. */
  | { step: number; kind: "play"; trick: number; index: number; seat: number; action: string };

/** The place of the hand's action `actionIndex` (from 0, every seat's actions counted), or null past its last. */
export function placeOfAction(hand: ReplayHand, actionIndex: number): ActionPlace | null {
  if (!Number.isInteger(actionIndex) || actionIndex < 0) return null;
  let rest = actionIndex;
  for (const kind of ["auction", "before_play"] as const) {
    const entries = hand[kind];
    if (rest < entries.length) {
      const { seat, action } = entries[rest];
      return { step: 0, kind, index: rest, seat, action };
    }
    rest -= entries.length;
  }
  for (const [trick, { plays }] of hand.tricks.entries()) {
    if (rest < plays.length) {
      const { seat, card } = plays[rest];
      return { step: trick + 1, kind: "play", trick, index: rest, seat, action: card };
    }
    rest -= plays.length;
  }
  return null;
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
