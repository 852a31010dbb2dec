// /claim: take a profile from another device with the one-time code shown there (the link it gives
// fills the code in; the code is used only when the button is pressed).

import { useState } from "preact/hooks";
import { errorText, t } from "../../i18n";
import { navigate } from "../../net";
import { adoptProfile } from "../../profile";
import { claimTransfer } from "../../playersApi";
import { claimCodeFrom, profilePath } from "../../playersRoutes";
import { saveName } from "../../session";
import { toast, useApp } from "../../store";
import { useHeadingFocus, useProfile } from "./common";

const noSeat = (seat: number) => t("lobby.seat_n", { n: seat + 1 });

export function ClaimPage({ code }: { code: string }) {
  useApp();
  const me = useProfile();
  const [text, setText] = useState(code);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useHeadingFocus(true);

  const submit = async (event: Event) => {
    event.preventDefault();
    const found = claimCodeFrom(text);
    if (found === null) {
      setError(t("profile.claim_bad_code"));
      document.getElementById("claim-code")?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const answer = await claimTransfer(found);
    setBusy(false);
    if (!answer.ok) {
      setError(errorText(answer.error, noSeat));
      return;
    }
    adoptProfile(answer.data);
    saveName(answer.data.name);
    toast({ text: "profile.claimed" });
    navigate(profilePath(answer.data.player), { replace: true });
  };

  return (
    <div class="players-page narrow">
      <form class="panel light" onSubmit={submit} noValidate aria-labelledby="claim-title">
        <h1 id="claim-title" ref={heading} tabIndex={-1}>
          {t("profile.claim_title")}
        </h1>
        <p class="muted">{t("profile.claim_note")}</p>
        <label for="claim-code">{t("profile.claim_code")}</label>
        <div class="copy-row">
          <input
            id="claim-code"
            class="code-input"
            value={text}
            spellcheck={false}
            autoCapitalize="characters"
            autoComplete="off"
            placeholder="ABCD-EFGH"
            aria-invalid={error !== null}
            aria-describedby={error ? "claim-error" : undefined}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setError(null);
            }}
          />
          <button type="submit" class="btn" disabled={busy}>
            {t("profile.claim_button")}
          </button>
        </div>
        {error && (
          <p id="claim-error" class="field-error" role="alert">
            {error}
          </p>
        )}
        {me && <p class="muted small-text">{t("profile.claim_replaces", { name: me.name })}</p>}
      </form>
    </div>
  );
}
