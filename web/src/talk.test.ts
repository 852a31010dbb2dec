import { describe, expect, it } from "vitest";
import { mergeLines } from "./talk";
import { game, seat, seated, watching } from "./test/states";
import type { ChatLine, StateMessage } from "./types";
import { chatClosedReason } from "./ui/Chat";

function line(id: number, text = `line ${id}`): ChatLine {
  return { id, at: 1_000 + id, seat: 0, name: "Ann", text };
}

function withChat(state: StateMessage, on = true, spectators = false, muted: number[] = []): StateMessage {
  return { ...state, table: { ...state.table, chat: { on, spectators, muted } } };
}

describe("mergeLines", () => {
  it("keeps each line once, in the order of the ids, however they arrive", () => {
    const merged = mergeLines([line(3), line(1)], [line(2), line(3, "again"), line(5)]);
    expect(merged.map((l) => l.id)).toEqual([1, 2, 3, 5]);
    expect(merged[2].text).toBe("again");
  });

  it("keeps only the newest hundred", () => {
    const many = Array.from({ length: 130 }, (_, i) => line(i + 1));
    const merged = mergeLines([], many);
    expect(merged.length).toBe(100);
    expect(merged[0].id).toBe(31);
  });
});

describe("chatClosedReason", () => {
  const lobby = (state: StateMessage): StateMessage => ({ ...state, table: { ...state.table, status: "lobby" } });

  it("closes the chat while a hand is played and opens it once the hand is over", () => {
    const playing = withChat(seated(seat(game({ phase: "play" }), 1, ["Ah"])));
    expect(chatClosedReason(playing)).toBe("chat.closed_hand");
    const handOver = withChat(seated(seat(game({ phase: "hand_over" }), 1, [])));
    expect(chatClosedReason(handOver)).toBeNull();
    expect(chatClosedReason(lobby(playing))).toBeNull();
  });

  it("follows the host's switches: chat off, a muted seat, spectators reading only", () => {
    const state = lobby(seated(seat(game(), 1, [])));
    expect(chatClosedReason(withChat(state, false))).toBe("chat.off");
    expect(chatClosedReason(withChat(state, true, false, [1]))).toBe("chat.muted_you");
    expect(chatClosedReason(withChat(state, true, false, [2]))).toBeNull();
    const spectator = lobby(watching(game()));
    expect(chatClosedReason(withChat(spectator))).toBe("chat.spectators_silent");
    expect(chatClosedReason(withChat(spectator, true, true))).toBeNull();
  });
});
