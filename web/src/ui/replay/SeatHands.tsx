import { cardName, t, tn } from "../../i18n";
import { cardsAt, playedAt, sideOfSeat, stepOf, trickAt } from "../../replay/steps";
import type { ReplayHand, ReplayView } from "../../replay/types";
import { CardFace } from "../Card";
import { sideColor } from "../names";
import { seatLabel } from "./words";

/**
 * Every seat's cards face up: as dealt at the auction, then as held before the trick on show (the
 * cards it plays to that trick marked), and what is left at the result.
 */
export function SeatHands({ view, hand, step }: { view: ReplayView; hand: ReplayHand; step: number }) {
  const cards = cardsAt(hand, step);
  const trick = trickAt(hand, step);
  const auction = stepOf(hand, step).kind === "auction";
  return (
    <section class="replay-seats" aria-labelledby="replay-seats-title">
      <h2 id="replay-seats-title" class="visually-hidden">
        {t(auction ? "replay.cards_dealt" : "replay.cards_held")}
      </h2>
      <ul>
        {view.players.map((_, seat) => {
          const name = seatLabel(view, seat);
          const side = sideOfSeat(view, seat);
          const played = new Set(playedAt(hand, step, seat));
          const held = cards[seat] ?? [];
          const chips: string[] = [];
          if (seat === hand.dealer) chips.push(t("table.dealer"));
          if (seat === hand.bidder) chips.push(t("replay.bidder"));
          if (trick && trick.leader === seat) chips.push(t("replay.led"));
          if (trick && trick.winner === seat) chips.push(`★ ${t("replay.took")}`);
          return (
            <li key={seat} class="replay-seat" style={{ "--side": sideColor(side) }}>
              <div class="replay-seat-head">
                <span class="swatch" aria-hidden="true" />
                <strong class="name-text">{name}</strong>
                <span class="muted replay-count">{tn("table.cards", held.length)}</span>
                {chips.map((chip) => (
                  <span key={chip} class="replay-tag">
                    {chip}
                  </span>
                ))}
              </div>
              {held.length > 0 ? (
                <div class="replay-cards" role="group" aria-label={t("replay.seat_cards", { name })}>
                  {held.map((card) => (
                    <CardFace
                      key={card}
                      card={card}
                      size="sm"
                      className={played.has(card) ? "replay-played" : ""}
                      label={played.has(card) ? t("replay.played_card", { card: cardName(card) }) : undefined}
                    />
                  ))}
                </div>
              ) : (
                <p class="muted replay-no-cards">{t("replay.no_cards")}</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
