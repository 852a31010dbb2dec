import { errorText, t } from "../../i18n";
import type { ReplayLoad } from "../../replay/api";
import { tooLargeText } from "./words";

/** Why a replay could not be shown; a record the server refused shows its message, which says where. */
export function LoadProblem({ load }: { load: Extract<ReplayLoad, { ok: false }> }) {
  if (load.problem === "bad_record") {
    return (
      <div class="replay-error" role="alert">
        <p class="replay-error-title">{t("error.bad_record")}</p>
        {load.message && (
          <p class="replay-error-detail">
            <code>{load.message}</code>
          </p>
        )}
        <p class="replay-error-hint">{t("replay.bad_record_hint")}</p>
      </div>
    );
  }
  const text =
    load.problem === "not_found"
      ? t("error.no_such_match")
      : load.problem === "too_large"
        ? tooLargeText()
        : load.error
          ? errorText(load.error, (seat) => t("lobby.seat_n", { n: seat + 1 }))
          : t("replay.failed");
  return (
    <div class="replay-error" role="alert">
      <p class="replay-error-title">{text}</p>
    </div>
  );
}
