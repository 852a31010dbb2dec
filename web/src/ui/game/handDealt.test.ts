import { describe, expect, it } from "vitest";
import type { LogEntry } from "../../store";
import { game, watching } from "../../test/states";
import type { PublicGame, TableEvent } from "../../types";
import { handDealtAt } from "./handDealt";

let id = 1;
/** Log entries for events, one version each from `from`. */
function events(from: number, list: TableEvent[]): LogEntry[] {
  return list.map((event, i) => ({ id: id++, version: from + i, event }));
}
const pass = (seat: number): TableEvent => ({ kind: "action", seat, action: { text: "pass", kind: "pass" } });

describe("handDealtAt", () => {
  const state = (pub: PublicGame, version: number, event: TableEvent | null = null) => ({
    ...watching(pub),
    version,
    event,
  });

  it("is the version of the state that deals the hand", () => {
    expect(handDealtAt([], state(game({ hand_number: 3 }), 40, { kind: "deal", hand: 3 }))).toBe(40);
    expect(handDealtAt([], state(game(), 12, { kind: "started", match: 2 }))).toBe(12);
  });

  it("else the version of the hand's deal in the log, and never another hand's", () => {
    const log = events(30, [{ kind: "deal", hand: 2 }, pass(1), { kind: "deal", hand: 3 }, pass(2)]);
    expect(handDealtAt(log, state(game({ hand_number: 3 }), 34, pass(3)))).toBe(32);
    expect(handDealtAt(log, state(game({ hand_number: 4 }), 34))).toBeNull();
    expect(handDealtAt(events(1, [{ kind: "started", match: 1 }]), state(game({ hand_number: 1 }), 5))).toBe(1);
  });
});
