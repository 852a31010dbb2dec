import { useState } from "preact/hooks";
import { t } from "../../i18n";
import { useApp } from "../../store";
import type { PublicGame, StateMessage } from "../../types";
import { sideColor, sideNames } from "../names";
import { canReview, MatchReviewPanel } from "../Review";
import { HandSummary, ScoreChart } from "../Summary";
import { StandingsTable } from "../Standings";
import { matchEndReason } from "../summary";
import { RematchPanel } from "./Rematch";

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
      <h1 id="end-title" tabIndex={-1}>
        {t("end.title")}
      </h1>
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
      {/* What next comes first, in sight with the result on a phone and at 1280x800. */}
      <RematchPanel state={state} />
      {pub.standings && (
        <StandingsTable
          rows={pub.standings}
          winner={winner}
          sideName={(side) => sideNames(state, pub.sides[side])}
          lang={app.lang}
        />
      )}
      {canReview(state) && <MatchReviewPanel key={state.table.match_number} state={state} pub={pub} level={2} />}
      <ScoreChart state={state} pub={pub} />
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
          <h2>{t("sum.title", { n: pub.results[pub.results.length - 1].number })}</h2>
          <HandSummary state={state} pub={pub} index={pub.results.length - 1} />
        </div>
      )}
    </section>
  );
}
