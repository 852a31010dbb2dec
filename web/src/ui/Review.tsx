import { useEffect, useRef, useState } from "preact/hooks";
import { t, tn } from "../i18n";
import { actionShown, kindTitle } from "../i18n/actions";
import { requestHandReview, requestMatchReview } from "../net";
import type { Action, PublicGame, StateMessage } from "../types";
import { CardRow } from "./Card";
import { Heading, type HeadingLevel } from "./Heading";
import { seatName } from "./names";
import { BotTag } from "./players/common";
import {
  parseHandReview,
  parseMatchReview,
  expectedText,
  lossClass,
  lossText,
  type HandReview,
  type MatchReview,
  type ReviewedDecision,
} from "./review";

/** Whether this client may ask for reviews: it holds a seat at a table that allows hints. */
export function canReview(state: StateMessage): boolean {
  return !!state.table.settings.hints && state.table.you !== null;
}

// The reviews already answered, by table, match and hand ("match" for the whole match): shown again
// at once when a summary is opened again, without asking the server.
const kept = new Map<string, HandReview | MatchReview>();

/**
 * Scroll the panel that holds ``element`` (its nearest scrolling ancestor) so that the element starts
 * at the panel's top, leaving the page where it is; where no panel scrolls, scroll the page (the
 * element's scroll margin keeps it clear of the sticky header).
 */
function scrollPanelTo(element: HTMLElement): void {
  for (let panel = element.parentElement; panel; panel = panel.parentElement) {
    const overflow = getComputedStyle(panel).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && panel.scrollHeight > panel.clientHeight) {
      const offset = element.getBoundingClientRect().top - panel.getBoundingClientRect().top;
      panel.scrollTo({ top: panel.scrollTop + offset, behavior: "smooth" });
      return;
    }
  }
  element.scrollIntoView({ block: "start", behavior: "smooth" });
}

/** A review asked for with a button: the answer, whether it is awaited, whether it is shown. */
/** The review in the server's answer (null when there is none or it is not one). */
function readAck<R>(ack: Record<string, unknown> | null, parse: (ack: Record<string, unknown>) => R | null): R | null {
  return ack === null ? null : parse(ack);
}

