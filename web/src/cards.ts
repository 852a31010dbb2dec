// Cards in record notation: a rank (2-9, T, J, Q, K, A) and a suit letter, or BJ / LJ for the jokers.

import type { SuitLetter } from "./types";

export const SUITS: SuitLetter[] = ["c", "d", "h", "s"];
export const SUIT_SYMBOL: Record<SuitLetter, string> = { c: "♣", d: "♦", h: "♥", s: "♠" };
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"] as const;
export type Rank = (typeof RANKS)[number];

export type ParsedCard =
  | { joker: false; rank: Rank; suit: SuitLetter; text: string }
  | { joker: true; big: boolean; text: string };

export function parseCard(text: string): ParsedCard | null {
  if (text === "BJ" || text === "LJ") return { joker: true, big: text === "BJ", text };
  if (text.length !== 2) return null;
  const rank = text[0] as Rank;
  const suit = text[1] as SuitLetter;
  if (!RANKS.includes(rank) || !SUITS.includes(suit)) return null;
  return { joker: false, rank, suit, text };
}

/** What is printed in the card's corner: 10 rather than T. */
export function rankLabel(rank: Rank): string {
  return rank === "T" ? "10" : rank;
}

export function isRed(card: ParsedCard): boolean {
  return card.joker ? card.big : card.suit === "h" || card.suit === "d";
}

/** What a joker's face prints, in every language. */
export const JOKER_FACE = "JOKER";

/** The text printed on a card's face, once: "10♥", "A♠", "JOKER" (a control showing the face must
 * say it too, so that a spoken command naming what is seen reaches it). */
export function faceText(text: string): string {
  const card = parseCard(text);
  if (!card) return text;
  return card.joker ? JOKER_FACE : shortCard(text);
}

/** A short text for a card: "10♥", "A♠", "BJ" (for logs; aria labels use the full name). */
export function shortCard(text: string): string {
  const card = parseCard(text);
  if (!card) return text;
  if (card.joker) return text;
  return rankLabel(card.rank) + SUIT_SYMBOL[card.suit];
}
