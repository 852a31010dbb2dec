// The expert's review of a seat's decisions (`review_hand`, `review_match`): the answers read from the
// server's acks (the costliest decisions are the server's list, shown as sent), and each action and
// figure put into words.

import { currentLang } from "../i18n";
import { isAction, type Action } from "../types";

/** One decision judged (docs/protocol.md, `review_hand`). */
export interface ReviewedDecision {
  /** The hand (from 0) in a match's review; null in a hand's review, where the hand is known. */
  hand: number | null;
  /** Its place among the hand's actions (every seat's), from 0. */
  actionIndex: number;
  /** What the seat did and what the expert preferred. */
  action: Action;
  best: Action;
  /** The expected change of the seat's side's score this hand after each; null when forced. */
  expectedAction: number | null;
  expectedBest: number | null;
  /** The expected points given away (0 or more). */
  loss: number;
  /** The margin of error of the loss (null when forced or the best). */
  error: number | null;
}

/**
 * The review of one hand: the seat's decisions in order, the costliest of them to show (the server's
 * choice, in its order), and the sum of their losses.
 */
export interface HandReview {
  hand: number;
  decisions: ReviewedDecision[];
  costliest: ReviewedDecision[];
  totalLoss: number;
}

/** One seat's figures in a match's review. */
export interface PlayerReview {
  seat: number;
  decisions: number;
  totalLoss: number;
}

/** The review of a match: every seat's figures, and the asking seat's costliest decisions. */
export interface MatchReview {
  players: PlayerReview[];
  costliest: ReviewedDecision[];
}

function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function count(value: unknown): value is number {
  return finite(value) && Number.isInteger(value) && value >= 0;
}

function parseDecision(item: unknown, withHand: boolean): ReviewedDecision | null {
  if (!item || typeof item !== "object") return null;
  const entry = item as Record<string, unknown>;
  const { action, best, loss } = entry;
  if (!isAction(action) || !isAction(best) || !finite(loss) || !count(entry.action_index)) {
    return null;
  }
  if (withHand && !count(entry.hand)) return null;
  const expected = (value: unknown) => (finite(value) ? value : null);
  return {
    hand: withHand ? (entry.hand as number) : null,
    actionIndex: entry.action_index,
    action,
    best,
    expectedAction: expected(entry.expected_action),
    expectedBest: expected(entry.expected_best),
    loss: Math.max(0, loss),
    error: expected(entry.error),
  };
}

function parseDecisions(value: unknown, withHand: boolean): ReviewedDecision[] | null {
  if (!Array.isArray(value)) return null;
  const decisions = value.map((item) => parseDecision(item, withHand));
  return decisions.every((decision) => decision !== null) ? (decisions as ReviewedDecision[]) : null;
}

/** The review in an ack of `review_hand`, or null if the ack does not hold one. */
export function parseHandReview(ack: Record<string, unknown>): HandReview | null {
  const decisions = parseDecisions(ack.decisions, false);
  const costliest = parseDecisions(ack.costliest, false);
  if (!count(ack.hand) || !decisions || !costliest) return null;
  const totalLoss = finite(ack.total_loss) ? ack.total_loss : decisions.reduce((sum, d) => sum + d.loss, 0);
  return { hand: ack.hand, decisions, costliest, totalLoss };
}

/** The review in an ack of `review_match`, or null if the ack does not hold one. */
export function parseMatchReview(ack: Record<string, unknown>): MatchReview | null {
  const costliest = parseDecisions(ack.costliest, true);
  if (!Array.isArray(ack.players) || !costliest) return null;
  const players: PlayerReview[] = [];
  for (const item of ack.players as unknown[]) {
    if (!item || typeof item !== "object") return null;
    const entry = item as Record<string, unknown>;
    if (!count(entry.seat) || !count(entry.decisions) || !finite(entry.total_loss)) return null;
    players.push({ seat: entry.seat, decisions: entry.decisions, totalLoss: Math.max(0, entry.total_loss) });
  }
  return { players, costliest };
}

/** Expected points with two decimals and their sign, the language's way: "+4.21", "−0,50", "0.00". */
export function expectedText(points: number): string {
  return new Intl.NumberFormat(currentLang(), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
  })
    .format(points)
    .replace("-", "\u2212");
}

/** A loss (never below 0) with two decimals, the language's way: "0.19", "1,25". */
export function lossText(loss: number): string {
  return new Intl.NumberFormat(currentLang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Math.max(0, loss),
  );
}

/** How a total loss leans: none, a little (under a point), or more. */
export function lossClass(loss: number): "none" | "some" | "much" {
  return loss <= 0 ? "none" : loss < 1 ? "some" : "much";
}
