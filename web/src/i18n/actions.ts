// An action's words, from the action as the server sends it (types.ts `Action`): the one place the
// client says what an action is. Nothing here reads an action's text (record notation): that text is
// only sent back to the server.

import { SUIT_SYMBOL } from "../cards";
import type { Action, PublicAction } from "../types";
import type { MessageKey } from "./en";
import { cardName, shortCardName, signedPoints, suitName, t, tn } from "./index";

/** The cards an action names: the card played, or the cards discarded; none for the others. */
export function actionCards(action: Action | null | undefined): string[] {
  if (!action) return [];
  if (action.kind === "play") return [action.card];
  if (action.kind === "discard") return action.cards;
  return [];
}

/**
 * An action as words: "bid 3", "play 10♥", "hearts as trump". With `spoken`, cards are named in
 * full ("ten of hearts"), for screen readers. The bid `moonBid` (the server's `rules.moon_bid`) is the moon.
 */
export function actionText(action: Action, spoken = false, moonBid: number | null = null): string {
  const name = spoken ? cardName : shortCardName;
  switch (action.kind) {
    case "pass":
      return t("hint.pass");
    case "widow":
      return t("hint.widow");
    case "bid":
      return action.amount === moonBid ? t("hint.moon", { n: action.amount }) : t("hint.bid", { n: action.amount });
    case "trump":
      return t("hint.trump", { suit: suitName(action.suit) });
    case "discard":
      return t("hint.discard", { cards: action.cards.map(name).join(", ") });
    case "play":
      return t("hint.play", { card: name(action.card) });
  }
}

/** "Suggested: bid 3 — expected +1.8 points this hand", or without the points when there are none. */
export function hintText(action: Action, expected: number | null, spoken = false, moonBid: number | null = null): string {
  const text = actionText(action, spoken, moonBid);
  if (expected === null) return t("hint.suggested", { action: text });
  return t("hint.suggested_expected", { action: text, points: signedPoints(expected) });
}

/** A bid as the bid buttons name it: "Pass", "Bid 3", "Moon (7)"; null for another action. */
export function choiceLabel(action: Action, moonBid: number | null): string | null {
  if (action.kind === "pass") return t("act.pass");
  if (action.kind !== "bid") return null;
  const n = action.amount;
  return n === moonBid ? t("advice.moon", { n }) : t("act.bid_n", { n });
}

/** A bid as briefly as the bid buttons show it: "Pass", "3", "☾ 7"; null for another action. */
export function choiceShort(action: Action, moonBid: number | null): string | null {
  if (action.kind === "pass") return t("act.pass");
  if (action.kind !== "bid") return null;
  return action.amount === moonBid ? `☾ ${action.amount}` : String(action.amount);
}

/** How an action is shown: the cards it plays or discards, with a word before them where needed. */
export interface ActionShown {
  /** Words for the action ("Pass", "Bid 3", "Trump: ♥ hearts", "Discard"), or "" for a card played. */
  words: string;
  /** The cards to draw (record notation), or none. */
  cards: string[];
}

/**
 * An action as a review shows it, in the words the table's buttons use: a card played as the card
 * alone, a discard as "Discard" and its cards, a bid, a pass, the moon, the trump named or the widow
 * taken as words.
 */
export function actionShown(action: Action, moonBid: number | null = null): ActionShown {
  switch (action.kind) {
    case "pass":
    case "bid":
      return { words: choiceLabel(action, moonBid) ?? "", cards: [] };
    case "widow":
      return { words: t("act.widow_button"), cards: [] };
    case "trump":
      return { words: t("sum.trump", { suit: `${SUIT_SYMBOL[action.suit]} ${suitName(action.suit)}` }), cards: [] };
    case "discard":
      return { words: t("act.discard_confirm"), cards: action.cards };
    case "play":
      return { words: "", cards: [action.card] };
  }
}

const KIND_TITLES: Record<Action["kind"], MessageKey> = {
  pass: "review.kind.bid",
  bid: "review.kind.bid",
  widow: "review.kind.widow",
  trump: "review.kind.trump",
  discard: "review.kind.discard",
  play: "review.kind.play",
};

/** The heading of a decision's line by what it was: "Bidding", "Naming trump", "Playing a card"... */
export function kindTitle(action: Action): string {
  return t(KIND_TITLES[action.kind]);
}

/** What the bid advisor and the buttons call the moon, and how many cards the widow holds. */
export interface EventFacts {
  moonBid: number | null;
  /** Cards the widow holds, or null where the reader does not know (then the action is named). */
  widow: number | null;
}

/**
 * An action with who took it, as the play log and the replay say it: "Ada bids 3", "Bo passes",
 * "Cy discards 4 cards", "Ada plays 10♥". A discard counts its cards (an event never names them).
 */
export function actionLine(name: string, action: Action | PublicAction, facts: EventFacts): string {
  switch (action.kind) {
    case "pass":
      return t("ev.pass", { name });
    case "bid": {
      const n = action.amount;
      return n === facts.moonBid ? t("ev.moon", { name, n }) : t("ev.bid", { name, n });
    }
    case "trump":
      return t("ev.trump", { name, suit: suitName(action.suit) });
    case "discard":
      return tn("ev.discard", "count" in action ? action.count : action.cards.length, { name });
    case "widow":
      if (facts.widow !== null) return tn("ev.widow", facts.widow, { name });
      return t("replay.action", { name, action: actionText(action, false, facts.moonBid) });
    case "play":
      return t("ev.play", { name, card: shortCardName(action.card) });
  }
}
