import { t } from "../../i18n";
import { isLast, sideOfSeat, stepCount, stepOf, trickBySeat } from "../../replay/steps";
import type { ReplayHand, ReplayTrick, ReplayView } from "../../replay/types";
import { CardFace, CardRow } from "../Card";
import { sideColor } from "../names";
import { HandResult, TrumpTag } from "./HandResult";
import type { ViewFacts } from "./Viewer";
import { actionLine, bidText, discardedCards, seatLabel, stepTitle } from "./words";

/** The auction, the contract, what happened before the first trick, and the cards not dealt. */
function AuctionDetail({ view, hand, facts }: { view: ReplayView; hand: ReplayHand; facts: ViewFacts }) {
  return (
    <>
      <p>{t("replay.dealt_by", { name: seatLabel(view, hand.dealer) })}</p>
      {hand.auction.length > 0 && (
        <ol class="replay-actions-list" aria-label={t("replay.auction_aria")}>
          {hand.auction.map((entry, i) => (
            <li key={i}>{actionLine(view, entry, facts.moonBid)}</li>
          ))}
        </ol>
      )}
      {hand.bidder !== null && hand.bid !== null ? (
        <p class="replay-contract">
          {t("replay.contract", { name: seatLabel(view, hand.bidder), bid: bidText(hand.bid, facts.moonBid) })}
          {hand.trump && (
            <>
              {" · "}
              <TrumpTag suit={hand.trump} />
            </>
          )}
        </p>
      ) : (
        hand.result && <p class="replay-contract">{t("sum.thrown_in")}</p>
      )}
      {hand.before_play.length > 0 && (
        <>
          <h4>{t("replay.before_play")}</h4>
          <ol class="replay-actions-list">
            {hand.before_play.map((entry, i) => {
              const cards = discardedCards(entry.action);
              return (
                <li key={i}>
                  {actionLine(view, entry, facts.moonBid)}
                  {cards.length > 0 && (
                    <>
                      {" "}
                      <CardRow cards={cards} size="xs" />
                    </>
                  )}
                </li>
              );
            })}
          </ol>
        </>
      )}
      {hand.out.length > 0 && (
        <div class="summary-cards">
          <h4>{t("replay.undealt")}</h4>
          <CardRow cards={hand.out} size="xs" />
        </div>
      )}
    </>
  );
}

/** A trick's cards by seat in the order played, who led and who took it. */
function TrickDetail({ view, trick }: { view: ReplayView; trick: ReplayTrick }) {
  return (
    <>
      <ol class="replay-trick" aria-label={t("a11y.trick")}>
        {trickBySeat(trick).map(({ seat, cards }) => {
          const won = trick.winner === seat;
          const name = seatLabel(view, seat);
          return (
            <li key={seat} class={won ? "won" : ""} style={{ "--side": sideColor(sideOfSeat(view, seat)) }}>
              <span class="replay-trick-cards">
                {cards.map((card) => (
                  <CardFace key={card} card={card} size="sm" />
                ))}
              </span>
              <span class="replay-trick-seat">
                <span class="name-text">{name}</span>
                {seat === trick.leader && <span class="replay-tag">{t("replay.led")}</span>}
                {won && <span class="replay-tag won">★ {t("replay.took")}</span>}
              </span>
            </li>
          );
        })}
      </ol>
      <p class="replay-trick-outcome">
        {trick.winner === null
          ? t("replay.trick_open")
          : t("table.takes_trick", { name: seatLabel(view, trick.winner) })}
      </p>
    </>
  );
}

interface Props {
  view: ReplayView;
  hand: ReplayHand;
  step: number;
  facts: ViewFacts;
}

/** The step on show: the auction, a trick, or the hand's result. */
export function StepDetail({ view, hand, step, facts }: Props) {
  const shown = stepOf(hand, step);
  const position = { hand: view.hands.indexOf(hand), step };
  // The record stops in this hand: its last step is the last trick played so far.
  const stops = !hand.result && step === stepCount(hand) - 1;
  return (
    <section class="panel light replay-step" aria-labelledby="replay-step-title">
      <h2 id="replay-step-title">
        {t("table.hand_n", { n: hand.number })} · {stepTitle(hand, step)}
      </h2>
      {shown.kind === "auction" && <AuctionDetail view={view} hand={hand} facts={facts} />}
      {shown.kind === "trick" && <TrickDetail view={view} trick={hand.tricks[shown.trick]} />}
      {shown.kind === "result" && hand.result && <HandResult view={view} hand={hand} facts={facts} />}
      {stops && <p class="summary-note">{t("replay.hand_unfinished")}</p>}
      {isLast(view, position) && view.complete && view.winner !== null && (
        <p class="summary-note replay-end">{t("end.title")}</p>
      )}
    </section>
  );
}
