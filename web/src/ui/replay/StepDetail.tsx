import { t } from "../../i18n";
import { isLast, sideOfSeat, stepCount, stepOf, trickBySeat, type PlacedDecision } from "../../replay/steps";
import type { ReplayHand, ReplayTrick, ReplayView } from "../../replay/types";
import { CardFace, CardRow } from "../Card";
import { sideColor } from "../names";
import { lossText } from "../review";
import { CostlyBadge, CostlyNotes, costlyCardLabel } from "./CostliestDecisions";
import { HandResult, TrumpTag } from "./HandResult";
import type { ViewFacts } from "./Viewer";
import { actionLine, bidText, discardedCards, seatLabel, stepTitle } from "./words";

/** The ⚠ after an action of the auction that is one of the costliest decisions, with its loss. */
function CostlyMark({ costly }: { costly: PlacedDecision | undefined }) {
  if (!costly) return null;
  const label = t("replay.costly_action", { loss: lossText(costly.decision.loss) });
  return (
    <>
      {" "}
      <span class="replay-flag" role="img" aria-label={label} title={label}>
        ⚠
      </span>
    </>
  );
}

/** The costly decision among a step's at this place of the auction (`auction` or `before_play`), if any. */
function costlyAt(costly: PlacedDecision[], kind: "auction" | "before_play", index: number): PlacedDecision | undefined {
  return costly.find((entry) => entry.place.kind === kind && entry.place.index === index);
}

/** The auction, the contract, what happened before the first trick, and the cards not dealt. */
function AuctionDetail({
  view,
  hand,
  facts,
  costly,
}: {
  view: ReplayView;
  hand: ReplayHand;
  facts: ViewFacts;
  costly: PlacedDecision[];
}) {
  return (
    <>
      <p>{t("replay.dealt_by", { name: seatLabel(view, hand.dealer) })}</p>
      {hand.auction.length > 0 && (
        <ol class="replay-actions-list" aria-label={t("replay.auction_aria")}>
          {hand.auction.map((entry, i) => {
            const mark = costlyAt(costly, "auction", i);
            return (
              <li key={i} class={mark ? "replay-costly-entry" : undefined}>
                {actionLine(view, entry, facts.moonBid)}
                <CostlyMark costly={mark} />
              </li>
            );
          })}
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
          <h3>{t("replay.before_play")}</h3>
          <ol class="replay-actions-list">
            {hand.before_play.map((entry, i) => {
              const cards = discardedCards(entry);
              const mark = costlyAt(costly, "before_play", i);
              return (
                <li key={i} class={mark ? "replay-costly-entry" : undefined}>
                  {actionLine(view, entry, facts.moonBid)}
                  {cards.length > 0 && (
                    <>
                      {" "}
                      <CardRow cards={cards} size="xs" />
                    </>
                  )}
                  <CostlyMark costly={mark} />
                </li>
              );
            })}
          </ol>
        </>
      )}
      {hand.out.length > 0 && (
        <div class="summary-cards">
          <h3>{t("replay.undealt")}</h3>
          <CardRow cards={hand.out} size="xs" />
        </div>
      )}
    </>
  );
}

/** A trick's cards by seat in the order played, who led and who took it; a costly card outlined. */
function TrickDetail({
  view,
  trick,
  bySeat,
  costly,
}: {
  view: ReplayView;
  trick: ReplayTrick;
  bySeat: { seat: number; cards: string[] }[];
  costly: PlacedDecision[];
}) {
  const costlyPlay = (seat: number, card: string) =>
    costly.find((entry) => entry.place.kind === "play" && entry.place.seat === seat && entry.place.action === card);
  return (
    <>
      <ol class="replay-trick" aria-label={t("a11y.trick")}>
        {bySeat.map(({ seat, cards }) => {
          const won = trick.winner === seat;
          const name = seatLabel(view, seat);
          return (
            <li key={seat} class={won ? "won" : ""} style={{ "--side": sideColor(sideOfSeat(view, seat)) }}>
              <span class="replay-trick-cards">
                {cards.map((card) => {
                  const mark = costlyPlay(seat, card);
                  return (
                    <CardFace
                      key={card}
                      card={card}
                      size="sm"
                      className={mark ? "replay-costly" : ""}
                      label={mark ? costlyCardLabel(card, mark.decision.loss) : undefined}
                    />
                  );
                })}
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
  /** The costliest decisions shown that this step holds (none while they are not shown). */
  costly?: PlacedDecision[];
}

/** The step on show: the auction, a trick, or the hand's result. */
export function StepDetail({ view, hand, step, facts, costly = [] }: Props) {
  const shown = stepOf(hand, step);
  const position = { hand: view.hands.indexOf(hand), step };
  // The record stops in this hand: its last step is the last trick played so far.
  const stops = !hand.result && step === stepCount(hand) - 1;
  return (
    <section class="panel light replay-step" aria-labelledby="replay-step-title">
      <h2 id="replay-step-title">
        {t("table.hand_n", { n: hand.number })} · {stepTitle(hand, step)}
        <CostlyBadge count={costly.length} />
      </h2>
      <CostlyNotes view={view} here={costly} moonBid={facts.moonBid} />
      {shown.kind === "auction" && <AuctionDetail view={view} hand={hand} facts={facts} costly={costly} />}
      {shown.kind === "trick" && (
        <TrickDetail
          view={view}
          trick={hand.tricks[shown.trick]}
          bySeat={trickBySeat(hand, step)}
          costly={costly}
        />
      )}
      {shown.kind === "result" && hand.result && <HandResult view={view} hand={hand} facts={facts} />}
      {stops && <p class="summary-note">{t("replay.hand_unfinished")}</p>}
      {isLast(view, position) && view.complete && view.winner !== null && (
        <p class="summary-note replay-end">{t("end.title")}</p>
      )}
    </section>
  );
}
