import { describe, expect, it } from "vitest";
import type { LogEntry } from "../../store";
import type { PublicAction } from "../../types";

/** Actions as events carry them (any but a discard, which an event only counts). */
const acts = allActs as { [K in keyof typeof allActs]: (...args: Parameters<(typeof allActs)[K]>) => PublicAction };
import { acts as allActs } from "../../test/fakes";
import { game, HOUSE_RULES, TEN_POINT_RULES, watching } from "../../test/states";
import { logText } from "./log";

function line(event: LogEntry["event"], names?: (string | null)[]): LogEntry {
  return { id: 1, version: 1, event, names };
}

describe("logText", () => {
  const state = watching(game());

  it("writes each action of a hand", () => {
    const act = (action: PublicAction) => logText(line({ kind: "action", seat: 0, action }), state);
    expect(act(acts.pass())).toBe("Ann passes");
    expect(act(acts.bid(3))).toBe("Ann bids 3");
    expect(act(acts.trump("h"))).toBe("Ann names trump: hearts");
    expect(act({ kind: "discard", count: 4 })).toBe("Ann discards 4 cards");
    expect(act(acts.play("Th"))).toBe("Ann plays 10♥");
    expect(act(acts.play("BJ"))).toBe("Ann plays big joker");
    expect(act(acts.play("LJ"))).toBe("Ann plays little joker");
  });

  it("writes the host's changes to the chat", () => {
    expect(logText(line({ kind: "chat_settings", on: false, spectators: false }), state)).toBe(
      "The host turned the chat off",
    );
    expect(logText(line({ kind: "muted", seat: 2, muted: true }), state)).toBe("The host muted seat 3 in the chat");
  });

  it("writes the bid the server names the moon as such", () => {
    const moon = watching(game({ rules: { ...HOUSE_RULES, shoot_the_moon: true, top_bid: 7, moon_bid: 7 } }));
    expect(logText(line({ kind: "action", seat: 1, action: acts.bid(7) }), moon)).toBe(
      "Ben shoots the moon (7): this hand wins or loses the match",
    );
  });

  it("counts the widow from the rules", () => {
    const widow = watching(game({ rules: { ...TEN_POINT_RULES, name: "widow", widow: 4 } }));
    expect(logText(line({ kind: "action", seat: 2, action: acts.widow() }), widow)).toBe("Cy takes the widow (4 cards)");
  });

  it("writes the lines the client adds from a change of state", () => {
    expect(logText(line({ kind: "trick", seat: 2 }), state)).toBe("Cy takes the trick");
    expect(logText(line({ kind: "kitty", seat: 1, count: 3 }), state)).toBe("Ben picks up the kitty (3 cards)");
    expect(logText(line({ kind: "stock", seat: 1, count: 1 }), state)).toBe("Ben takes the last card of the stock");
    expect(logText(line({ kind: "refill", seat: 3, count: 2 }), state)).toBe("Di draws 2 cards from the stock");
    expect(logText(line({ kind: "refill", seat: 3, count: 0 }), state)).toBe("Di draws no cards");
  });

  it("writes the table's events, seats counted from 1", () => {
    expect(logText(line({ kind: "created" }), state)).toBe("The table is open");
    expect(logText(line({ kind: "bot", seat: 2, bot: true }), state)).toBe("A bot takes seat 3");
    expect(logText(line({ kind: "bot", seat: 2, bot: false }), state)).toBe("The bot leaves seat 3");
    expect(logText(line({ kind: "kicked", seat: 0 }), state)).toBe("The host empties seat 1");
    expect(logText(line({ kind: "started", match: 2 }), state)).toBe("Match 2 begins");
    expect(logText(line({ kind: "deal", hand: 5 }), state)).toBe("Hand 5 is dealt");
  });

  it("names a seat as it was when the line was written, else as it is now", () => {
    const names = ["Ann", "Bo", null, "Di"];
    expect(logText(line({ kind: "action", seat: 1, action: acts.pass() }, names), state)).toBe("Bo passes");
    expect(logText(line({ kind: "action", seat: 2, action: acts.pass() }, names), state)).toBe("Cy passes");
  });

  it("shows an event it does not know by its kind", () => {
    expect(logText(line({ kind: "surprise" }), state)).toBe("surprise");
  });
});
