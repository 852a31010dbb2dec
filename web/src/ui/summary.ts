// What became of a hand's bid and how the match stands after it, in words, from what the server
// says: the outcome, what ended the match, why the sides at the target have not won.

import { scoreText, t } from "../i18n";
import type { MessageKey } from "../i18n/en";
import type { NotWon, Outcome, PublicGame, StateMessage } from "../types";
import { seatName, sideNames } from "./names";

/** Each outcome of a hand, as the server names it, in words. */
const VERDICTS: Record<Outcome, MessageKey> = {
  made: "sum.made",
  set: "sum.set",
  moon_made: "sum.moon_made",
  moon_reset: "sum.moon_reset",
  moon_set: "sum.moon_set",
  thrown_in: "sum.thrown_in",
};

/** What became of a hand's bid, in words: the server's outcome (made, set, the moon made, reset or set). */
export function verdictText(state: StateMessage, pub: PublicGame, index: number): string {
  const result = pub.results[index];
  const name = result.bidder === null ? "" : seatName(state, result.bidder);
  // An outcome this client does not know yet is still made or set.
  const key = VERDICTS[result.outcome] ?? (result.made ? "sum.made" : "sum.set");
  return t(key, { name, bid: result.bid ?? 0 });
}

/** The verdict's class: made or set, and a moon as such. */
export function outcomeClass(outcome: Outcome): string {
  const set = outcome === "set" || outcome === "moon_set";
  return `${set ? "set" : "made"}${outcome.startsWith("moon_") ? " moon" : ""}`;
}

/** Why a side at or above the target has not won, as the server names it, in words. */
const NOT_WON: Record<NotWon, MessageKey> = {
  beaten: "sum.not_won.beaten",
  thrown_in: "sum.not_won.thrown_in",
  bidder_only: "sum.not_won.bidder_only",
  set: "sum.not_won.set",
  tie: "sum.not_won.tie",
};

/**
 * The sides at or above the target after a hand that have not won the match, one line for each
 * reason the server gives, in the order it lists them.
 */
export function aboveTargetNotes(state: StateMessage, pub: PublicGame, index: number): string[] {
  const sides = new Map<NotWon, number[]>();
  for (const { side, why } of pub.results[index].above_target) sides.set(why, [...(sides.get(why) ?? []), side]);
  return [...sides].map(([why, group]) => {
    const names = group.map((side) => sideNames(state, pub.sides[side])).join("; ");
    const line = t("sum.above_target", { names });
    // A reason this client does not know yet is left unsaid.
    return why in NOT_WON ? `${line} ${t(NOT_WON[why])}` : line;
  });
}

/**
 * How the match ended, where the winner alone does not say it: a moon made or set (the last hand's
 * verdict), or the sides the server says are eliminated; null otherwise.
 */
export function matchEndReason(state: StateMessage, pub: PublicGame): string | null {
  if (pub.ended_by === "moon_made" || pub.ended_by === "moon_set") {
    return verdictText(state, pub, pub.results.length - 1);
  }
  if (pub.eliminated.length === 0) return null;
  const n = scoreText(pub.rules.elimination);
  return pub.eliminated.map((side) => t("end.eliminated", { names: sideNames(state, pub.sides[side]), n })).join(" ");
}

/** A side at the end of the match: its place, its final score and a few figures of its match. */
export interface Standing {
  side: number;
  /** 1 for the winner; sides with the same score share a place ("2nd, 2nd, 4th"). */
  place: number;
  score: number;
  /** Hands this side bid in, and of those, the bids made (the moon included) and the bids set. */
  bids: number;
  made: number;
  set: number;
  /** Points taken per hand played (hands thrown in are not played), or null before any. */
  perHand: number | null;
}

/**
 * The sides in their final places: the winner the server names first, then the sides still in by
 * score, then those out of the match (eliminated, or set on the moon) by score.
 */
export function standings(pub: PublicGame): Standing[] {
  const lastResult = pub.results[pub.results.length - 1];
  const out = new Set(pub.eliminated);
  if (pub.ended_by === "moon_set" && lastResult?.bidder != null) out.add(pub.seat_side[lastResult.bidder]);
  const group = (side: number) => (side === pub.winner ? 0 : out.has(side) ? 2 : 1);
  const order = pub.sides
    .map((_, side) => side)
    .sort((a, b) => group(a) - group(b) || pub.scores[b] - pub.scores[a] || a - b);
  const played = pub.results.filter((result) => result.outcome !== "thrown_in");
  const rows: Standing[] = [];
  order.forEach((side, i) => {
    const above = i > 0 ? rows[i - 1] : null;
    const tied = above !== null && group(above.side) === group(side) && above.score === pub.scores[side];
    const bid = pub.results.filter((result) => result.bidder !== null && pub.seat_side[result.bidder] === side);
    const taken = played.reduce((sum, result) => sum + (result.taken[side] ?? 0), 0);
    rows.push({
      side,
      place: tied && above ? above.place : i + 1,
      score: pub.scores[side],
      bids: bid.length,
      made: bid.filter((result) => result.made === true).length,
      set: bid.filter((result) => result.made === false).length,
      perHand: played.length > 0 ? taken / played.length : null,
    });
  });
  return rows;
}
