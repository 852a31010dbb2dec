import { t, tn } from "../i18n";
import { joinOpenTable } from "../listing";
import { useApp } from "../store";
import { settingsChips } from "../tableSettings";
import type { OpenTable } from "../types";

/** One open table: its game and options, its host, the seats free, and the button that takes one. */
function OpenTableItem({ entry, join, busy }: { entry: OpenTable; join: () => void; busy: boolean }) {
  const chips = settingsChips(entry.settings);
  const host = entry.host ? (entry.host_mark ? `${entry.host} #${entry.host_mark}` : entry.host) : t("open.no_host");
  return (
    <li class="open-table">
      <div class="open-table-what">
        <strong>{chips[0]?.text}</strong>
        <span class="muted"> · {t("open.hosted_by", { name: host })}</span>
        <ul class="chips small-chips">
          {chips.slice(1).map((chip) => (
            <li key={chip.text} class={chip.kind}>
              {chip.text}
            </li>
          ))}
        </ul>
        <span class="open-table-free">{tn("open.free", entry.free, { seats: entry.seats })}</span>
      </div>
      <button
        type="button"
        class="btn small"
        disabled={busy}
        aria-label={t("open.join_aria", { name: host, free: entry.free })}
        onClick={join}
      >
        {t("open.join")}
      </button>
    </li>
  );
}

/** The open tables waiting for players, updated live; one click takes a free seat under the name typed. */
export function OpenTablesList({ name, busy }: { name: () => string | null; busy: boolean }) {
  const app = useApp();
  const tables = app.openTables;
  return (
    <section class="panel light" aria-labelledby="open-title">
      <h2 id="open-title">{t("open.title")}</h2>
      {tables === null ? (
        <p class="muted">{t("app.loading")}</p>
      ) : tables.length === 0 ? (
        <p class="muted">{t("open.none")}</p>
      ) : (
        <ul class="open-tables" aria-live="polite">
          {tables.map((entry) => (
            <OpenTableItem
              key={entry.table}
              entry={entry}
              busy={busy}
              join={() => {
                const valid = name();
                if (valid !== null) void joinOpenTable(entry.table, valid);
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
