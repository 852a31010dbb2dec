import { t } from "../../i18n";
import {
  firstPosition,
  handStart,
  isFirst,
  isLast,
  lastPosition,
  nextPosition,
  previousPosition,
  stepNumber,
  totalSteps,
  type Position,
} from "../../replay/steps";
import type { ReplayView } from "../../replay/types";
import { CostlyBadge } from "./CostliestDecisions";
import { positionText } from "./words";

interface Props {
  view: ReplayView;
  position: Position;
  onMove: (to: Position) => void;
  /** How many of the costliest decisions shown the step holds (marked with a ⚠). */
  costly?: number;
}

/**
 * A step button. At either end it stays focusable (aria-disabled rather than disabled), so that the
 * keyboard focus is not lost when the last step is reached.
 */
function StepButton({ label, symbol, off, onClick }: { label: string; symbol: string; off: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      class="btn small secondary replay-step-button"
      aria-label={label}
      title={label}
      aria-disabled={off}
      onClick={() => {
        if (!off) onClick();
      }}
    >
      <span aria-hidden="true">{symbol}</span>
    </button>
  );
}

/** The hand chooser, the step buttons and where the viewer is (a live region, read out on each move). */
export function StepControls({ view, position, onMove, costly = 0 }: Props) {
  const atFirst = isFirst(position);
  const atLast = isLast(view, position);
  const step = stepNumber(view, position);
  const total = totalSteps(view);
  return (
    <div class="replay-controls">
      <div class="replay-hand-choice">
        <label for="replay-hand">{t("replay.hand_label")}</label>
        <select
          id="replay-hand"
          value={String(position.hand)}
          onChange={(event) => onMove(handStart(view, Number(event.currentTarget.value)))}
        >
          {view.hands.map((hand, index) => (
            <option key={hand.number} value={String(index)}>
              {t("table.hand_n", { n: hand.number })}
            </option>
          ))}
        </select>
      </div>
      <div class="replay-step-buttons" role="group" aria-label={t("replay.steps_aria")}>
        <StepButton label={t("replay.first")} symbol="⇤" off={atFirst} onClick={() => onMove(firstPosition())} />
        <StepButton
          label={t("replay.previous")}
          symbol="←"
          off={atFirst}
          onClick={() => onMove(previousPosition(view, position))}
        />
        <StepButton
          label={t("replay.next")}
          symbol="→"
          off={atLast}
          onClick={() => onMove(nextPosition(view, position))}
        />
        <StepButton label={t("replay.last")} symbol="⇥" off={atLast} onClick={() => onMove(lastPosition(view))} />
      </div>
      <p class="replay-position" aria-live="polite" aria-atomic="true">
        {positionText(view, position)}
        <CostlyBadge count={costly} />
      </p>
      <progress class="replay-progress" max={total} value={step} aria-hidden="true" />
    </div>
  );
}
