// The tools of this browser's own profile: a new name, a one-time code to use the profile on
// another device as well, and deleting it.

import { useEffect, useState } from "preact/hooks";
import { errorText, t, tn } from "../../i18n";
import { navigate } from "../../net";
import { forgetProfile, profileLost, renameProfile, type Profile } from "../../profile";
import { deletePlayer, startTransfer } from "../../playersApi";
import { claimPath } from "../../playersRoutes";
import { timeText } from "../../playersView";
import { saveName } from "../../session";
import { toast } from "../../store";
import { nameRequired, playerName } from "../../tableSettings";
import type { ServerError } from "../../types";
import { CopyField } from "../Lobby";

const noSeat = (seat: number) => t("lobby.seat_n", { n: seat + 1 });

/** The own profile's new name: saved on the server, then remembered as the name typed at the door. */
export function RenameForm({ current, renamed }: { current: string; renamed: (name: string) => void }) {
  const [name, setName] = useState(current);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null);
  const valid = playerName(name);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (valid === null) {
      setNote({ error: true, text: nameRequired() });
      return;
    }
    setBusy(true);
    const answer = await renameProfile(valid);
    setBusy(false);
    if (answer.ok) {
      saveName(answer.data.name);
      renamed(answer.data.name);
      setNote({ error: false, text: t("profile.renamed", { name: answer.data.name }) });
    } else {
      setNote({ error: true, text: errorText(answer.error, noSeat) });
    }
  };

  return (
    <form class="rename-form" onSubmit={submit} noValidate>
      <label for="rename-name">{t("landing.your_name")}</label>
      <div class="copy-row">
        <input
          id="rename-name"
          value={name}
          autoComplete="nickname"
          aria-invalid={note?.error === true}
          aria-describedby="rename-note"
          onInput={(e) => {
            setName(e.currentTarget.value);
            setNote(null);
          }}
        />
        <button type="submit" class="btn" disabled={busy || valid === current}>
          {t("profile.rename")}
        </button>
      </div>
      <p id="rename-note" class={note?.error ? "field-error" : "muted small-text"} role="status">
        {note ? note.text : t("profile.rename_note")}
      </p>
    </form>
  );
}

/** "Use on another device": a one-time code, and the link that carries it, valid for some minutes. */
export function TransferBox({ profile }: { profile: Profile }) {
  const [code, setCode] = useState<{ code: string; until: number; minutes: number } | null>(null);
  const [expired, setExpired] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServerError | null>(null);

  useEffect(() => {
    if (!code) return undefined;
    setExpired(false);
    const id = setTimeout(() => setExpired(true), Math.max(0, code.until - Date.now()));
    return () => clearTimeout(id);
  }, [code]);

  const ask = async () => {
    setBusy(true);
    setError(null);
    const answer = await startTransfer(profile.player, profile.secret);
    setBusy(false);
    if (answer.ok) {
      const seconds = Math.max(0, answer.data.expires_in);
      setCode({ code: answer.data.code, until: Date.now() + seconds * 1000, minutes: Math.max(1, Math.round(seconds / 60)) });
    } else {
      setError(answer.error);
      if (profileLost(answer.error.code)) forgetProfile();
    }
  };

  return (
    <section class="panel light" aria-labelledby="transfer-title">
      <h2 id="transfer-title">{t("profile.transfer_title")}</h2>
      <p class="muted">{t("profile.transfer_note")}</p>
      <button type="button" class="btn" disabled={busy} onClick={() => void ask()}>
        {t(code ? "profile.transfer_again" : "profile.transfer_button")}
      </button>
      {error && (
        <p class="field-error" role="alert">
          {errorText(error, noSeat)}
        </p>
      )}
      <div aria-live="polite">
        {code && !expired && (
          <div class="transfer-box">
            <p class="transfer-label">{t("profile.transfer_code")}</p>
            <p class="transfer-code">{code.code}</p>
            <CopyField
              label={t("profile.transfer_link")}
              value={`${location.origin}${claimPath(code.code)}`}
              copyLabel={(shown) => t("profile.transfer_copy", { shown })}
            />
            <p class="muted small-text">
              {tn("profile.transfer_expires", code.minutes, { time: timeText(code.until) })}
            </p>
          </div>
        )}
        {code && expired && <p class="muted">{t("profile.transfer_expired")}</p>}
      </div>
    </section>
  );
}

/** "Delete my profile": asked to confirm, deleted on the server, then forgotten here. */
export function DeleteBox({ profile }: { profile: Profile }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ServerError | null>(null);

  const remove = async () => {
    if (!window.confirm(t("profile.delete_confirm"))) return;
    setBusy(true);
    setError(null);
    const answer = await deletePlayer(profile.player, profile.secret);
    setBusy(false);
    if (!answer.ok && !profileLost(answer.error.code)) {
      setError(answer.error);
      return;
    }
    forgetProfile();
    toast({ text: "profile.deleted" });
    navigate("/", { replace: true });
  };

  return (
    <section class="panel light" aria-labelledby="delete-title">
      <h2 id="delete-title">{t("profile.delete_title")}</h2>
      <p class="muted">{t("profile.delete_note")}</p>
      <button type="button" class="btn danger" disabled={busy} onClick={() => void remove()}>
        {t("profile.delete_button")}
      </button>
      {error && (
        <p class="field-error" role="alert">
          {errorText(error, noSeat)}
        </p>
      )}
    </section>
  );
}
