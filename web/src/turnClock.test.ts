import { describe, expect, it } from "vitest";
import { game, watching } from "./test/states";
import { secondsLeft, turnClockOf } from "./turnClock";

function stateAt(version: number, turnLeftMs: number | null | undefined) {
  return { ...watching(game()), version, turn_left_ms: turnLeftMs };
}

describe("turnClockOf", () => {
  const none = { version: -1, deadline: null };

  it("sets the deadline to now plus the time the server says is left", () => {
    expect(turnClockOf(stateAt(5, 12_000), none, 1_000)).toEqual({ version: 5, deadline: 13_000 });
  });

  it("has no deadline when the table has no timer", () => {
    expect(turnClockOf(stateAt(5, null), none, 1_000)).toEqual({ version: 5, deadline: null });
    expect(turnClockOf(stateAt(5, undefined), none, 1_000)).toEqual({ version: 5, deadline: null });
  });

  it("keeps the deadline of a state of the same version, so the countdown does not jump back", () => {
    const first = turnClockOf(stateAt(5, 12_000), none, 1_000);
    expect(turnClockOf(stateAt(5, 12_000), first, 4_000)).toBe(first);
  });

  it("starts again at a new version", () => {
    const first = turnClockOf(stateAt(5, 12_000), none, 1_000);
    expect(turnClockOf(stateAt(6, 30_000), first, 4_000)).toEqual({ version: 6, deadline: 34_000 });
  });

  it("treats a negative time left as none left", () => {
    expect(turnClockOf(stateAt(5, -500), none, 1_000)).toEqual({ version: 5, deadline: 1_000 });
  });
});

describe("secondsLeft", () => {
  it("rounds up to whole seconds", () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 1)).toBe(10);
    expect(secondsLeft(10_000, 999)).toBe(10);
    expect(secondsLeft(10_000, 1_000)).toBe(9);
  });

  it("never goes below zero", () => {
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 25_000)).toBe(0);
  });
});
