// A player away from a match: the server says in each seat's `bot_in_ms` how long before it plays
// for them (0 once it does); the seat plate counts it down and says so.

import { t } from "../../i18n";
import { secondsLeft } from "../../turnClock";
import type { StateMessage } from "../../types";

/** When each state was first drawn (client clock, ms): the time its `bot_in_ms` counts from. */
const drawnAt = new WeakMap<StateMessage, number>();

/** The server's `bot_in_ms` for a seat: a number of ms, or null (connected, a bot, no match). */
export function botInMs(state: StateMessage, seat: number): number | null {
  const value = (state.table.seats[seat] as { bot_in_ms?: unknown } | undefined)?.bot_in_ms;
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, value) : null;
}

/**
 * When the server will play for the seat (client clock, ms), or null when it is not away. The
 * countdown runs from when the state was first drawn, so a state drawn again does not restart it.
 */
export function awayDeadline(state: StateMessage, seat: number, now: number): number | null {
  const left = botInMs(state, seat);
  if (left === null) return null;
  let since = drawnAt.get(state);
  if (since === undefined) {
    since = now;
    drawnAt.set(state, since);
  }
  return since + left;
}

/** What the seat plate says of an away seat: a short chip, and the sentence read out in its place. */
export function awayTexts(name: string, deadline: number, now: number): { chip: string; spoken: string } {
  const n = secondsLeft(deadline, now);
  if (n > 0) return { chip: t("ux.away_chip", { n }), spoken: t("ux.away_in", { name, n }) };
  return { chip: t("ux.away_chip_playing"), spoken: t("ux.away_playing", { name }) };
}
