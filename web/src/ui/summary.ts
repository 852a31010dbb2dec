// What became of a hand's bid, in words and as a class, from the outcome the server gives.

import { t } from "../i18n";
import type { MessageKey } from "../i18n/en";
import type { Outcome, PublicGame, StateMessage } from "../types";
import { seatName } from "./names";

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
