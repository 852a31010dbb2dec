import { cardName, t } from "../../i18n";
import { trickPlays, type PublicGame, type StateMessage } from "../../types";
import { CardFace } from "../Card";
import { seatName } from "../names";
import { angleOf, shownTrick, trickFans } from "./layout";

/** The cards in the middle: the trick being played, or the last one with its winner until the next lead. */
export function TrickArea({ state, pub, bottom }: { state: StateMessage; pub: PublicGame; bottom: number }) {
  const { plays, winner, winning } = shownTrick(pub);
  // Several cards from one seat are fanned out at that seat's spot, in the order played.
  const fans = trickFans(plays);
  return (
    <div
      class={`trick${winner !== null ? " done" : ""}${pub.players >= 6 ? " many" : ""}`}
      role="list"
      aria-label={t("a11y.trick")}
      data-cards={plays.length}
    >
      {plays.map(([seat, card], order) => {
        const angle = angleOf(seat, bottom, pub.players);
        const { fan, fanned } = fans[order];
        const style = {
          left: `calc(50% + ${Math.cos(angle).toFixed(4)} * var(--tx) + ${fan} * var(--fan-step))`,
          top: `calc(50% + ${Math.sin(angle).toFixed(4)} * var(--ty) + ${Math.abs(fan)} * 3px)`,
          transform: fan === 0 ? undefined : `translate(-50%, -50%) rotate(${fan * 7}deg)`,
          zIndex: order + 1,
        };
        return (
          <div
            key={card}
            class={`trick-card${card === winning ? " winner" : ""}${fanned ? " fanned" : ""}`}
            style={style}
            role="listitem"
          >
            <CardFace card={card} label={t("card.played_by", { card: cardName(card), name: seatName(state, seat) })} />
          </div>
        );
      })}
      {winner !== null && pub.phase !== "hand_over" && pub.phase !== "match_over" && (
        <div class="trick-caption">{t("table.takes_trick", { name: seatName(state, winner) })}</div>
      )}
    </div>
  );
}

/** The last finished trick, card by card with who played it, opened from the side panel. */
export function LastTrick({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const last = pub.tricks[pub.tricks.length - 1];
  if (!last) return <p class="muted">{t("table.no_last_trick")}</p>;
  const plays = trickPlays(last, pub.players);
  const winning = last.winning_card;
  return (
    <div class="last-trick">
      <ul>
        {plays.map(([seat, card]) => {
          return (
            <li key={card} class={card === winning ? "winner" : ""}>
              <CardFace card={card} size="sm" />
              <span class="name-text">{seatName(state, seat)}</span>
            </li>
          );
        })}
      </ul>
      <p>{t("table.won_by", { name: seatName(state, last.winner) })}</p>
    </div>
  );
}
