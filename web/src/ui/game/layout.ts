// Where things sit on the felt: the seats around an ellipse, the cards of a trick in the middle.

import { trickPlays, type PublicGame } from "../../types";

/** Where a seat sits around the table (radians, y downwards), with the receiver's own seat at the bottom. */
export function angleOf(seat: number, bottom: number, players: number): number {
  const rel = (seat - bottom + players) % players;
  return ((90 + (rel * 360) / players) * Math.PI) / 180;
}

/**
 * The trick the middle of the table shows, as (seat, card) pairs: the one being played, or the last
 * one with its winner until the next lead. A seat may be missing (out of trumps) or have several
 * cards (extra trumps to the first trick), so nothing assumes one card per seat.
 */
export function shownTrick(pub: PublicGame): {
  plays: [number, string][];
  winner: number | null;
  winning: string | null;
} {
  if (pub.trick.length === 0 && pub.tricks.length > 0) {
    const last = pub.tricks[pub.tricks.length - 1];
    return { plays: trickPlays(last, pub.players), winner: last.winner, winning: last.winning_card };
  }
  return { plays: pub.trick, winner: null, winning: null };
}

/**
 * How far each card of a trick is fanned out from its seat's spot, in the order played: 0 for a
 * seat's only card; a seat's several cards spread evenly around 0 (-0.5, 0.5; -1, 0, 1...).
 */
export function trickFans(plays: [number, string][]): { fan: number; fanned: boolean }[] {
  const perSeat = new Map<number, number>();
  for (const [seat] of plays) perSeat.set(seat, (perSeat.get(seat) ?? 0) + 1);
  const placed = new Map<number, number>();
  return plays.map(([seat]) => {
    const count = perSeat.get(seat) ?? 1;
    const index = placed.get(seat) ?? 0;
    placed.set(seat, index + 1);
    return { fan: index - (count - 1) / 2, fanned: count > 1 };
  });
}
