// The replay viewer's texts, from the ReplayView only: names of seats and sides, the step on show,
// the auction's actions, what became of the bid.

import { currentLang, t, tk } from "../../i18n";
import { actionCards, actionLine as wordsOfAction } from "../../i18n/actions";
import { stepCount, stepOf, type Position } from "../../replay/steps";
import { servedLimits } from "../../served";
import { presetOf, type ReplayAction, type ReplayHand, type ReplayView } from "../../replay/types";

/** A seat's name (names come from strangers: only ever rendered as text). */
export function seatLabel(view: ReplayView, seat: number): string {
  return view.players[seat] ?? t("lobby.seat_n", { n: seat + 1 });
}

/** The names of a side's seats: "Ada & Cy". */
export function sideLabel(view: ReplayView, side: number): string {
  return (view.sides[side] ?? []).map((seat) => seatLabel(view, seat)).join(" & ");
}

/** The game's name in the current language, or its name in the protocol when this client does not know it. */
export function presetLabel(view: ReplayView): string {
  const name = presetOf(view);
  const label = tk(`preset.${name}`);
  return label === `preset.${name}` ? name : label;
}

/** The step on show: "Auction", "Trick 2 of 6", "Result". */
export function stepTitle(hand: ReplayHand, step: number): string {
  const shown = stepOf(hand, step);
  if (shown.kind === "auction") return t("replay.step_auction");
  if (shown.kind === "trick") return t("replay.step_trick", { n: shown.trick + 1, total: hand.tricks.length });
  return t("replay.step_result");
}

/** Where the viewer is, for the live region: "Hand 3 of 9, step 2 of 8: Trick 1 of 6". */
export function positionText(view: ReplayView, position: Position): string {
  const hand = view.hands[position.hand];
  if (!hand) return "";
  return t("replay.position", {
    hand: hand.number,
    hands: view.hands.length,
    step: position.step + 1,
    steps: stepCount(hand),
    what: stepTitle(hand, position.step),
  });
}

/** A bid in words, the moon named as such. */
export function bidText(bid: number, moonBid: number | null): string {
  return bid === moonBid ? t("table.moon_chip", { n: bid }) : String(bid);
}

/**
 * An action of the auction or before the first trick, with who took it: "Ada bids 3", "Bo passes".
 * An entry without `act` (what the action is) is shown as its text.
 */
export function actionLine(view: ReplayView, entry: ReplayAction, moonBid: number | null): string {
  const name = seatLabel(view, entry.seat);
  if (!entry.act) return t("replay.action", { name, action: entry.action });
  return wordsOfAction(name, entry.act, { moonBid, widow: null });
}

/** The cards a `discard` entry lays down, or none. */
export function discardedCards(entry: ReplayAction): string[] {
  return entry.act?.kind === "discard" ? actionCards(entry.act) : [];
}

/** What became of the hand's bid: made, set, or thrown in; null while the hand has no result. */
export function verdictText(view: ReplayView, hand: ReplayHand, moonBid: number | null): string | null {
  if (!hand.result) return null;
  if (hand.bidder === null || hand.result.made === null) return t("sum.thrown_in");
  const name = seatLabel(view, hand.bidder);
  const bid = hand.bid === null ? "" : bidText(hand.bid, moonBid);
  return t(hand.result.made ? "sum.made" : "sum.set", { name, bid });
}

/** A signed change of score with a true minus sign: "+3", "−2", "0". */
export function signedChange(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

/** A size in bytes as people read it, in decimal units and the current language: "1 MB", "1 Mo". */
export function sizeText(bytes: number): string {
  const [unit, amount] = bytes >= 1e6 ? ["megabyte", bytes / 1e6] : ["kilobyte", bytes / 1e3];
  return new Intl.NumberFormat(currentLang(), { style: "unit", unit, maximumFractionDigits: 1 }).format(amount);
}

/** Why a record is refused for its size: this server's limit, once its facts have come. */
export function tooLargeText(): string {
  const most = servedLimits()?.record_bytes;
  return most === undefined ? t("replay.too_large_here") : t("replay.too_large", { size: sizeText(most) });
}
