import { t } from "../../i18n";
import { rematch } from "../../net";
import { useApp } from "../../store";
import type { StateMessage } from "../../types";
import { seatName } from "../names";

/**
 * After a match: "Play again" for every seat, the host's choice of new partners where there are
 * teams, and who has said yes. The next match starts once every person has (bots always do).
 */
export function RematchPanel({ state }: { state: StateMessage }) {
  const app = useApp();
  const table = state.table;
  const you = table.you;
  const ready = new Set(table.rematch?.ready ?? []);
  const newPartners = table.rematch?.new_partners ?? false;
  const isHost = you !== null && table.host === you;
  const imReady = you !== null && ready.has(you);
  return (
    <section class="rematch" aria-labelledby="rematch-title">
      <h2 id="rematch-title">{t("rematch.title")}</h2>
      {you !== null && (
        <div class="end-actions">
          <button
            type="button"
            class={`btn${imReady ? " secondary" : ""}`}
            disabled={app.pending}
            aria-pressed={imReady}
            onClick={() => void rematch(!imReady, newPartners)}
          >
            {imReady ? t("rematch.not_now") : t("end.play_again")}
          </button>
          {isHost && table.settings.teams && (
            <label class="check">
              <input
                type="checkbox"
                checked={newPartners}
                disabled={app.pending}
                onChange={(e) => void rematch(imReady, e.currentTarget.checked)}
              />
              {t("rematch.new_partners")}
            </label>
          )}
        </div>
      )}
      <p class="muted">
        {table.settings.teams ? t(newPartners ? "rematch.partners_new" : "rematch.partners_same") : null}{" "}
        {t(table.settings.matchmade ? "rematch.matchmade" : "rematch.how")}
      </p>
      <ul class="rematch-seats">
        {table.seats.map((seat) => {
          const yes = seat.bot || ready.has(seat.seat);
          return (
            <li key={seat.seat} class={yes ? "yes" : undefined}>
              <span aria-hidden="true">{yes ? "✓" : "…"} </span>
              {t(yes ? "rematch.seat_ready" : "rematch.seat_waiting", { name: seatName(state, seat.seat) })}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
