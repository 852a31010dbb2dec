import { useEffect, useRef } from "preact/hooks";
import { t } from "../../i18n";
import { useApp } from "../../store";
import type { StateMessage } from "../../types";
import { logText } from "./log";

/** The last lines of the table's log, scrolled to the newest, the newest also read out. */
export function PlayLog({ state }: { state: StateMessage }) {
  const app = useApp();
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [app.log.length]);
  const lines = app.log.slice(-60);
  const last = lines[lines.length - 1];
  return (
    <section class="panel log-panel">
      <h2 id="log-title">{t("table.log")}</h2>
      {/* It scrolls: a keyboard must be able to reach it to scroll it. */}
      <ol class="log" ref={list} tabIndex={0} aria-labelledby="log-title">
        {lines.map((entry) => (
          <li key={entry.id}>{logText(entry, state)}</li>
        ))}
      </ol>
      <p class="visually-hidden" aria-live="polite">
        {last ? logText(last, state) : ""}
      </p>
    </section>
  );
}
