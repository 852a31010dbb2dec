// When the hand on the table was dealt, from the log: a session notes it, so that a reload resumes
// from just before the deal and the server replays the hand's events (each with its log lines).

import type { LogEntry } from "../../store";
import { publicGame, type StateMessage } from "../../types";

/** Whether a log entry is an event that begins hand `hand`: its deal, or the match's start (hand 1). */
function dealsHand(entry: LogEntry, hand: number): boolean {
  const event = entry.event;
  return (event.kind === "deal" && "hand" in event && event.hand === hand) || (event.kind === "started" && hand === 1);
}

/**
 * The version at which the hand on the table in `message` was dealt, when the message is its deal or
 * the log holds its deal; else null.
 */
export function handDealtAt(log: LogEntry[], message: StateMessage): number | null {
  const pub = publicGame(message);
  if (!pub) return null;
  const kind = message.event?.kind;
  if (kind === "deal" || kind === "started") return message.version;
  for (let i = log.length - 1; i >= 0; i--) {
    if (dealsHand(log[i], pub.hand_number)) return log[i].version;
  }
  return null;
}
