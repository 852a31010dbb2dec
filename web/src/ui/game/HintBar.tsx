import { t } from "../../i18n";
import { hintText } from "../../i18n/actions";
import { requestHint } from "../../net";
import { useApp } from "../../store";
import { publicGame, type StateMessage } from "../../types";
import { currentHint, HINT_TEXT_ID } from "./hint";

/** The hint button and the suggestion, on this seat's turn at a table that allows hints. */
export function HintBar({ state }: { state: StateMessage }) {
  const app = useApp();
  const hint = currentHint(app.hint, state);
  const moonBid = publicGame(state)?.rules.moon_bid ?? null;
  return (
    <div class="hint-bar">
      <button
        type="button"
        class="btn small hint-btn"
        disabled={app.hintPending}
        aria-keyshortcuts="H"
        title={t("hint.title")}
        onClick={() => requestHint()}
      >
        {t("hint.button")}{" "}
        <kbd aria-hidden="true">H</kbd>
      </button>
      <p id={HINT_TEXT_ID} class={`hint-text${hint ? " shown" : ""}`} aria-live="polite">
        {hint ? (
          <>
            <span class="hint-shown" aria-hidden="true">
              {hintText(hint.action, hint.expected, false, moonBid)}
            </span>
            <span class="hint-spoken visually-hidden">{hintText(hint.action, hint.expected, true, moonBid)}</span>
          </>
        ) : app.hintPending ? (
          <span class="muted">{t("hint.thinking")}</span>
        ) : null}
      </p>
    </div>
  );
}
