// Reporting another player for the server's operator: a reason from the server's list, an optional
// line, sent; then a thanks. From a table over its socket, from a finished match of this browser's
// profile over HTTP. In a chunk of its own, fetched when a "Report" button is first pressed.

import { useEffect, useRef, useState } from "preact/hooks";
import { currentLang, errorText, t } from "../i18n";
import { servedLimits, textLength } from "../served";
import { request, seatPayload } from "../net";
import { call } from "../playersApi";
import { profileAuth } from "../profile";
import { getApp } from "../store";
import type { Ack, ServerError } from "../types";
import { REPORT_TEXTS } from "./reportTexts";

export interface ReportDialogProps {
  /** The name of the player reported, as shown, and their seat at the table on screen or in `match`. */
  name: string;
  seat: number;
  /** A finished match of this browser's profile (its history): the report goes over HTTP. */
  match?: string;
  onClose: () => void;
}

/** Report the player in `seat` of the table on screen (from a seat, or watching). */
function sendAtTable(seat: number, reason: string, text: string): Promise<Ack> {
  const route = getApp().route;
  if (route.kind !== "table") return Promise.resolve({ ok: false, error: { code: "not_following", args: {}, message: "" } });
  const payload = seatPayload() ?? { table: route.code };
  return request("report", { ...payload, seat, reason, ...(text ? { text } : {}) });
}

/**
 * Report the player in `seat` of `match`, a finished match of this browser's profile
 * (POST /api/players/{id}/reports with its secret); here rather than in playersApi, which every
 * first page fetches.
 */
async function sendFromHistory(match: string, seat: number, reason: string, text: string): Promise<Ack> {
  const auth = profileAuth();
  if (auth === null) return { ok: false, error: { code: "bad_secret", args: {}, message: "" } };
  const answer = await call(
    "POST",
    `/api/players/${encodeURIComponent(auth.player)}/reports`,
    (value) => ((value as { ok?: unknown } | null)?.ok === true ? true : null),
    { body: { match, seat, reason, ...(text ? { text } : {}) }, secret: auth.secret },
  );
  return answer.ok ? { ok: true } : { ok: false, error: answer.error };
}

export function ReportDialog({ name, seat, match, onClose }: ReportDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const texts = REPORT_TEXTS[currentLang()];
  const limits = servedLimits();
  const reasons = limits?.report_reasons ?? [];
  const longest = limits?.report_length ?? null;
  const [reason, setReason] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<ServerError | null>(null);

  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal?.();
    return () => el?.close?.();
  }, []);
  useEffect(() => {
    if (sent) closeButton.current?.focus();
  }, [sent]);

  const line = text.trim();
  const tooLong = longest !== null && textLength(line) > longest;
  const submit = async (event: Event) => {
    event.preventDefault();
    if (reason === null || tooLong || sending) return;
    setSending(true);
    setError(null);
    const answer = await (match === undefined ? sendAtTable(seat, reason, line) : sendFromHistory(match, seat, reason, line));
    setSending(false);
    if (answer.ok) setSent(true);
    else setError(answer.error);
  };

  return (
    <dialog ref={dialog} class="report-dialog" aria-labelledby="report-title" onClose={onClose}>
      <h2 id="report-title">{texts.title.replace("{name}", name)}</h2>
      {sent ? (
        <>
          <p role="status">{texts.thanks}</p>
          <div class="report-buttons">
            <button type="button" class="btn" ref={closeButton} onClick={onClose}>
              {texts.close}
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit}>
          <fieldset class="report-reasons">
            <legend>{texts.why}</legend>
            {reasons.length === 0 && <p class="muted">{t("app.loading")}</p>}
            {reasons.map((code) => (
              <label key={code} class="report-reason">
                <input
                  type="radio"
                  name="report-reason"
                  value={code}
                  checked={reason === code}
                  onChange={() => setReason(code)}
                />{" "}
                {texts.reasons[code] ?? code}
              </label>
            ))}
          </fieldset>
          <label class="report-text">
            {texts.text}
            <input
              type="text"
              value={text}
              maxLength={longest ?? undefined}
              aria-invalid={tooLong}
              onInput={(e) => setText((e.target as HTMLInputElement).value)}
            />
          </label>
          {error && (
            <p class="field-error" role="alert">
              {errorText(error, (seat) => t("lobby.seat_n", { n: seat + 1 }))}
            </p>
          )}
          <div class="report-buttons">
            <button type="button" class="btn secondary" onClick={onClose}>
              {texts.cancel}
            </button>
            <button type="submit" class="btn" disabled={reason === null || tooLong || sending}>
              {texts.send}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
