import { t, tk } from "../i18n";
import type { Standing } from "../types";
import { sideColor } from "./names";

/** An average with one decimal, written the language's way ("2.5", "2,5"). */
function average(value: number | null, lang: string): string {
  if (value === null) return "–";
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/**
 * Every side's place and final score, with a few figures of its match, in the order and places the
 * server sent (the match-over screen and the replay viewer show the same table).
 */
export function StandingsTable({
  rows,
  winner,
  sideName,
  lang,
}: {
  rows: Standing[];
  winner: number | null;
  sideName: (side: number) => string;
  lang: string;
}) {
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
          {rows.map((row) => (
            <tr key={row.side} class={row.side === winner ? "winner" : undefined}>
              <td class="place">{tk(`ux.place.${row.place}`)}</td>
              <th scope="row">
                <span class="side-name">
                  <span class="swatch" style={{ background: sideColor(row.side) }} aria-hidden="true" />
                  <span>{sideName(row.side)}</span>
                </span>
              </th>
              <td class="score">{row.score}</td>
              <td>{row.made}</td>
              <td>{row.set}</td>
              <td>{average(row.points_per_hand, lang)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted standings-note">{t("ux.per_hand_note")}</p>
    </div>
  );
}
