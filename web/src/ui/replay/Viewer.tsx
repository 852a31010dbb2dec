import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { setSingleJoker, t } from "../../i18n";
import { presetFacts, tableFacts } from "../../presets";
import {
  clampPosition,
  decisionsAt,
  firstPosition,
  lastPosition,
  nextPosition,
  placeDecisions,
  positionFromSearch,
  previousPosition,
  searchWithPosition,
  type Position,
} from "../../replay/steps";
import { presetOf, type MatchInfo, type ReplayView } from "../../replay/types";
import { useApp } from "../../store";
import { ViewerHeader } from "./ViewerHeader";
import { StepControls } from "./StepControls";
import { StepDetail } from "./StepDetail";
import { SeatHands } from "./SeatHands";
import { ScoreStrip } from "./ScoreStrip";
import { CostliestButton, CostliestPanel, useCostliest } from "./CostliestDecisions";
import { PracticeMine } from "./PracticeMine";

/** What the preset's facts add to the view, when the server has given them: the moon, one joker, point values. */
export interface ViewFacts {
  moonBid: number | null;
  oneJoker: boolean;
  pointValues: Record<string, number>;
}

function useViewFacts(view: ReplayView): ViewFacts {
  const { presets } = useApp();
  const preset = presets.status === "ready" ? presetFacts(presets.facts, presetOf(view)) : null;
  return {
    moonBid: preset?.options.shoot_the_moon.bid ?? null,
    oneJoker: preset ? tableFacts(preset, view.players.length)?.jokers === 1 : false,
    pointValues: preset?.point_values ?? {},
  };
}

interface Props {
  view: ReplayView;
  /** The finished match, for a replay from /m/{match}; null for a record file. */
  match: MatchInfo | null;
  /** Keep the position in the address (`?hand=&step=`), and start from it. */
  syncUrl: boolean;
  /** Buttons for the header: copy the link, download the record, open another file. */
  actions?: ComponentChildren;
  /** Told of every move, for a "copy link" that points at the step on show. */
  onMove?: (position: Position) => void;
  /** Shown under another page heading (the record upload's). */
  nested?: boolean;
  /** The finished match's id, to offer its costliest decisions (a record file has none). */
  reviewMatch?: string | null;
}

/** Bring the stage into sight under the sticky step controls, unless its top is already in sight. */
function showStage(root: HTMLElement | null): void {
  const stage = root?.querySelector<HTMLElement>(".replay-stage");
  if (!stage) return;
  const controls = root?.querySelector<HTMLElement>(".replay-controls");
  // Where the bottom of the controls is once they stick to the top of the window.
  const covered = controls
    ? (Number.parseFloat(getComputedStyle(controls).top) || 0) + controls.getBoundingClientRect().height
    : 0;
  const top = stage.getBoundingClientRect().top;
  if (top < covered || top > window.innerHeight * 0.6) window.scrollBy({ top: top - covered - 8 });
}

/**
 * A match step by step: the header with the sides and the result, the hand and step chooser, the
 * step's detail (auction, trick or result) with the scores, and every seat's cards face up.
 * Left/Right, Home/End move while focus is inside it.
 */
export function ReplayViewer({ view, match, syncUrl, actions, onMove, nested = false, reviewMatch = null }: Props) {
  const facts = useViewFacts(view);
  const root = useRef<HTMLDivElement>(null);
  const costliest = useCostliest(reviewMatch);
  const reviewed = costliest.open && costliest.state.status === "ready" ? costliest.state.review : null;
  // The decisions of the review with their steps, marked while the list is shown.
  const placed = useMemo(() => (reviewed ? placeDecisions(view, reviewed.decisions) : []), [view, reviewed]);
  const [position, setPosition] = useState<Position>(() =>
    syncUrl ? positionFromSearch(view, location.search) : firstPosition(),
  );

  useEffect(() => {
    setSingleJoker(facts.oneJoker);
    return () => setSingleJoker(false);
  }, [facts.oneJoker]);

  useEffect(() => {
    onMove?.(position);
    if (!syncUrl) return;
    const search = searchWithPosition(location.search, position);
    if (search !== location.search) history.replaceState(history.state, "", location.pathname + search + location.hash);
  }, [position.hand, position.step, syncUrl]);

  useEffect(() => {
    if (!syncUrl) return undefined;
    // Back or forward to an address of this page with another place in it.
    const follow = () => setPosition(positionFromSearch(view, location.search));
    window.addEventListener("popstate", follow);
    return () => window.removeEventListener("popstate", follow);
  }, [view, syncUrl]);

  const move = (to: Position) => setPosition(clampPosition(view, to));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement | null;
    // A select or a field keeps its own use of the arrows.
    if (target && /^(SELECT|INPUT|TEXTAREA)$/.test(target.tagName)) return;
    const to =
      event.key === "ArrowRight"
        ? nextPosition(view, position)
        : event.key === "ArrowLeft"
          ? previousPosition(view, position)
          : event.key === "Home"
            ? firstPosition()
            : event.key === "End"
              ? lastPosition(view)
              : null;
    if (!to) return;
    event.preventDefault();
    move(to);
  };

  const hand = view.hands[position.hand];
  const here = decisionsAt(placed, position);
  const reviewButton = reviewMatch !== null && (
    <CostliestButton state={costliest.state} open={costliest.open} onToggle={() => void costliest.toggle()} />
  );
  return (
    <div class="replay" onKeyDown={onKeyDown} ref={root}>
      <ViewerHeader
        view={view}
        match={match}
        actions={
          reviewButton ? (
            <>
              {actions}
              {reviewButton}
            </>
          ) : (
            actions
          )
        }
        nested={nested}
        below={
          reviewMatch !== null && (
            <CostliestPanel
              view={view}
              state={costliest.state}
              open={costliest.open}
              placed={placed}
              position={position}
              moonBid={facts.moonBid}
              level={nested ? 3 : 2}
              practice={<PracticeMine match={match} />}
              onJump={(to) => {
                move(to);
                requestAnimationFrame(() => showStage(root.current));
              }}
            />
          )
        }
      />
      <StepControls view={view} position={position} onMove={move} costly={here.length} />
      <div
        class="replay-stage"
        tabIndex={0}
        role="group"
        aria-label={t("replay.stage_aria")}
        aria-keyshortcuts="ArrowLeft ArrowRight Home End"
      >
        <div class="replay-detail">
          <ScoreStrip view={view} hand={hand} step={position.step} />
          <StepDetail view={view} hand={hand} step={position.step} facts={facts} costly={here} />
        </div>
        <SeatHands view={view} hand={hand} step={position.step} />
      </div>
    </div>
  );
}
