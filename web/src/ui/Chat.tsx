import { useEffect, useRef, useState } from "preact/hooks";
import { t, tk } from "../i18n";
import { servedLimits, withinLength } from "../served";
import { loadName, saveName } from "../session";
import { useApp } from "../store";
import { muteSeat, sendChat, setChatControls } from "../talk";
import { playerName } from "../tableSettings";
import type { ChatControls, StateMessage } from "../types";
import { MarkTag } from "./players/common";

/** The words for the server's refusals of a reader's line, where the chat has its own. */
const CLOSED_WORDS: Record<string, string> = {
  chat_off: "chat.off",
  chat_closed: "chat.closed_hand",
  spectators_silent: "chat.spectators_silent",
  chat_muted: "chat.muted_you",
};

/**
 * Why this reader may not write now (a message key), or null: the server's own refusal for the
 * reader's seat, or for a spectator, as the table's state carries it (the client works none of it out).
 */
export function chatClosedReason(state: StateMessage): string | null {
  const refused = state.table.chat?.refused;
  if (!refused) return "chat.off";
  const you = state.table.you;
  const code = you === null ? refused.spectator : (refused.seats[you] ?? null);
  return code === null ? null : (CLOSED_WORDS[code] ?? `error.${code}`);
}

/** The host's switches: the chat on or off, spectators writing or not, and a mute per seat. */
function HostControls({ state, controls }: { state: StateMessage; controls: ChatControls }) {
  const seats = state.table.seats.filter((seat) => !seat.open && !seat.bot && seat.seat !== state.table.you);
  return (
    <details class="chat-host">
      <summary>{t("chat.host_controls")}</summary>
      <label class="check">
        <input
          type="checkbox"
          checked={controls.on}
          onChange={(e) => void setChatControls(e.currentTarget.checked, controls.spectators)}
        />
        {t("chat.on")}
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={controls.spectators}
          onChange={(e) => void setChatControls(controls.on, e.currentTarget.checked)}
        />
        {t("chat.spectators_write")}
      </label>
      {seats.length > 0 && (
        <ul class="chat-mutes">
          {seats.map((seat) => {
            const muted = controls.muted.includes(seat.seat);
            const name = seat.name ?? String(seat.seat + 1);
            return (
              <li key={seat.seat}>
                <button
                  type="button"
                  class="btn small secondary"
                  aria-pressed={muted}
                  onClick={() => void muteSeat(seat.seat, !muted)}
                >
                  {t(muted ? "chat.unmute" : "chat.mute", { name })}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </details>
  );
}

/** The table's chat: its lines as plain text, a line to write when it is open, and the host's switches. */
export function ChatPanel({ state }: { state: StateMessage }) {
  const app = useApp();
  const controls = state.table.chat;
  const you = state.table.you;
  const isHost = you !== null && state.table.host === you;
  const closed = chatClosedReason(state);
  const [text, setText] = useState("");
  const [name, setName] = useState(loadName());
  const [sending, setSending] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [app.chat.length]);

  const spectatorName = you === null ? playerName(name) : null;
  const longest = servedLimits()?.chat_length ?? null;
  const written = withinLength(text, longest);
  const tooLong = written === null && text.trim().length > 0;
  const canSend = !closed && !sending && written !== null && (you !== null || spectatorName !== null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!canSend || written === null) return;
    if (spectatorName) saveName(spectatorName);
    setSending(true);
    const sent = await sendChat(written);
    setSending(false);
    if (sent) setText("");
  };
  const last = app.chat[app.chat.length - 1];
  return (
    <section class="panel chat-panel" aria-labelledby="chat-title">
      <h2 id="chat-title">{t("chat.title")}</h2>
      {app.chat.length === 0 ? (
        <p class="muted">{t("chat.empty")}</p>
      ) : (
        <ol class="chat-lines" ref={list} tabIndex={0} aria-labelledby="chat-title">
          {app.chat.map((line) => (
            <li key={line.id} class={line.seat === you && you !== null ? "mine" : undefined}>
              <span class="chat-name">{line.name}</span>
              <MarkTag mark={line.mark} />
              {line.seat === null && <span class="tag">{t("chat.spectator")}</span>}
              {line.seat !== null && controls?.muted.includes(line.seat) && (
                <span class="tag warn">{t("chat.muted")}</span>
              )}
              <span class="visually-hidden">: </span>
              <span class="chat-text">{line.text}</span>
            </li>
          ))}
        </ol>
      )}
      <p class="visually-hidden" aria-live="polite">
        {last ? `${last.name}${last.mark ? ` #${last.mark}` : ""}: ${last.text}` : ""}
      </p>
      {closed ? (
        <p class="muted chat-closed">{tk(closed)}</p>
      ) : (
        <form class="chat-form" onSubmit={submit}>
          {you === null && (
            <>
              <label for="chat-name">{t("chat.your_name")}</label>
              <input
                id="chat-name"
                value={name}
                maxLength={40}
                autoComplete="nickname"
                onInput={(e) => setName(e.currentTarget.value)}
              />
            </>
          )}
          <label for="chat-text" class="visually-hidden">
            {t("chat.label")}
          </label>
          <div class="copy-row">
            <input
              id="chat-text"
              value={text}
              autoComplete="off"
              placeholder={t("chat.placeholder")}
              onInput={(e) => setText(e.currentTarget.value)}
            />
            <button type="submit" class="btn small" disabled={!canSend}>
              {t("chat.send")}
            </button>
          </div>
          {tooLong && longest !== null && <p class="field-error">{t("chat.too_long", { max: longest })}</p>}
        </form>
      )}
      {app.chatKeptHours !== null && <p class="muted small-text">{t("chat.kept", { hours: app.chatKeptHours })}</p>}
      {isHost && controls && <HostControls state={state} controls={controls} />}
    </section>
  );
}
