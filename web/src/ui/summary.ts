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
