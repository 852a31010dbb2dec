import { describe, expect, it } from "vitest";
import { game, watching } from "../../test/states";
import type { StateMessage } from "../../types";
import { awayDeadline, awayTexts, botInMs } from "./away";

/** A state in which the server says seat 1's player is away, a bot due in `ms` (null: not away). */
function away(ms: number | null | undefined): StateMessage {
  const state = watching(game({ phase: "play" }));
  const seats = state.table.seats.map((seat) =>
    seat.seat === 1 ? { ...seat, connected: false, ...(ms === undefined ? {} : { bot_in_ms: ms }) } : seat,
  );
  return { ...state, table: { ...state.table, seats } };
}

describe("awayDeadline", () => {
  it("counts from when the state was first drawn, however often it is drawn again", () => {
    const state = away(12_000);
    expect(awayDeadline(state, 1, 1_000)).toBe(13_000);
    expect(awayDeadline(state, 1, 5_000)).toBe(13_000);
    // A newer state says anew how long is left.
    expect(awayDeadline(away(4_000), 1, 9_000)).toBe(13_000);
  });

  it("is null for a seat the server gives no countdown", () => {
    expect(awayDeadline(away(null), 1, 0)).toBeNull();
    expect(awayDeadline(away(undefined), 1, 0)).toBeNull(); // a server older than the field
    expect(awayDeadline(away(12_000), 0, 0)).toBeNull();
    expect(botInMs(away(Number.NaN), 1)).toBeNull();
    expect(botInMs(away(0), 1)).toBe(0);
  });
});

describe("awayTexts", () => {
  it("counts the whole seconds left down, then says the bot plays", () => {
    expect(awayTexts("Ann", 13_000, 1_000)).toEqual({
      chip: "away · bot in 12 s",
      spoken: "Away: a bot plays for Ann in 12 s",
    });
    expect(awayTexts("Ann", 13_000, 12_001).chip).toBe("away · bot in 1 s");
    expect(awayTexts("Ann", 13_000, 13_000)).toEqual({ chip: "bot playing", spoken: "A bot is playing for Ann" });
    expect(awayTexts("Ann", 13_000, 20_000).spoken).toBe("A bot is playing for Ann");
  });
});
