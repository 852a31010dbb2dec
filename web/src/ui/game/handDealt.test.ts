import { describe, expect, it } from "vitest";
import { derivedLines } from "../../stateLines";
import type { LogEntry } from "../../store";
import { game, TEN_POINT_RULES, watching } from "../../test/states";
import type { PublicAction, PublicGame, SuitLetter, TableEvent, TrickInfo } from "../../types";
import { handDealtAt, withHandLines } from "./replayLog";

const WIDOW = { ...TEN_POINT_RULES, name: "widow" as const, widow: 4, refill: true, take_stock: true };
const KITTY = { ...TEN_POINT_RULES, name: "five_point" as const, kitty: 3 };

let id = 1;
/** Log entries for events, one version each from `from`. */
function events(from: number, list: TableEvent[]): LogEntry[] {
  return list.map((event, i) => ({ id: id++, version: from + i, event }));
}
/** The action an event carries, written here as its text for short (a discard as its count). */
function publicAction(text: string, count?: number): PublicAction {
  if (count !== undefined) return { kind: "discard", count };
  const [word, rest] = text.split(" ");
  if (word === "pass" || word === "widow") return { text, kind: word };
  if (word === "bid") return { text, kind: "bid", amount: Number(rest) };
  if (word === "trump") return { text, kind: "trump", suit: rest as SuitLetter };
  return { text, kind: "play", card: text };
}
const act = (seat: number, action: string, count?: number): TableEvent => ({
  kind: "action",
  seat,
  action: publicAction(action, count),
});
const trick = (leader: number, cards: string[], winner: number): TrickInfo => ({
  leader,
  cards,
  winner,
  winning_card: cards[0],
});

/** The lines as a reader sees them: each event's kind (or action) with its seat and count. */
function lines(log: LogEntry[]): string[] {
  return log.map(({ event }) => {
    const action = event.kind === "action" ? event.action : undefined;
    const what = action ? ("text" in action ? action.text : action.kind) : event.kind;
    const counted = action && "count" in action ? action.count : "count" in event ? event.count : undefined;
    const count = counted !== undefined ? ` ${counted}` : "";
    return `${what}${event.seat === undefined ? "" : `@${event.seat}`}${count}`;
  });
}

