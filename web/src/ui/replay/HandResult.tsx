import { SUIT_SYMBOL } from "../../cards";
import { pointName, scoreText, suitName, t, tn } from "../../i18n";
import type { ReplayHand, ReplayView } from "../../replay/types";
import type { SuitLetter } from "../../types";
import { sideColor } from "../names";
import type { ViewFacts } from "./Viewer";
import { sideLabel, signedChange, verdictText } from "./words";

export function TrumpTag({ suit }: { suit: SuitLetter }) {
  return (
    <span class={`trump-tag suit-${suit}`}>{t("sum.trump", { suit: `${SUIT_SYMBOL[suit]} ${suitName(suit)}` })}</span>
  );
}

/** The end of a hand: the bid made or set, the side that took each point, and the scores before and after. */
export function HandResult({ view, hand, facts }: { view: ReplayView; hand: ReplayHand; facts: ViewFacts }) {
  const result = hand.result;
  if (!result) return null;
  const points = Object.keys(result.points);
  const countsGame = points.includes("game");
  const made = result.made;
  return (
    <div class="summary">
      <p class={`summary-verdict ${made === false ? "set" : made === true ? "made" : ""}`}>
        {verdictText(view, hand, facts.moonBid)}
        {hand.trump && (
          <>
            {" "}
            <TrumpTag suit={hand.trump} />
          </>
        )}
      </p>
      {points.length > 0 && (
        <ul class="points-list" aria-label={t("sum.point")}>
          {points.map((point) => {
            const side = result.points[point];
            const worth = facts.pointValues[point] ?? 1;
            return (
              <li key={point}>
                <span class="point-name">
                  {pointName(point, facts.oneJoker)}
                  {worth > 1 && <span class="muted"> ({tn("sum.worth", worth)})</span>}
                </span>
                {side === null || side === undefined ? (
                  <span class="muted">{t("sum.nobody")}</span>
                ) : (
                  <span class="side-name">
                    <span class="swatch" style={{ background: sideColor(side) }} aria-hidden="true" />
                    <span class="name-text">{sideLabel(view, side)}</span>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div class="replay-table-wrap">
        <table class="sides-table">
          <thead>
            <tr>
              <th scope="col">{t("sum.side")}</th>
              {countsGame && <th scope="col">{t("sum.game_points")}</th>}
              <th scope="col">{t("sum.taken")}</th>
              <th scope="col">{t("replay.before")}</th>
              <th scope="col">{t("sum.change")}</th>
              <th scope="col">{t("sum.score")}</th>
            </tr>
          </thead>
          <tbody>
            {view.sides.map((_, side) => {
              const before = hand.scores_before[side] ?? 0;
              const after = result.scores[side] ?? before;
              const change = after - before;
              return (
                <tr key={side}>
                  <th scope="row">
                    <span class="side-name">
                      <span class="swatch" style={{ background: sideColor(side) }} aria-hidden="true" />
                      {sideLabel(view, side)}
                    </span>
                  </th>
                  {countsGame && <td>{result.game_points[side] ?? ""}</td>}
                  <td>{result.taken[side] ?? ""}</td>
                  <td>{scoreText(before)}</td>
                  <td class={change < 0 ? "negative" : change > 0 ? "positive" : ""}>{signedChange(change)}</td>
                  <td class="score">{scoreText(after)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
