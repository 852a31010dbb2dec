import { describe, expect, it, vi } from "vitest";
import type { LogEntry } from "../../store";
import type { LogLine, PublicAction, TableEvent } from "../../types";

/** Actions as events carry them (any but a discard, which an event only counts). */
const acts = allActs as { [K in keyof typeof allActs]: (...args: Parameters<(typeof allActs)[K]>) => PublicAction };
import { acts as allActs } from "../../test/fakes";
import { game, HOUSE_RULES, TEN_POINT_RULES, watching } from "../../test/states";
import { LANGS, loadLang, setLang, type Lang } from "../../i18n";
import { logEntries, logText } from "./log";
import { seatName } from "../names";

/** Switch the interface's language (setLang remembers it and names the page's: both stubbed here). */
function speak(lang: Lang): void {
  vi.stubGlobal("localStorage", { setItem: () => undefined, getItem: () => null });
  vi.stubGlobal("document", { documentElement: { lang } });
  setLang(lang);
}

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

  it("tells who takes a bot's seat at a matchmade table, and when it is theirs", () => {
    expect(logText(line({ kind: "arriving", seat: 1 }, ["Ann", "Bob"]), state)).toBe(
      "Bob takes a bot's seat from the next hand",
    );
    const [deal, took] = logEntries(9, { kind: "deal", hand: 2, lines: [{ kind: "took_seat", seat: 1 }] });
    expect(logText({ ...deal, names: ["Ann", "Bob"] }, state)).toBe("Hand 2 is dealt");
    expect(logText({ ...took, names: ["Ann", "Bob"] }, state)).toBe("Bob takes the seat");
  });

  it("writes the host's changes to the chat", () => {
    expect(logText(line({ kind: "chat_settings", on: false, spectators: false }), state)).toBe(
      "The host turned the chat off",
    );
    // Told to the host (by the muted seat's name) and to the muted seat, never by seat number.
    const muted = line({ kind: "muted", seat: 2, muted: true });
    expect(logText(muted, state)).toBe(`You muted ${seatName(state, 2)} in the chat`);
    const mutedSeat = { ...state, table: { ...state.table, you: 2 } };
    expect(logText(muted, mutedSeat)).toBe("The host muted you in the chat");
    expect(logText(line({ kind: "muted", seat: 2, muted: false }), mutedSeat)).toBe(
      "The host gave you your voice back in the chat",
    );
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

  it("writes an event and then each line it carries, in the order the server sent them", () => {
    const discard: TableEvent = {
      kind: "action",
      seat: 0,
      action: { kind: "discard", count: 2 },
      lines: [
        { kind: "refill", seat: 0, count: 2 },
        { kind: "stock", seat: 1, count: 5 },
      ],
    };
    const entries = logEntries(7, discard);
    expect(entries.map((entry) => entry.version)).toEqual([7, 7, 7]);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(3);
    expect(entries.map((entry) => logText(entry, state))).toEqual([
      "Ann discards 2 cards",
      "Ann draws 2 cards from the stock",
      "Ben takes the last 5 cards of the stock",
    ]);
    expect(logEntries(8, { kind: "deal", hand: 2 }).map((entry) => logText(entry, state))).toEqual(["Hand 2 is dealt"]);
  });

  it("words the server's lines in every language, naming the seat and the count", async () => {
    const played: TableEvent = {
      kind: "action",
      seat: 2,
      action: acts.play("Ah"),
      lines: [{ kind: "trick", seat: 3 }],
    };
    const bid: TableEvent = {
      kind: "action",
      seat: 1,
      action: acts.bid(3),
      lines: [{ kind: "kitty", seat: 1, count: 3 }],
    };
    const refills: LogLine[] = [
      { kind: "refill", seat: 0, count: 4 },
      { kind: "refill", seat: 0, count: 0 },
    ];
    const words = () => {
      const [, trick] = logEntries(1, played).map((entry) => logText(entry, state));
      const [, kitty] = logEntries(2, bid).map((entry) => logText(entry, state));
      return [trick, kitty, ...refills.map((event) => logText(line(event), state))];
    };
    const english = words();
    expect(english).toEqual([
      "Di takes the trick",
      "Ben picks up the kitty (3 cards)",
      "Ann draws 4 cards from the stock",
      "Ann draws no cards",
    ]);
    try {
      for (const lang of LANGS.filter((lang) => lang !== "en")) {
        await loadLang(lang);
        speak(lang);
        const [trick, kitty, some, none] = words();
        expect([trick, kitty, some, none].map((text, i) => text !== english[i]), lang).toEqual([true, true, true, true]);
        expect([trick.includes("Di"), kitty.includes("Ben"), some.includes("Ann"), none.includes("Ann")], lang).toEqual([
          true,
          true,
          true,
          true,
        ]);
        expect([kitty.includes("3"), some.includes("4")], lang).toEqual([true, true]);
      }
    } finally {
      speak("en");
      vi.unstubAllGlobals();
    }
  });

  it("writes the lines an action event carries", () => {
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