describe("withHandLines", () => {
  it("puts each trick won after the card that completed it", () => {
    const log = events(10, [
      { kind: "deal", hand: 2 },
      act(1, "pass"),
      act(2, "bid 2"),
      act(3, "pass"),
      act(0, "pass"),
      ...["Ah", "2h", "3h", "4h", "Kd", "2d", "3d", "4d", "5s"].map((card, i) => act((2 + i) % 4, card)),
    ]);
    const pub = game({
      hand_number: 2,
      phase: "play",
      bidder: 2,
      tricks: [trick(2, ["Ah", "2h", "3h", "4h"], 2), trick(2, ["Kd", "2d", "3d", "4d"], 2)],
      trick: [[2, "5s"]],
    });
    expect(lines(withHandLines(log, pub))).toEqual([
      "deal",
      "pass@1",
      "bid 2@2",
      "pass@3",
      "pass@0",
      "Ah@2",
      "2h@3",
      "3h@0",
      "4h@1",
      "trick@2",
      "Kd@2",
      "2d@3",
      "3d@0",
      "4d@1",
      "trick@2",
      "5s@2",
    ]);
  });

  it("writes the kitty after the last bid, the refills after their discards, the stock before the bidder's", () => {
    const kitty = withHandLines(
      events(1, [{ kind: "deal", hand: 1 }, act(1, "bid 3"), act(2, "pass"), act(0, "pass"), act(1, "discard", 3)]),
      game({ rules: KITTY, players: 3, phase: "play", to_act: 1, bidder: 1, took: 3, bidder_took: { kitty: 3, widow: 0, stock: 0 } }),
    );
    expect(lines(kitty)).toEqual(["deal", "bid 3@1", "pass@2", "pass@0", "kitty@1 3", "discard@1 3"]);

    const widow = withHandLines(
      events(1, [
        { kind: "started", match: 1 },
        act(1, "bid 5"),
        act(2, "pass"),
        act(0, "pass"),
        act(1, "widow"),
        act(1, "trump h"),
        act(2, "discard", 3),
        act(0, "discard", 2),
        act(1, "discard", 6),
      ]),
      game({
        rules: WIDOW,
        players: 3,
        phase: "play",
        to_act: 1,
        bidder: 1,
        took: 9,
        bidder_took: { kitty: 0, widow: 4, stock: 5 },
        refills: [true, false, true],
        discarded: [2, 6, 3],
        refilled: [2, 0, 3],
      }),
    );
    expect(lines(widow)).toEqual([
      "started",
      "bid 5@1",
      "pass@2",
      "pass@0",
      "widow@1",
      "trump h@1",
      "discard@2 3",
      "refill@2 3",
      "discard@0 2",
      "refill@0 2",
      "stock@1 5",
      "discard@1 6",
    ]);
  });

  it("writes the lines a live page would have written from each state in turn", () => {
    // The same hand followed live: the events, and the lines derived between its states.
    const base = game({ rules: KITTY, players: 3, sides: [[0], [1], [2]], seat_side: [0, 1, 2], to_act: 1 });
    const auctionOver = { ...base, phase: "discard" as const, bidder: 1, took: 3, bidder_took: { kitty: 3, widow: 0, stock: 0 } };
    const playing = { ...auctionOver, phase: "play" as const, discarded: [0, 3, 0] };
    const first = { ...playing, trick: [[1, "Ah"], [2, "2h"]] as [number, string][] };
    const won = { ...playing, trick: [], tricks: [trick(1, ["Ah", "2h", "3h"], 1)] };
    const steps: [TableEvent, PublicGame][] = [
      [act(1, "bid 3"), base],
      [act(2, "pass"), base],
      [act(0, "pass"), auctionOver],
      [act(1, "discard", 3), playing],
      [act(1, "Ah"), first],
      [act(2, "2h"), first],
      [act(0, "3h"), won],
    ];
    const live: LogEntry[] = events(1, [{ kind: "deal", hand: 1 }]);
    let before: PublicGame = base;
    steps.forEach(([event, after], i) => {
      live.push({ id: id++, version: 2 + i, event });
      for (const line of derivedLines(before, after)) live.push({ id: id++, version: 2 + i, event: line });
      before = after;
    });
    const replayed = live.filter((entry) => !["kitty", "trick"].includes(entry.event.kind));
    const rebuilt = withHandLines(replayed, before);
    expect(lines(rebuilt)).toEqual(lines(live));
    expect(rebuilt.map((entry) => entry.version)).toEqual(live.map((entry) => entry.version));
  });

  it("reads only the hand in progress, and counts its tricks back from the newest card", () => {
    const earlier = events(1, [act(0, "Qs"), act(1, "Js"), { kind: "trick", seat: 0 }, { kind: "deal", hand: 2 }]);
    const hand = events(5, [act(1, "Kc"), act(2, "2c"), act(3, "3c"), act(0, "4c"), act(1, "5c")]);
    const pub = game({ hand_number: 2, phase: "play", tricks: [trick(1, ["Kc", "2c", "3c", "4c"], 1)], trick: [[1, "5c"]] });
    expect(lines(withHandLines([...earlier, ...hand], pub)).slice(4)).toEqual(["Kc@1", "2c@2", "3c@3", "4c@0", "trick@1", "5c@1"]);

    // A replay begun within the hand (no deal in the log): the newest cards are still matched up.
    const partial = events(20, [act(3, "3c"), act(0, "4c"), act(1, "5c")]);
    expect(lines(withHandLines(partial, pub))).toEqual(["3c@3", "4c@0", "trick@1", "5c@1"]);
  });

  it("leaves a log alone that already has the hand's own lines, or nothing to add", () => {
    const log = events(1, [{ kind: "deal", hand: 1 }, act(1, "Ah"), act(2, "2h"), act(3, "3h"), act(0, "4h"), { kind: "trick", seat: 1 }]);
    const pub = game({ phase: "play", tricks: [trick(1, ["Ah", "2h", "3h", "4h"], 1)] });
    expect(withHandLines(log, pub)).toBe(log);
    const auction = events(1, [{ kind: "deal", hand: 1 }, act(1, "pass")]);
    expect(withHandLines(auction, game())).toBe(auction);
    expect(withHandLines([], pub)).toEqual([]);
  });
});

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
    const log = events(30, [{ kind: "deal", hand: 2 }, act(1, "pass"), { kind: "deal", hand: 3 }, act(2, "pass")]);
    expect(handDealtAt(log, state(game({ hand_number: 3 }), 34, act(3, "pass")))).toBe(32);
    expect(handDealtAt(log, state(game({ hand_number: 4 }), 34))).toBeNull();
    expect(handDealtAt(events(1, [{ kind: "started", match: 1 }]), state(game({ hand_number: 1 }), 5))).toBe(1);
  });
});
