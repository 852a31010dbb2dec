import { afterEach, describe, expect, it } from "vitest";
import { update } from "./store";
import { mergeLines, servedReactions } from "./talk";
import { FACTS } from "./test/presets";
import { game, seat, seated, watching } from "./test/states";
import type { ChatLine, StateMessage } from "./types";
import { chatClosedReason } from "./ui/Chat";

function line(id: number, text = `line ${id}`): ChatLine {
  return { id, at: 1_000 + id, seat: 0, name: "Ann", text };
}

/** The state with the chat's controls and the server's refusals of a line from each seat and a spectator. */
function withChat(state: StateMessage, seats: (string | null)[], spectator: string | null = null): StateMessage {
  const chat = { on: true, spectators: spectator === null, muted: [], refused: { seats, spectator } };
  return { ...state, table: { ...state.table, chat } };
}

describe("mergeLines", () => {
  it("keeps each line once, in the order of the ids, however they arrive", () => {
    const merged = mergeLines([line(3), line(1)], [line(2), line(3, "again"), line(5)]);
    expect(merged.map((l) => l.id)).toEqual([1, 2, 3, 5]);
    expect(merged[2].text).toBe("again");
  });

  it("keeps only the newest lines, as many as the server keeps", () => {
    const kept = FACTS.limits.chat_lines;
    const many = Array.from({ length: kept + 30 }, (_, i) => line(i + 1));
    const merged = mergeLines([], many, kept);
    expect(merged.length).toBe(kept);
    expect(merged[0].id).toBe(31);
    expect(mergeLines([], many, 5).map((l) => l.id)).toEqual([kept + 26, kept + 27, kept + 28, kept + 29, kept + 30]);
    expect(mergeLines([], many, null).length).toBe(kept + 30);
  });
});

describe("servedReactions", () => {
  afterEach(() => update({ presets: { status: "loading" } }));

  it("offers the server's reactions, none before they arrive", () => {
    expect(servedReactions()).toEqual([]);
    update({ presets: { status: "ready", facts: FACTS } });
    expect(servedReactions()).toEqual(FACTS.reactions);
  });
});

describe("chatClosedReason", () => {
  it("says the server's refusal for the reader's seat in the chat's words", () => {
    const state = seated(seat(game({ phase: "play" }), 1, ["Ah"]));
    expect(chatClosedReason(withChat(state, ["chat_closed", "chat_closed"]))).toBe("chat.closed_hand");
    expect(chatClosedReason(withChat(state, [null, "chat_muted"]))).toBe("chat.muted_you");
    expect(chatClosedReason(withChat(state, ["chat_muted", null]))).toBeNull();
    expect(chatClosedReason(withChat(state, [null, "chat_off"]))).toBe("chat.off");
    // A refusal the chat has no words of its own for reads as the server's error.
    expect(chatClosedReason(withChat(state, [null, "rate_limited"]))).toBe("error.rate_limited");
  });

  it("reads a spectator's refusal from the spectators' entry", () => {
    const spectator = watching(game());
    expect(chatClosedReason(withChat(spectator, [null, null], "spectators_silent"))).toBe("chat.spectators_silent");
    expect(chatClosedReason(withChat(spectator, ["chat_muted"], null))).toBeNull();
  });

  it("keeps the chat closed when the server has said nothing of it", () => {
    expect(chatClosedReason(watching(game()))).toBe("chat.off");
  });
});
