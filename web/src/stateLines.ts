// The log lines a change of state adds without an event of its own, read from what the server
// says changed: tricks, the bidder's draws by where they came from, who refilled from the stock.

import type { LogEntry } from "./store";
import type { PublicGame } from "./types";

/** The kinds of line the client writes itself; they share a version with an event. */
export const DERIVED_KINDS: ReadonlySet<string> = new Set(["trick", "kitty", "stock", "refill"]);

const NONE_TAKEN = { kitty: 0, widow: 0, stock: 0 };

/**
 * The lines from `before` to `after`: a trick won, the kitty or the rest of the stock taken by the
 * bidder, the cards a player drew from the stock after discarding. The widow has its own event (the
 * bidder's `widow` action), so it is left out here.
 */
export function derivedLines(before: PublicGame | null, after: PublicGame | null): LogEntry["event"][] {
  if (!before || !after) return [];
  const lines: LogEntry["event"][] = [];
  const sameHand = before.hand_number === after.hand_number;
  if (sameHand && after.tricks.length > before.tricks.length) {
    lines.push({ kind: "trick", seat: after.tricks[after.tricks.length - 1].winner });
  }
  // Counted from nothing when `before` was another hand, or this one already over.
  const ongoing = sameHand && before.to_act !== null;
  after.refills.forEach((refills, seat) => {
    const had = ongoing ? (before.discarded[seat] ?? 0) : 0;
    if (refills && after.discarded[seat] > 0 && had === 0) {
      lines.push({ kind: "refill", seat, count: after.refilled[seat] ?? 0 });
    }
  });
  if (after.bidder !== null) {
    const took = ongoing ? before.bidder_took : NONE_TAKEN;
    const kitty = after.bidder_took.kitty - took.kitty;
    if (kitty > 0) lines.push({ kind: "kitty", seat: after.bidder, count: kitty });
    const stock = after.bidder_took.stock - took.stock;
    if (stock > 0) lines.push({ kind: "stock", seat: after.bidder, count: stock });
  }
  return lines;
}
