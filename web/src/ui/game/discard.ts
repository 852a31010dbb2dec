// A discard being chosen on this seat's turn: the player's picks within what the server allows, the
// cards the bidder picked up, and the rules of the discard in words.

import { useState } from "preact/hooks";
import { t, tn } from "../../i18n";
import type { DiscardInfo, PublicGame, SeatView } from "../../types";
import { exchanging } from "./table";

/**
 * A discard being chosen: the legal discards as the server gives them (every card of `required`,
 * and `count - required` of `choosable`), the player's own picks, and the two together.
 */
export interface DiscardChoice {
  count: number;
  required: Set<string>;
  choosable: Set<string>;
  /** How many cards the player picks among `choosable`. */
  free: number;
  /** The player's picks (within `choosable`). */
  picked: Set<string>;
  /** The cards chosen so far: `required` and `picked`, in the hand's order. */
  selected: string[];
}

export function discardChoice(hand: string[], info: DiscardInfo, picked: Set<string>): DiscardChoice {
  const required = new Set(info.required);
  const choosable = new Set(info.choosable);
  const free = Math.max(0, info.count - required.size);
  const kept = new Set([...picked].filter((card) => choosable.has(card) && !required.has(card)).slice(0, free));
  const selected = hand.filter((card) => required.has(card) || kept.has(card));
  return { count: info.count, required, choosable, free, picked: kept, selected };
}

/** What the picks depend on: when it changes (another hand, other legal discards), the picks are cleared. */
export function discardKey(handNumber: number, info: DiscardInfo | null): string {
  return info ? `${handNumber}|${info.count}|${info.required.join(" ")}|${info.choosable.join(" ")}` : "";
}

// No cards picked (shared and never changed: a pick makes a new set).
const NO_PICKS = new Set<string>();

/**
 * The player's picks for the discard whose `discardKey` is `key`, and the setter. Picks belong to
 * the choice they were made in: once the key changes they are gone in that same render. (An effect
 * clearing them would leave one render, and one painted frame, with the old picks counted.)
 */
export function useDiscardPicks(key: string): [Set<string>, (cards: Set<string>) => void] {
  const [picks, setPicks] = useState<{ key: string; cards: Set<string> }>({ key, cards: NO_PICKS });
  return [picks.key === key ? picks.cards : NO_PICKS, (cards) => setPicks({ key, cards })];
}

/**
 * The picks after the player taps `card`: picked or unpicked, while fewer than `free` are picked;
 * null when the card cannot be picked (a required card, or one the rules keep in the hand).
 */
export function togglePick(choice: DiscardChoice, card: string): Set<string> | null {
  if (choice.required.has(card) || !choice.choosable.has(card)) return null;
  const next = new Set(choice.picked);
  if (next.has(card)) next.delete(card);
  else if (next.size < choice.free) next.add(card);
  return next;
}

/**
 * The cards the bidder picked up this hand (the kitty, the widow, the stock): its hand now less the
 * hand it was dealt, known only when the count matches what the table says it took.
 */
export function pickedUpCards(dealt: Set<string>, hand: string[], took: number): Set<string> | undefined {
  const pickedUp = hand.filter((card) => !dealt.has(card));
  return pickedUp.length === took ? new Set(pickedUp) : undefined;
}

/**
 * The discard panel's title: an exchange with the kitty, the nine-card trade, a discard the rules
 * decide (`forced`: every card required, nothing to choose), or a plain discard.
 */
export function discardTitle(pub: PublicGame, count: number, forced = false): string {
  if (exchanging(pub)) return tn("act.kitty_title", count);
  if (pub.rules.trumps_only) return tn("act.nine_discard_title", count);
  return tn(forced ? "act.discard_forced_title" : "act.discard_title", count);
}

/**
 * The rules that shape this discard, in words, for the player choosing it: what the stock deals back
 * and whether it runs short, as the view's `discard` says; which seats trade with the stock, as the
 * public `refills` says.
 */
/** A note on the discard: a line, or a long rule behind its one-line summary (a phone has little height). */
export type DiscardNote = string | { summary: string; detail: string };

/** This seat is the bidder and took the stock: its note says so, and that those cards are tinted gold. */
export function tookTheStock(view: SeatView, pub: PublicGame): boolean {
  return view.seat === pub.bidder && pub.bidder_took.stock > 0 && !(pub.refills[view.seat] ?? false);
}

export function discardNotes(view: SeatView, pub: PublicGame, choice: DiscardChoice): DiscardNote[] {
  const info = view.discard;
  if (!info) return [];
  const notes: DiscardNote[] = [];
  const rules = pub.rules;
  const refills = pub.refills[view.seat] ?? false;
  const draws = info.draws > 0 ? tn("act.refill_draw", info.draws) : t("act.refill_no_draw");
  // The discard's cards are all in the hand, so the server's list of the hand's trumps covers them.
  const trumps = new Set(view.trumps_in_hand);
  if (rules.trumps_only) {
    // Every non-trump goes (the server's required cards) and every trump stays.
    notes.push(t("act.nine_discard_note", { n: rules.hand_size }));
    notes.push(draws);
    if (info.stock_short) notes.push(tn("act.nine_short", info.holds));
    if (info.holds > rules.hand_size) notes.push(t("act.nine_keep_all", { n: rules.hand_size }));
    notes.push(t("act.nine_dead_note"));
    if (choice.free === 0) notes.push(t("act.required_all"));
    return notes;
  }
  if (refills) {
    notes.push(t("act.refill_note", { n: rules.hand_size }));
    notes.push(draws);
    if (info.stock_short && choice.free > 0) notes.push(tn("act.stock_short", choice.free));
  } else if (tookTheStock(view, pub)) {
    notes.push(t("act.stock_taken", { n: rules.hand_size }));
  }
  // Where the seat trades with the stock, the order of the trumps matters to it only when it holds
  // more than a hand of trumps (then some trump is among the cards to discard or to pick).
  const tradesTrumps = !refills || [...choice.required, ...choice.choosable].some((card) => trumps.has(card));
  // With every card decided by the rules there is nothing to choose, and no rule of choosing to tell.
  const chooses = choice.free > 0;
  if (rules.keep_scoring_trumps && tradesTrumps && chooses) {
    notes.push({ summary: t("act.keep_scoring_summary"), detail: t("act.keep_scoring_note") });
  } else if (rules.keep_trumps && tradesTrumps && chooses) notes.push(t("act.keep_trumps_note"));
  if (choice.required.size > 0) {
    notes.push(
      choice.free > 0 ? tn("act.required_some", choice.required.size, { free: choice.free }) : t("act.required_all"),
    );
  }
  return notes;
}
