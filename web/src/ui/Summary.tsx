import { SUIT_SYMBOL } from "../cards";
import { pointName, suitName, t, tn } from "../i18n";
import type { HandResult, PublicGame, StateMessage } from "../types";
import { CardRow } from "./Card";
import { CHART_HEIGHT, CHART_PAD, CHART_WIDTH, scoreChartPlot } from "./chart";
import { seatName, sideColor, sideNames } from "./names";
import { canReview, HandReviewPanel } from "./Review";
import { aboveTargetNotes, outcomeClass, verdictText } from "./summary";

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** The scores before a given result: the previous hand's, or the match's start scores. */
function scoresBefore(pub: PublicGame, index: number): number[] {
  return index > 0 ? pub.results[index - 1].scores : pub.start_scores;
}

/** The end of a hand: the bid made or set, who won each point, the cards out of play, the scores.
 * It stands under an h2 (its title), so its sections are h3. */
export function HandSummary({
  state,
  pub,
  index,
  onReview,
}: {
  state: StateMessage;
  pub: PublicGame;
  index: number;
  /** Called when the player opens the hand's review. */
  onReview?: () => void;
}) {
  const result: HandResult = pub.results[index];
  const before = scoresBefore(pub, index);
  const single = pub.rules.jokers === 1;
  // The count of the cards taken matters only where it decides the Game point (not in widow).
  const countsGame = pub.rules.points.includes("game");
  const discards = result.discards
    .map((cards, seat) => ({ seat, cards }))
    .filter((entry) => entry.cards.length > 0);
  const aboveTarget = aboveTargetNotes(state, pub, index);
  return (
    <div class="summary">
      <p class={`summary-verdict ${outcomeClass(result.outcome)}`}>
        {verdictText(state, pub, index)}
        {result.trump && (
          <span class={`trump-tag suit-${result.trump}`}>
            {" "}
            {t("sum.trump", { suit: `${SUIT_SYMBOL[result.trump]} ${suitName(result.trump)}` })}
          </span>
        )}
      </p>
      <ul class="points-list" aria-label={t("sum.point")}>
        {pub.rules.points.map((point) => {
          const side = result.points[point];
          const worth = pub.rules.point_values[point] ?? 1;
          return (
            <li key={point}>
              <span class="point-name">
                {pointName(point, single)}
                {worth > 1 && <span class="muted"> ({tn("sum.worth", worth)})</span>}
              </span>
              {side === null || side === undefined ? (
                <span class="muted">{t("sum.nobody")}</span>
              ) : (
                <span class="side-name">
                  <span class="swatch" style={{ background: sideColor(side) }} aria-hidden="true" />
                  <span class="name-text">{sideNames(state, pub.sides[side])}</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {pub.rules.jokers_to_holder && <p class="muted summary-note">{t("sum.jokers_to_holder")}</p>}
      <table class="sides-table">
        <thead>
          <tr>
            <th scope="col">{t("sum.side")}</th>
            {countsGame && <th scope="col">{t("sum.game_points")}</th>}
            <th scope="col">{t("sum.taken")}</th>
            <th scope="col">{t("sum.change")}</th>
            <th scope="col">{t("sum.score")}</th>
          </tr>
        </thead>
        <tbody>
          {pub.sides.map((seats, side) => {
            const change = result.scores[side] - before[side];
            return (
              <tr key={side}>
                <th scope="row">
                  <span class="side-name">
                    <span class="swatch" style={{ background: sideColor(side) }} aria-hidden="true" />
                    {sideNames(state, seats)}
                  </span>
                </th>
                {countsGame && <td>{result.game_points[side]}</td>}
                <td>{result.taken[side]}</td>
                <td class={change < 0 ? "negative" : change > 0 ? "positive" : ""}>{signed(change)}</td>
                <td class="score">{result.scores[side]}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {aboveTarget.map((note) => (
        <p key={note} class="summary-note above-target">
          {note}
        </p>
      ))}
      {result.out.length > 0 && (
        <div class="summary-cards">
          <h3>{t("sum.out")}</h3>
          <CardRow cards={result.out} size="xs" />
        </div>
      )}
      {discards.length > 0 && (
        <div class="summary-cards">
          <h3>{t("sum.discards")}</h3>
          {discards.map(({ seat, cards }) => (
            <div key={seat} class="discard-line">
              <span class="discard-name">{seatName(state, seat)}</span>
              <CardRow cards={cards} size="xs" />
            </div>
          ))}
        </div>
      )}
      {canReview(state) && (
        <HandReviewPanel
          key={`${state.table.match_number}/${index}`}
          state={state}
          pub={pub}
          index={index}
          onOpen={onReview}
        />
      )}
    </div>
  );
}

/** A line chart of every side's score after each hand, with the target as a dashed line. */
export function ScoreChart({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const { series, hands, bottom, showElimination, ticks, x, y } = scoreChartPlot(pub);
  const elimination = pub.rules.elimination;
  const width = CHART_WIDTH;
  const height = CHART_HEIGHT;
  const pad = CHART_PAD;
  return (
    <figure class="chart">
      <figcaption>{t("end.chart")}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={t("end.chart_aria")}>
        <title>{t("end.chart_aria")}</title>
        <line class="axis" x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} />
        <line class="target" x1={pad.left} x2={width - pad.right} y1={y(pub.rules.target)} y2={y(pub.rules.target)} />
        <text class="label" x={pad.left - 6} y={y(pub.rules.target) + 4} text-anchor="end">
          {pub.rules.target}
        </text>
        <text class="label" x={pad.left - 6} y={y(0) + 4} text-anchor="end">
          0
        </text>
        {showElimination && (
          <line class="target elimination" x1={pad.left} x2={width - pad.right} y1={y(elimination)} y2={y(elimination)} />
        )}
        {bottom < 0 && (
          <text class="label" x={pad.left - 6} y={y(bottom) + 4} text-anchor="end">
            {bottom}
          </text>
        )}
        {ticks.map((i) => (
          <text key={i} class="label" x={x(i)} y={height - 8} text-anchor="middle">
            {i}
          </text>
        ))}
        {series.map((points, side) => (
          <g key={side} style={{ color: sideColor(side) }}>
            <polyline
              fill="none"
              stroke="currentColor"
              stroke-width="3"
              stroke-linejoin="round"
              points={points.map((v, i) => `${x(i)},${y(v)}`).join(" ")}
            />
            {points.map((v, i) => (
              <circle key={i} cx={x(i)} cy={y(v)} r="3.5" fill="currentColor" />
            ))}
          </g>
        ))}
      </svg>
      <ul class="legend">
        {pub.sides.map((seats, side) => (
          <li key={side}>
            <span class="swatch" style={{ background: sideColor(side) }} aria-hidden="true" />
            <span class="side-name">{sideNames(state, seats)}</span>
            <strong>{pub.scores[side]}</strong>
          </li>
        ))}
      </ul>
      <p class="muted axis-caption">
        {t("end.hand_axis")} 0–{hands}
      </p>
    </figure>
  );
}
