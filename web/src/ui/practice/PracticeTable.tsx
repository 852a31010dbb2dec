// A practice position drawn as the table draws it: the seats around the felt with their bids and
// cards face down, the trump, the trick in the middle, and the score of each side.

import { SUIT_SYMBOL } from "../../cards";
import { scoreText, suitName, t, tn } from "../../i18n";
import type { PublicGame, StateMessage } from "../../types";
import { seatName, sideColor, sideNames } from "../names";
import { table } from "./tableParts";
import { pw } from "./words";

function PracticeSeat({ state, pub, seat }: { state: StateMessage; pub: PublicGame; seat: number }) {
  const { angleOf, bidChip } = table();
  const angle = angleOf(seat, state.table.you ?? 0, pub.players);
  const isYou = state.table.you === seat;
  const name = seatName(state, seat);
  const count = pub.hand_sizes[seat] ?? 0;
  const bid = bidChip(pub, seat);
  const style = {
    left: `calc(50% + ${Math.cos(angle).toFixed(4)} * var(--rx))`,
    top: `calc(50% + ${Math.sin(angle).toFixed(4)} * var(--ry))`,
    "--side": sideColor(pub.seat_side[seat]),
    "--sin": Math.sin(angle).toFixed(4),
    "--top-or-bottom": (Math.sin(angle) ** 4).toFixed(3),
  };
  return (
    <div
      class={`seat-plate${pub.to_act === seat ? " active" : ""}${isYou ? " you" : ""}${pub.bidder === seat && pub.phase !== "auction" ? " bidder" : ""}`}
      style={style}
      role="group"
      aria-label={t("table.seat_aria", { name, cards: tn("table.cards", count) })}
    >
      <div class="seat-name">
        <span class="name-text">{name}</span>
      </div>
      <div class="seat-meta">
        {pub.dealer === seat && (
          <span class="chip dealer" title={t("table.dealer")} aria-label={t("table.dealer")}>
            {t("table.dealer_short")}
          </span>
        )}
        {bid && <span class={`chip bid${bid.passed ? " passed" : ""}${bid.moon ? " moon" : ""}`}>{bid.text}</span>}
      </div>
    </div>
  );
}

/** The felt of the position, with the sides' scores and the contract above it. */
export function PracticeTable({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const { contractText, TrickArea } = table();
  const contract = contractText(state, pub);
  return (
    <>
      <p class="practice-scores">
        {pub.sides.map((seats, side) => (
          <span key={side} class="practice-score" style={{ "--side": sideColor(side) }}>
            {sideNames(state, seats)}: <strong>{scoreText(pub.scores[side] ?? 0)}</strong>
          </span>
        ))}
        <span class="practice-contract">{contract.text}</span>
      </p>
      <section class={`felt practice-felt${pub.players >= 6 ? " many" : ""}`} aria-label={pw("practice.position")}>
        {pub.trump && (
          <div class={`felt-trump suit-${pub.trump}`} role="img" aria-label={t("sum.trump", { suit: suitName(pub.trump) })}>
            <span aria-hidden="true">{SUIT_SYMBOL[pub.trump]}</span>
          </div>
        )}
        {Array.from({ length: pub.players }, (_, seat) => (
          <PracticeSeat key={seat} state={state} pub={pub} seat={seat} />
        ))}
        <TrickArea state={state} pub={pub} bottom={state.table.you ?? 0} />
      </section>
    </>
  );
}
