import { t, tn } from "../../i18n";
import { hideBidAdvice, requestBidAdvice } from "../../net";
import { useApp } from "../../store";
import type { StateMessage } from "../../types";
import { adviceRows, BID_ADVICE_ID, currentBidAdvice, type AdviceRow } from "./bidAdvice";

/**
 * Beside the bid buttons, at a table that allows hints: the button that asks for each auction
 * choice's chances, or puts them away again.
 */
export function BidAdviceButton({ state }: { state: StateMessage }) {
  const app = useApp();
  const open = currentBidAdvice(app.bidAdvice, state) !== null;
  return (
    <button
      type="button"
      class="btn small advice-btn"
      // Not disabled while the answer is awaited: a disabled button would lose the keyboard's focus.
      aria-busy={app.bidAdvicePending}
      aria-expanded={open}
      aria-controls={BID_ADVICE_ID}
      title={t("advice.title")}
      onClick={() => (open ? hideBidAdvice() : void requestBidAdvice())}
    >
      {open ? t("advice.hide") : t("advice.button")}
    </button>
  );
}

function BestMark() {
  return (
    <>
      <span class="advice-star" aria-hidden="true">
        {" "}
        ★
      </span>
      <span class="visually-hidden"> ({t("advice.best")})</span>
    </>
  );
}

function Expected({ row }: { row: AdviceRow }) {
  return (
    <>
      <span class="advice-points">{row.expected}</span>
      <span class="advice-bar" aria-hidden="true">
        <span style={{ width: `${row.bar}%` }} />
      </span>
    </>
  );
}

/**
 * The advice asked for: for each choice, the chance that the side wins the bid, that it then makes
 * it, and the expected score change, the best one marked. A row per choice on a narrow screen; on a
 * wide one (where the table must fit the window) a column per choice, which takes less height. It
 * goes when the turn passes.
 */
export function BidAdviceTable({ state, moonBid }: { state: StateMessage; moonBid: number | null }) {
  const app = useApp();
  const advice = currentBidAdvice(app.bidAdvice, state);
  const rows = advice ? adviceRows(advice, moonBid) : [];
  const caption = advice ? tn("advice.caption", advice.samples) : "";
  const best = (row: AdviceRow) => (row.best ? "best" : undefined);
  return (
    <div id={BID_ADVICE_ID} class="advice-body" aria-live="polite">
      {advice ? (
        <>
          <table class="advice-table advice-down">
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t("advice.col_choice")}</th>
                <th scope="col">{t("advice.col_win")}</th>
                <th scope="col">{t("advice.col_make")}</th>
                <th scope="col">{t("advice.col_expected")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.action} class={best(row)}>
                  <th scope="row">
                    {row.label}
                    {row.best && <BestMark />}
                  </th>
                  <td>{row.win}</td>
                  <td>{row.make}</td>
                  <td class={`advice-expected ${row.sign}`}>
                    <Expected row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <table class="advice-table advice-across" title={t("advice.note")}>
            <caption>{caption}</caption>
            <thead>
              <tr>
                <td />
                {rows.map((row) => (
                  <th key={row.action} scope="col" class={best(row)}>
                    <span aria-hidden="true">{row.short}</span>
                    <span class="visually-hidden">{row.label}</span>
                    {row.best && <BestMark />}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">{t("advice.col_win")}</th>
                {rows.map((row) => (
                  <td key={row.action} class={best(row)}>
                    {row.win}
                  </td>
                ))}
              </tr>
              <tr>
                <th scope="row">{t("advice.col_make")}</th>
                {rows.map((row) => (
                  <td key={row.action} class={best(row)}>
                    {row.make}
                  </td>
                ))}
              </tr>
              <tr>
                <th scope="row">{t("advice.col_expected")}</th>
                {rows.map((row) => (
                  <td key={row.action} class={`advice-expected ${row.sign}${row.best ? " best" : ""}`}>
                    <span class="advice-points">{row.expected}</span>
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
          <p class="muted advice-note">{t("advice.note")}</p>
        </>
      ) : app.bidAdvicePending ? (
        <p class="muted">{t("advice.thinking")}</p>
      ) : null}
    </div>
  );
}
