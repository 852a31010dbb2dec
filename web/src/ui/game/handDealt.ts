// The play log of the hand in progress after a reload: the server replays the hand's events (the
// session resumes from just before its deal), and the lines the client writes itself from changes
// of state (stateLines.ts) are put back among them from the state that ends the replay.

import { DERIVED_KINDS } from "../../stateLines";
import { newId, type LogEntry } from "../../store";
import { publicGame, type PublicGame, type StateMessage } from "../../types";

/** Whether a log entry is an event that begins hand `hand`: its deal, or the match's start (hand 1). */
function dealsHand(entry: LogEntry, hand: number): boolean {
  const event = entry.event;
  return (event.kind === "deal" && "hand" in event && event.hand === hand) || (event.kind === "started" && hand === 1);
}

/**
 * The version at which the hand on the table in `message` was dealt, when the message is its deal or
 * the log holds its deal; else null.
 */
export function handDealtAt(log: LogEntry[], message: StateMessage): number | null {
  const pub = publicGame(message);
  if (!pub) return null;
  const kind = message.event?.kind;
  if (kind === "deal" || kind === "started") return message.version;
  for (let i = log.length - 1; i >= 0; i--) {
    if (dealsHand(log[i], pub.hand_number)) return log[i].version;
  }
  return null;
}

/** The kind of action an entry's event is (`bid`, `play`...), or null when it is no action. */
function actionKind(entry: LogEntry): string | null {
  const event = entry.event;
  return event.kind === "action" && event.action ? event.action.kind : null;
}

function isCardPlay(entry: LogEntry): boolean {
  return actionKind(entry) === "play";
}

function isBid(entry: LogEntry): boolean {
  const kind = actionKind(entry);
  return kind === "pass" || kind === "bid";
}

function isDiscardBy(entry: LogEntry, seat: number): boolean {
  return actionKind(entry) === "discard" && entry.event.seat === seat;
}

/**
 * `log` with the derived lines of the hand in `pub` put back where they were written live: a trick
 * won after the card that completed it, the kitty after the last bid, each refill after its seat's
 * discard, the stock the bidder takes just before the bidder's discard. Only the entries after the
 * hand's deal are read (all of them when the log holds no deal: a replay begun within the hand), and
 * a log that already has derived lines for the hand is returned as it is.
 */
export function withHandLines(log: LogEntry[], pub: PublicGame | null): LogEntry[] {
  if (!pub || log.length === 0) return log;
  let start = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    if (dealsHand(log[i], pub.hand_number)) {
      start = i + 1;
      break;
    }
  }
  const hand = log.slice(start);
  if (hand.some((entry) => DERIVED_KINDS.has(entry.event.kind))) return log;

  // What to write after (or before) which entry of the hand, by its index in `hand`.
  const after = new Map<number, LogEntry["event"][]>();
  const before = new Map<number, LogEntry["event"][]>();
  const add = (map: Map<number, LogEntry["event"][]>, index: number, event: LogEntry["event"]) => {
    map.set(index, [...(map.get(index) ?? []), event]);
  };

  // Tricks, counted back from the newest card: the trick in progress holds the last ones played, so a
  // replay that began within the hand still puts each winner after the right card.
  const plays = hand.flatMap((entry, index) => (isCardPlay(entry) ? [index] : []));
  let end = plays.length - pub.trick.length;
  for (let i = pub.tricks.length - 1; i >= 0 && end > 0; i--) {
    add(after, plays[end - 1], { kind: "trick", seat: pub.tricks[i].winner });
    end -= pub.tricks[i].cards.length;
  }

  pub.refills.forEach((refills, seat) => {
    if (!refills || !(pub.discarded[seat] > 0)) return;
    const index = hand.findIndex((entry) => isDiscardBy(entry, seat));
    if (index >= 0) add(after, index, { kind: "refill", seat, count: pub.refilled[seat] ?? 0 });
  });

  const bidder = pub.bidder;
  if (bidder !== null && pub.bidder_took.kitty > 0) {
    const lastBid = hand.map(isBid).lastIndexOf(true);
    if (lastBid >= 0) add(after, lastBid, { kind: "kitty", seat: bidder, count: pub.bidder_took.kitty });
  }
  if (bidder !== null && pub.bidder_took.stock > 0) {
    const line = { kind: "stock" as const, seat: bidder, count: pub.bidder_took.stock };
    const discard = hand.findIndex((entry) => isDiscardBy(entry, bidder));
    const next = discard >= 0 ? discard : plays.length > 0 ? plays[0] : -1;
    if (next >= 0) add(before, next, line);
    else add(after, hand.length - 1, line);
  }

  if (after.size === 0 && before.size === 0) return log;
  const lines: LogEntry[] = log.slice(0, start);
  hand.forEach((entry, index) => {
    for (const event of before.get(index) ?? []) lines.push({ id: newId(), version: entry.version - 1, event });
    lines.push(entry);
    for (const event of after.get(index) ?? []) lines.push({ id: newId(), version: entry.version, event });
  });
  return lines;
}
