// The turn timer: the server says how long the seat to act has left; the client counts it down.

import type { TurnClock } from "./store";
import type { StateMessage } from "./types";

/** From this many seconds left the countdown is shown as urgent. */
export const URGENT_SECONDS = 5;

/**
 * The turn timer's deadline for a state: `now` plus the time the server says is left. A later state
 * of the same version keeps the deadline already set, so the countdown does not jump back.
 */
export function turnClockOf(message: StateMessage, previous: TurnClock, now: number): TurnClock {
  const left = message.turn_left_ms;
  if (typeof left !== "number" || !Number.isFinite(left)) return { version: message.version, deadline: null };
  if (previous.version === message.version && previous.deadline !== null) return previous;
  return { version: message.version, deadline: now + Math.max(0, left) };
}

/** Whole seconds left until `deadline` at `now` (both in ms), rounded up and never below zero. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
