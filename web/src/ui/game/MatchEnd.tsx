import { useState } from "preact/hooks";
import { t, tk } from "../../i18n";
import { useApp } from "../../store";
import type { PublicGame, StateMessage } from "../../types";
import { sideColor, sideNames } from "../names";
import { canReview, MatchReviewPanel } from "../Review";
import { HandSummary, ScoreChart } from "../Summary";
import { matchEndReason, standings } from "../summary";
import { RematchPanel } from "./Rematch";

/** An average with one decimal, written the language's way ("2.5", "2,5"). */
function average(value: number | null, lang: string): string {
  if (value === null) return "–";
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/** Every side's place and final score, with a few figures of its match. */
function Standings({ state, pub, lang }: { state: StateMessage; pub: PublicGame; lang: string }) {
  return (
    <div class="standings-wrap">
      <table class="standings">
        <caption>{t("ux.standings")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("ux.col_place")}</th>
            <th scope="col">{t("sum.side")}</th>
            <th scope="col">{t("sum.score")}</th>
            <th scope="col">{t("ux.col_made")}</th>
            <th scope="col">{t("ux.col_set")}</th>
            <th scope="col">{t("ux.col_per_hand")}</th>
          </tr>
        </thead>
        <tbody>
          {standings(pub).map((row) => (
            <tr key={row.side} class={row.side === pub.winner ? "winner" : undefined}>
              <td class="place">{tk(`ux.place.${row.place}`)}</td>
              <th scope="row">
                <span class="side-name">
                  <span class="swatch" style={{ background: sideColor(row.side) }} aria-hidden="true" />
                  <span>{sideNames(state, pub.sides[row.side])}</span>
                </span>
              </th>
              <td class="score">{row.score}</td>
              <td>{row.made}</td>
              <td>{row.set}</td>
              <td>{average(row.perHand, lang)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted standings-note">{t("ux.per_hand_note")}</p>
    </div>
  );
}

/** The end of the match: who won and how, the score chart, and what next (play again, the record). */
export function MatchEnd({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const app = useApp();
  const you = state.table.you;
  const winner = pub.winner;
  const mySide = you === null ? null : pub.seat_side[you];
  const teams = pub.sides.some((side) => side.length > 1);
  let headline = winner === null ? t("end.title") : t("end.winner", { names: sideNames(state, pub.sides[winner]) });
  if (winner !== null && mySide === winner) headline = teams ? t("end.your_side_wins") : t("end.you_win");
  const [showLast, setShowLast] = useState(false);
  const reason = matchEndReason(state, pub);
  const record = `/tables/${encodeURIComponent(state.table.code)}/matches/${state.table.match_number}/record.json`;
  return (
    <section class="panel match-end" aria-labelledby="end-title">
      <h2 id="end-title">{t("end.title")}</h2>
      <p class="headline" style={winner === null ? undefined : { "--side": sideColor(winner) }}>
        {winner !== null && (
          <span class="trophy" aria-hidden="true">
            ★{" "}
          </span>
        )}
        {headline}
      </p>
      {winner !== null && mySide === winner && (
        <p class="muted">{t("end.winner", { names: sideNames(state, pub.sides[winner]) })}</p>
      )}
      {reason && <p class="end-reason">{reason}</p>}
      <Standings state={state} pub={pub} lang={app.lang} />
      {canReview(state) && <MatchReviewPanel key={state.table.match_number} state={state} pub={pub} />}
      <ScoreChart state={state} pub={pub} />
      <RematchPanel state={state} />
      <div class="end-actions">
        <a class="btn secondary" href={record} download>
          {t("end.download")}
        </a>
        {pub.results.length > 0 && (
          <button type="button" class="btn secondary" aria-expanded={showLast} onClick={() => setShowLast(!showLast)}>
            {t("table.last_hand")}
          </button>
        )}
        <a class="btn secondary" href="/">
          {t("end.new_table")}
        </a>
      </div>
      {showLast && pub.results.length > 0 && (
        <div class="end-last-hand">
          <h3>{t("sum.title", { n: pub.results[pub.results.length - 1].number })}</h3>
          <HandSummary state={state} pub={pub} index={pub.results.length - 1} />
        </div>
      )}
    </section>
  );
}
