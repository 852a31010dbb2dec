// The costliest decisions of a finished match in its replay (/m/{match}): a header button asks the
// server's expert for its review (GET /api/matches/{match}/review), a compact list leads to the step
// of each decision, and the steps that hold one are marked (a ⚠ on their label, the card outlined).

import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { cardName, t, tn } from "../../i18n";
import { actionText } from "../../i18n/actions";
import { loadMatchReview, type ReviewLoad } from "../../replay/api";
import type { PlacedDecision, Position } from "../../replay/steps";
import type { ReplayReview, ReplayView } from "../../replay/types";
import { lossText } from "../review";
import { ActionView, LossText } from "../Review";
import { seatLabel, stepTitle } from "./words";

export type CostliestState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; review: ReplayReview }
  | { status: "failed"; problem: Exclude<ReviewLoad, { ok: true }>["problem"] };

// The reviews already answered, by match: shown again at once when the replay is opened again.
const kept = new Map<string, ReplayReview>();

function startState(match: string | null): CostliestState {
  const review = match === null ? undefined : kept.get(match);
  return review ? { status: "ready", review } : { status: "idle" };
}

/** The review of a finished match, asked for with the button: its state, whether it is shown, the button's action. */
export function useCostliest(match: string | null) {
  const [state, setState] = useState<CostliestState>(() => startState(match));
  const [open, setOpen] = useState(false);
  const asked = useRef<string | null>(null);
  useEffect(() => {
    setState(startState(match));
    setOpen(false);
    return () => {
      asked.current = null; // an answer for this match that comes later is not shown
    };
  }, [match]);
  const toggle = async () => {
    if (match === null || state.status === "loading") return;
    if (state.status === "ready") {
      setOpen(!open);
      return;
    }
    asked.current = match;
    setState({ status: "loading" });
    setOpen(true);
    const load = await loadMatchReview(match);
    if (asked.current !== match) return;
    if (load.ok) {
      kept.set(match, load.review);
      setState({ status: "ready", review: load.review });
    } else {
      setState({ status: "failed", problem: load.problem });
    }
  };
  return { state, open, toggle };
}

const PANEL_ID = "replay-costliest";

/** The header's button: show (asking the expert the first time) or hide the costliest decisions. */
export function CostliestButton({ state, open, onToggle }: { state: CostliestState; open: boolean; onToggle: () => void }) {
  const busy = state.status === "loading";
  const shown = open && state.status === "ready";
  return (
    <button
      type="button"
      class="btn small secondary replay-costliest-button"
      // Not disabled while the answer is awaited: a disabled button would lose the keyboard's focus.
      aria-busy={busy}
      aria-expanded={shown}
      aria-controls={PANEL_ID}
      onClick={onToggle}
    >
      <span class="replay-flag-symbol" aria-hidden="true">
        ⚠
      </span>{" "}
      {busy ? t("review.working_button") : shown ? t("replay.review_hide") : t("replay.review_show")}
    </button>
  );
}

export function decisionSentence(view: ReplayView, entry: PlacedDecision, moonBid: number | null): string {
  const { decision } = entry;
  return t("replay.costly_line", {
    name: seatLabel(view, decision.seat),
    action: decision.acts ? actionText(decision.acts.action, true, moonBid) : decision.action,
    best: decision.acts ? actionText(decision.acts.best, true, moonBid) : decision.best,
    loss: lossText(decision.loss),
  });
}

/** Who did what, and what the expert preferred, with the loss: the visible part of a decision's line. */
function DecisionDrawn({ view, entry, moonBid }: { view: ReplayView; entry: PlacedDecision; moonBid: number | null }) {
  const { decision } = entry;
  return (
    <span class="replay-decision-choices">
      <span class="replay-decision-choice">
        <span class="name-text">{seatLabel(view, decision.seat)}</span>
        <ActionView action={decision.acts?.action ?? decision.action} moonBid={moonBid} />
      </span>
      <span class="replay-decision-choice best">
        <span class="replay-decision-expert">{t("review.expert")}</span>
        <ActionView action={decision.acts?.best ?? decision.best} moonBid={moonBid} />
      </span>
    </span>
  );
}

