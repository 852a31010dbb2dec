import { useState } from "preact/hooks";
import { t } from "../../i18n";
import { playAgain } from "../../net";
import { useApp } from "../../store";
import type { PublicGame, StateMessage } from "../../types";
import { sideColor, sideNames } from "../names";
import { HandSummary, ScoreChart } from "../Summary";
import { matchEndReason } from "../summary";

/** The end of the match: who won and how, the score chart, and what next (play again, the record). */
export function MatchEnd({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const app = useApp();
  const you = state.table.you;
  const winner = pub.winner;
  const mySide = you === null ? null : pub.seat_side[you];
  const teams = pub.sides.some((side) => side.length > 1);
  let headline = winner === null ? t("end.title") : t("end.winner", { names: sideNames(state, pub.sides[winner]) });
  if (winner !== null && mySide === winner) headline = teams ? t("end.your_side_wins") : t("end.you_win");
  const isHost = you !== null && state.table.host === you;
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
      <ScoreChart state={state} pub={pub} />
      <div class="end-actions">
        {isHost ? (
          <button type="button" class="btn" disabled={app.pending} onClick={() => playAgain()}>
            {t("end.play_again")}
          </button>
        ) : (
          <p class="muted">{t("end.waiting_host")}</p>
        )}
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
