import { scoreText, t } from "../../i18n";
import { scoresAt } from "../../replay/steps";
import type { ReplayHand, ReplayView } from "../../replay/types";
import { sideColor } from "../names";
import { sideLabel } from "./words";

/** The running score: before the hand, and at its result the score before and after it. */
export function ScoreStrip({ view, hand, step }: { view: ReplayView; hand: ReplayHand; step: number }) {
  const { scores, after } = scoresAt(hand, step);
  return (
    <section class="replay-scores" aria-labelledby="replay-scores-title">
      <h2 id="replay-scores-title">{t(after ? "replay.scores_after" : "replay.scores_before", { n: hand.number })}</h2>
      <ul>
        {view.sides.map((_, side) => {
          const before = hand.scores_before[side] ?? 0;
          const change = (scores[side] ?? 0) - before;
          return (
            <li key={side}>
              <span class="side-name">
                <span class="swatch" style={{ background: sideColor(side) }} aria-hidden="true" />
                <span class="name-text">{sideLabel(view, side)}</span>
              </span>
              <span class="replay-score">
                {after && (
                  <span class={`replay-change ${change < 0 ? "down" : change > 0 ? "up" : ""}`}>
                    {scoreText(before)} →
                  </span>
                )}
                <strong>{scoreText(scores[side] ?? 0)}</strong>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