/** "Hand 3 · Trick 2 of 6": where a decision is. */
function whereText(view: ReplayView, position: Position): string {
  const hand = view.hands[position.hand];
  return hand ? `${t("table.hand_n", { n: hand.number })} · ${stepTitle(hand, position.step)}` : "";
}

interface PanelProps {
  view: ReplayView;
  state: CostliestState;
  open: boolean;
  placed: PlacedDecision[];
  position: Position;
  moonBid: number | null;
  onJump: (to: Position) => void;
  /** The level of the panel's heading (3 under another page's heading). */
  level: 2 | 3;
  /** Shown under the list: what the viewer may do with its own decisions. */
  practice?: ComponentChildren;
}

/**
 * Under the header: the expert at work, why the review could not be had, or the costliest decisions
 * (costliest first), each a button that shows its step.
 */
export function CostliestPanel({ view, state, open, placed, position, moonBid, onJump, level, practice }: PanelProps) {
  const Heading = level === 2 ? "h2" : "h3";
  const message =
    state.status === "loading"
      ? t("review.match_working")
      : state.status === "failed"
        ? state.problem === "busy"
          ? t("replay.review_busy")
          : state.problem === "rate_limited"
            ? t("error.rate_limited")
            : t("replay.review_failed")
        : "";
  const review = state.status === "ready" ? state.review : null;
  return (
    <section id={PANEL_ID} class="replay-costliest" aria-labelledby={review && open ? `${PANEL_ID}-title` : undefined}>
      <p class={`replay-costliest-status ${state.status === "failed" ? "problem" : "muted"}`} role="status">
        {open || state.status === "failed" ? message : ""}
      </p>
      {open && review && (
        <>
          <Heading id={`${PANEL_ID}-title`} class="replay-costliest-title">
            {t("replay.review_title")}
          </Heading>
          {placed.length === 0 ? (
            <p class="review-none">{t("review.none")}</p>
          ) : (
            <ol class="replay-costliest-list">
              {placed.map((entry) => {
                const here = entry.position.hand === position.hand && entry.position.step === position.step;
                const where = whereText(view, entry.position);
                return (
                  <li key={`${entry.decision.hand}:${entry.decision.actionIndex}`}>
                    <button
                      type="button"
                      class="replay-decision"
                      aria-current={here ? "step" : undefined}
                      aria-label={t("replay.review_go", { where, line: decisionSentence(view, entry, moonBid) })}
                      onClick={() => onJump(entry.position)}
                    >
                      <span class="replay-decision-head">
                        <span class="replay-decision-where">{where}</span>
                        <LossText loss={entry.decision.loss} error={entry.decision.error} />
                      </span>
                      <DecisionDrawn view={view} entry={entry} moonBid={moonBid} />
                    </button>
                  </li>
                );
              })}
            </ol>
          )}
          <p class="muted replay-costliest-note">{t("replay.review_note", { n: review.samples })}</p>
          {practice}
        </>
      )}
    </section>
  );
}

/** The ⚠ after the label of a step that holds costly decisions (nothing at another step). */
export function CostlyBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  const label = tn("replay.costly_step", count);
  return (
    <>
      {" "}
      <span class="replay-flag" role="img" aria-label={label} title={label}>
        ⚠{count > 1 ? ` ${count}` : ""}
      </span>
    </>
  );
}

/** At a step: each costly decision it holds, what was done and what the expert preferred. */
export function CostlyNotes({ view, here, moonBid }: { view: ReplayView; here: PlacedDecision[]; moonBid: number | null }) {
  if (here.length === 0) return null;
  return (
    <ul class="replay-costly-notes">
      {here.map((entry) => (
        <li key={`${entry.decision.hand}:${entry.decision.actionIndex}`}>
          <span class="visually-hidden">{decisionSentence(view, entry, moonBid)}</span>
          <span class="replay-costly-note" aria-hidden="true">
            <span class="replay-flag-symbol">⚠</span>
            <DecisionDrawn view={view} entry={entry} moonBid={moonBid} />
            <LossText loss={entry.decision.loss} error={entry.decision.error} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The label of a card outlined as a costly decision in a trick. */
export function costlyCardLabel(card: string, loss: number): string {
  return t("replay.costly_card", { card: cardName(card), loss: lossText(loss) });
}
