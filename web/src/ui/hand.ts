// The player's hand: how its cards fit the width of the screen, and how each card is shown and named.

import { faceName, t } from "../i18n";

/** The least part of a card's width left in sight when the cards overlap, before a second row. */
const MIN_SHOWN = 0.4;
const MAX_ROWS = 3;
/** The gap between two cards when they do not need to overlap. */
const GAP = 6;

/**
 * How `count` cards of `cardWidth` fit a row `width` wide: in as few rows as keep every corner
 * readable (at most three), and the left margin of every card but the first of a row (negative
 * when the cards overlap; null with fewer than two cards).
 */
export function fitHand(count: number, width: number, cardWidth: number): { rows: number; step: number | null } {
  if (count < 2) return { rows: 1, step: null };
  let rows = 1;
  let fit = (width - cardWidth) / (count - 1);
  while (rows < MAX_ROWS && fit < cardWidth * MIN_SHOWN) {
    rows += 1;
    const perRow = Math.ceil(count / rows);
    fit = perRow > 1 ? (width - cardWidth) / (perRow - 1) : cardWidth;
  }
  return { rows, step: Math.min(cardWidth + GAP, fit) - cardWidth };
}

/** What the hand says of its cards. */
export interface HandMarks {
  /** Cards that may be clicked now: the legal plays, or every card while discarding. */
  playable: Set<string>;
  /** It is this seat's turn: unplayable cards are dimmed. */
  myTurn: boolean;
  /** While discarding: the cards chosen (those in `locked` included). */
  selected?: Set<string>;
  /** While discarding: cards that must be discarded, chosen already and not to be unchosen. */
  locked?: Set<string>;
  /** While discarding under rules that keep some cards: those not chosen and not choosable are dimmed. */
  keepDimmed?: boolean;
  /** Cards that can never be played this hand (non-trumps where only trumps are played): dimmed. */
  dead?: Set<string>;
  /** Cards just taken from the kitty (or the widow and the stock): tinted, and named so. */
  fromKitty?: Set<string>;
  /** How those cards are named: from the kitty, or picked up (the widow, the stock). */
  fromLabel?: "kitty" | "picked";
  /** Cards a hint suggests: marked. */
  suggested?: Set<string>;
  disabled?: boolean;
}

/** How one card of the hand is shown, and its accessible name. */
export interface CardLook {
  canUse: boolean;
  dimmed: boolean;
  dead: boolean;
  selected: boolean;
  locked: boolean;
  suggested: boolean;
  fromKitty: boolean;
  label: string;
}

export function cardLook(card: string, marks: HandMarks): CardLook {
  const playable = marks.playable.has(card);
  const canUse = playable && !marks.disabled;
  const selected = marks.selected?.has(card) ?? false;
  const suggested = marks.suggested?.has(card) ?? false;
  const fromKitty = marks.fromKitty?.has(card) ?? false;
  const locked = marks.locked?.has(card) ?? false;
  const kept = !!marks.keepDimmed && !selected && !playable;
  const dead = marks.dead?.has(card) ?? false;
  const dimmed = (marks.myTurn && !playable) || kept || dead;
  let label = faceName(card);
  if (fromKitty) {
    label = t((marks.fromLabel ?? "kitty") === "kitty" ? "card.from_kitty" : "card.picked_up", { card: label });
  }
  if (locked) label = t("card.must_discard", { card: label });
  else if (selected) label = t("card.selected", { card: label });
  else if (kept) label = t("card.must_keep", { card: label });
  else if (dead) label = t("card.dead", { card: label });
  else if (marks.myTurn && !playable) label = t("card.not_playable", { card: label });
  return { canUse, dimmed, dead, selected, locked, suggested, fromKitty, label };
}
