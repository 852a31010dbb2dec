// What the table screen shows, derived from the state: the chips on a seat, the contract, what
// everyone is waiting for, the notes beside the hand.

import { t } from "../../i18n";
import { isMoonBid, type PublicGame, type SeatView, type StateMessage } from "../../types";
import { seatName } from "../names";

/** How many tricks of this hand a side has taken. */
export function tricksWon(pub: PublicGame, side: number): number {
  return pub.tricks.filter((trick) => pub.seat_side[trick.winner] === side).length;
}

/** A seat's bid while the auction lasts, and the winning bid on the bidder's seat after it. */
export function bidChip(pub: PublicGame, seat: number): { text: string; passed: boolean; moon: boolean } | null {
  const entry = pub.bids.find(([s]) => s === seat);
  if (!entry || (pub.phase !== "auction" && pub.bidder !== seat)) return null;
  const amount = entry[1];
  const moon = isMoonBid(pub.rules, amount);
  const text =
    amount === null ? t("table.passed") : moon ? t("table.moon_chip", { n: amount }) : t("table.bid_n", { n: amount });
  return { text, passed: amount === null, moon };
}

/** After the discards: what a player drew from the stock, or what the bidder picked up (the widow, the stock). */
export function drewChip(pub: PublicGame, seat: number): string | null {
  if (pub.to_act === null || pub.phase === "auction") return null;
  if (pub.refills[seat] && (pub.discarded[seat] ?? 0) > 0) return t("table.drew", { n: pub.refilled[seat] ?? 0 });
  const pickedUp = pub.bidder_took.widow + pub.bidder_took.stock;
  if (seat === pub.bidder && pickedUp > 0) return t("table.took", { n: pickedUp });
  return null;
}

/** The contract in words: nobody has bid yet, or who bid what (the moon named so). */
export function contractText(state: StateMessage, pub: PublicGame): { text: string; moon: boolean } {
  if (pub.bidder === null) return { text: t("table.no_bid"), moon: false };
  const name = seatName(state, pub.bidder);
  if (isMoonBid(pub.rules, pub.bid)) return { text: t("table.moon_by", { name, n: pub.bid }), moon: true };
  return { text: t("table.bid_by", { name, n: pub.bid }), moon: false };
}

/** The bidder is exchanging with the kitty: the server says it took the kitty, and the discard is its turn. */
export function exchanging(pub: PublicGame): boolean {
  return pub.bidder_took.kitty > 0 && pub.phase === "discard" && pub.to_act !== null && pub.to_act === pub.bidder;
}

/** What the seat to act is doing, for everyone else: taking the widow, trading with the stock... */
export function waitingText(state: StateMessage, pub: PublicGame, spectator: boolean): string | null {
  if (pub.to_act === null) return null;
  const name = seatName(state, pub.to_act);
  if (pub.phase === "widow") return t("act.widow_waiting", { name });
  if (exchanging(pub)) return t("act.kitty_waiting", { name });
  if (pub.phase === "discard" && pub.refills[pub.to_act]) {
    return t("act.refill_waiting", { name });
  }
  if (pub.phase === "discard" && pub.bidder_took.stock > 0 && pub.to_act === pub.bidder) {
    return t("act.stock_waiting", { name });
  }
  return t(spectator ? "table.waiting_for" : "act.waiting", { name });
}

/** The cards of this hand the server says can never be played (non-trumps where only trumps are played). */
export function deadCards(view: SeatView | null): Set<string> | undefined {
  return view && view.dead_cards.length > 0 ? new Set(view.dead_cards) : undefined;
}

/** What the play panel tells the seat to play, besides the hint. */
export interface PlayNotes {
  /** The card led now sets trump (the trump is not named in this game). */
  leadSetsTrump: boolean;
  /** How many extra trumps this seat plays to this trick one after another, as the server says. */
  extras: number;
  /** The cards it holds once it has played them. */
  keeps: number;
  /** The hand holds cards that can never be played (only trumps are played). */
  dead: boolean;
}

export function playNotes(pub: PublicGame, view: SeatView): PlayNotes {
  const leadSetsTrump = !pub.rules.trump_named && pub.trump === null && pub.trick.length === 0;
  const extras = view.extra_trumps;
  const dead = view.dead_cards.length > 0;
  return { leadSetsTrump, extras, keeps: view.hand.length - extras, dead };
}
