// From a player's name: add them as a friend, or block them (both over HTTP with this browser's
// profile). In a chunk of its own, fetched when the person button is first pressed.

import { useEffect, useRef, useState } from "preact/hooks";
import { currentLang, errorText, t } from "../i18n";
import { askFriend, blockPlayer } from "../friendsApi";
import type { ServerError } from "../types";
import { PEOPLE_TEXTS } from "./peopleTexts";

export interface PersonDialogProps {
  name: string;
  player: string;
  onClose: () => void;
}

export function PersonDialog({ name, player, onClose }: PersonDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const said = useRef<HTMLParagraphElement>(null);
  const texts = PEOPLE_TEXTS[currentLang()];
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<ServerError | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal?.();
    return () => el?.close?.();
  }, []);
  useEffect(() => {
    if (done) said.current?.focus();
  }, [done]);

  const send = async (which: "friend" | "block") => {
    setSending(true);
    setError(null);
    const answer = which === "friend" ? await askFriend(player) : await blockPlayer(player);
    setSending(false);
    if (!answer.ok) return setError(answer.error);
    const status = which === "block" ? "blocked" : answer.data === "friends" ? "friends" : "asked";
    setDone(texts[status].replace("{name}", name));
  };

  return (
    <dialog ref={dialog} class="report-dialog person-dialog" aria-labelledby="person-title" onClose={onClose}>
      <h2 id="person-title">{texts.title.replace("{name}", name)}</h2>
      {done ? (
        <p role="status" tabIndex={-1} ref={said}>
          {done}
        </p>
      ) : (
        <>
          <p class="muted">{texts.blockNote}</p>
          {error && (
            <p class="field-error" role="alert">
              {errorText(error, (seat) => t("lobby.seat_n", { n: seat + 1 }))}
            </p>
          )}
        </>
      )}
      <div class="report-buttons">
        {!done && (
          <>
            <button type="button" class="btn secondary" disabled={sending} onClick={() => void send("block")}>
              {texts.block}
            </button>
            <button type="button" class="btn" disabled={sending} onClick={() => void send("friend")}>
              {texts.addFriend}
            </button>
          </>
        )}
        <button type="button" class="btn secondary" onClick={onClose}>
          {texts.close}
        </button>
      </div>
    </dialog>
  );
}