function useReview<R extends HandReview | MatchReview>(
  key: string,
  ask: () => Promise<R | null>,
  onOpen?: () => void,
) {
  const [review, setReview] = useState<R | null>(() => (kept.get(key) as R | undefined) ?? null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  // The review opens below its button, often below the fold of a scrolling panel: bring it into view
  // when it is shown.
  const body = useRef<HTMLDivElement>(null);
  const shown = open && review !== null;
  useEffect(() => {
    if (shown && body.current) scrollPanelTo(body.current);
  }, [shown]);
  const toggle = async () => {
    if (busy) return;
    if (!open) onOpen?.();
    if (review) {
      setOpen(!open);
      return;
    }
    setBusy(true);
    setOpen(true);
    const answer = await ask();
    if (answer) kept.set(key, answer);
    if (!mounted.current) return;
    setBusy(false);
    setReview(answer);
    setOpen(answer !== null);
  };
  return { review, open, busy, toggle, body };
}

/**
 * An action as the reviews show it: the card played, or words and the cards (a discard); an action
 * given only as its text (an older server's) is shown as that text.
 */
export function ActionView({ action, moonBid }: { action: Action | string; moonBid: number | null }) {
  const shown = typeof action === "string" ? { words: action, cards: [] } : actionShown(action, moonBid);
  return (
    <span class="review-action">
      {shown.words && <span class="review-words">{shown.words}</span>}
      {shown.cards.length > 0 && <CardRow cards={shown.cards} size="xs" />}
    </span>
  );
}

/** A decision's loss, with its margin of error when the server sent one. */
export function LossText({ loss, error }: { loss: number; error: number | null }) {
  const points = lossText(loss);
  return (
    <span class="review-loss">
      {error === null ? t("review.loss", { points }) : t("review.loss_error", { points, error: lossText(error) })}
    </span>
  );
}

function Expected({ points }: { points: number | null }) {
  if (points === null) return null;
  return <span class="review-expected">{t("review.expected", { points: expectedText(points) })}</span>;
}

/** One costly decision: what the seat did and what the expert preferred, each with its expected points. */
function DecisionItem({ decision, moonBid }: { decision: ReviewedDecision; moonBid: number | null }) {
  const kind = kindTitle(decision.action);
  return (
    <li class="review-item">
      <p class="review-item-head">
        <span class="review-kind">
          {decision.hand !== null && <span class="review-hand">{t("review.hand_n", { n: decision.hand + 1 })} · </span>}
          {kind}
        </span>
        <LossText loss={decision.loss} error={decision.error} />
      </p>
      <dl class="review-choices">
        <div class="review-choice">
          <dt>{t("review.you")}</dt>
          <dd>
            <ActionView action={decision.action} moonBid={moonBid} />
            <Expected points={decision.expectedAction} />
          </dd>
        </div>
        <div class="review-choice best">
          <dt>{t("review.expert")}</dt>
          <dd>
            <ActionView action={decision.best} moonBid={moonBid} />
            <Expected points={decision.expectedBest} />
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** The costliest decisions, or the line that says there was none. */
function Costliest({
  decisions,
  title,
  level,
  moonBid,
}: {
  decisions: ReviewedDecision[];
  title: string;
  level: HeadingLevel;
  moonBid: number | null;
}) {
  if (decisions.length === 0) return <p class="review-none">{t("review.none")}</p>;
  return (
    <>
      <Heading level={level} class="review-title">
        {title}
      </Heading>
      <ol class="review-list">
        {decisions.map((decision) => (
          <DecisionItem key={`${decision.hand ?? ""}:${decision.actionIndex}`} decision={decision} moonBid={moonBid} />
        ))}
      </ol>
    </>
  );
}

/**
 * Under a hand's summary, at a table that allows hints: "Review this hand" asks the expert to judge
 * this seat's decisions in it, then shows the costliest (the server's list, costliest first).
 */
export function HandReviewPanel({
  state,
  pub,
  index,
  onOpen,
}: {
  state: StateMessage;
  pub: PublicGame;
  index: number;
  /** Called when the review is opened (the summary then stays up until closed). */
  onOpen?: () => void;
}) {
  const key = `${state.table.code}/${state.table.match_number}/${index}`;
  const { review, open, busy, toggle, body } = useReview(key, async () => readAck(await requestHandReview(index), parseHandReview), onOpen);
  const id = `hand-review-${index}`;
  const moonBid = pub.rules.moon_bid ?? null;
  return (
    <div class="review">
      <button
        type="button"
        class="btn small secondary review-btn"
        // Not disabled while the answer is awaited: a disabled button would lose the keyboard's focus.
        aria-busy={busy}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => void toggle()}
      >
        {busy ? t("review.working_button") : open ? t("review.hide") : t("review.hand_button")}
      </button>
      <div id={id} ref={body} class="review-body" aria-live="polite">
        {open && busy && <p class="muted">{t("review.working")}</p>}
        {open && review && (
          <>
            <Costliest decisions={review.costliest} title={t("review.hand_title")} level={3} moonBid={moonBid} />
            <p class="muted review-total">
              {tn("review.total", review.decisions.length, { points: lossText(review.totalLoss) })}
            </p>
            <p class="muted review-note">{t("review.note")}</p>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * At the end of a match that allowed hints: "Review the match" asks the expert to judge every seat's
 * decisions (a few seconds), then shows each seat's decisions and total loss, and this seat's
 * costliest decisions of the match.
 */
export function MatchReviewPanel({ state, pub, level }: { state: StateMessage; pub: PublicGame; level: HeadingLevel }) {
  const key = `${state.table.code}/${state.table.match_number}/match`;
  const { review, open, busy, toggle, body } = useReview(key, async () => readAck(await requestMatchReview(), parseMatchReview));
  const id = "match-review";
  const you = state.table.you;
  const moonBid = pub.rules.moon_bid ?? null;
  return (
    <div class="review match-review">
      <button
        type="button"
        class="btn secondary review-btn"
        aria-busy={busy}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => void toggle()}
      >
        {busy ? t("review.working_button") : open ? t("review.match_hide") : t("review.match_button")}
      </button>
      <div id={id} ref={body} class="review-body" aria-live="polite">
        {open && busy && <p class="muted">{t("review.match_working")}</p>}
        {open && review && (
          <>
            <table class="review-table">
              <caption>{t("review.match_caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("review.col_player")}</th>
                  <th scope="col">{t("review.col_decisions")}</th>
                  <th scope="col">{t("review.col_loss")}</th>
                </tr>
              </thead>
              <tbody>
                {review.players.map((player) => (
                  <tr key={player.seat} class={player.seat === you ? "you" : undefined}>
                    <th scope="row">
                      {player.seat === you
                        ? t("review.you_row", { name: seatName(state, player.seat) })
                        : seatName(state, player.seat)}
                      {state.table.seats[player.seat]?.bot && <BotTag level={state.table.seats[player.seat]?.bot_level} />}
                    </th>
                    <td>{player.decisions}</td>
                    <td class={`review-total-loss ${lossClass(player.totalLoss)}`}>{lossText(player.totalLoss)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Costliest decisions={review.costliest} title={t("review.match_title")} level={level} moonBid={moonBid} />
            <p class="muted review-note">{t("review.note")}</p>
          </>
        )}
      </div>
    </div>
  );
}
