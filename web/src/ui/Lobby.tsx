import { useRef, useState } from "preact/hooks";
import { t } from "../i18n";
import { setListed } from "../listing";
import { fillWithBots, joinTable, kick, leave, setBot, sitAt, startMatch } from "../net";
import { presetFacts } from "../presets";
import { loadName } from "../session";
import { useApp } from "../store";
import { ChatPanel } from "./Chat";
import { BotTag, FinishesTag, MarkTag, PlayerName, RatingTag } from "./players/common";
import { PersonButton } from "./PersonButton";
import { playerName, settingsChips } from "../tableSettings";
import type { StateMessage } from "../types";

/** A link to copy; `copyLabel` names its button from what the button shows ("Copy", "✓ Copied"). */
export function CopyField({
  label,
  value,
  copyLabel,
}: {
  label: string;
  value: string;
  copyLabel: (shown: string) => string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // no clipboard API (plain http): select the text and use the older command
      input.current?.select();
      document.execCommand("copy");
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  const id = `copy-${label.replace(/\W+/g, "-")}`;
  const shown = copied ? `✓ ${t("lobby.copied")}` : t("lobby.copy");
  return (
    <div class="copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} ref={input} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="btn small" onClick={copy} aria-label={copyLabel(shown)}>
          {shown}
        </button>
      </div>
    </div>
  );
}

export function SettingsChips({ state }: { state: StateMessage }) {
  const chips = settingsChips(state.table.settings);
  return (
    <ul class="chips">
      {chips.map((chip) => (
        <li key={chip.text} class={chip.kind}>
          {chip.text}
        </li>
      ))}
    </ul>
  );
}

export function Lobby({ state }: { state: StateMessage }) {
  const app = useApp();
  const [name, setName] = useState(loadName());
  const table = state.table;
  const you = table.you;
  const isHost = you !== null && table.host === you;
  const openSeats = table.seats.filter((seat) => seat.open).length;
  const invite = `${location.origin}/t/${encodeURIComponent(table.code)}`;
  const busy = app.pending;
  const valid = playerName(name);
  // How the preset seats its teams, from the server's facts (no note until they are here).
  const facts = app.presets.status === "ready" ? app.presets.facts : null;
  const teamLayout = facts ? presetFacts(facts, table.settings.preset)?.team_layout : undefined;

  return (
    <div class="lobby">
      <section class="panel light">
        <h1>{t("lobby.title")}</h1>
        <SettingsChips state={state} />
        {table.settings.teams && teamLayout && (
          <p class="muted">{t(teamLayout === "alternate" ? "lobby.teams_alternate_note" : "lobby.teams_note")}</p>
        )}
        <CopyField label={t("lobby.invite")} value={invite} copyLabel={(shown) => t("lobby.copy_invite", { shown })} />
        <CopyField label={t("lobby.watch_link")} value={`${invite}?watch=1`} copyLabel={(shown) => t("lobby.copy_watch", { shown })} />
        {isHost ? (
          <label class="check listed-switch">
            <input
              type="checkbox"
              checked={!!table.listed}
              disabled={busy}
              onChange={(e) => void setListed(e.currentTarget.checked)}
            />
            {t("open.list")}
          </label>
        ) : (
          <p class="muted">{t(table.listed ? "open.listed_note" : "open.private_note")}</p>
        )}
      </section>

      <section class="panel light" aria-labelledby="seats-title">
        <h2 id="seats-title">{t("lobby.seats")}</h2>
        <ol class="seat-list">
          {table.seats.map((seat) => {
            const mine = seat.seat === you;
            return (
              <li key={seat.seat} class={`${seat.open ? "open" : ""}${mine ? " mine" : ""}`}>
                <span class="seat-number">{seat.seat + 1}</span>
                <span class="seat-who">
                  {seat.open ? (
                    <span class="muted">{t("lobby.open_seat")}</span>
                  ) : (
                    // A new tab, so that the lobby stays where it is.
                    <PlayerName name={seat.name ?? ""} player={seat.player ?? null} newTab />
                  )}
                  {!seat.open && <MarkTag mark={seat.mark} />}
                  {!seat.open && <RatingTag rating={seat.rating} />}
                  <FinishesTag finished={seat.finished} left={seat.left} />
                  {table.host === seat.seat && <span class="tag host">★ {t("lobby.host")}</span>}
                  {mine && <span class="tag">{t("lobby.you")}</span>}
                  {seat.bot && <BotTag level={seat.bot_level} />}
                  {!seat.open && !seat.bot && !seat.connected && <span class="tag warn">{t("lobby.offline")}</span>}
                  {!seat.open && !seat.bot && !mine && <PersonButton name={seat.name ?? ""} player={seat.player} />}
                </span>
                <span class="seat-actions">
                  {seat.open && !mine && (valid !== null || you !== null) && (
                    <button type="button" class="btn small secondary" disabled={busy} onClick={() => sitAt(seat.seat, name.trim())}>
                      {t("lobby.sit_here")}
                    </button>
                  )}
                  {isHost && seat.open && (
                    <button type="button" class="btn small" disabled={busy} onClick={() => setBot(seat.seat, true)}>
                      {t("lobby.add_bot")}
                    </button>
                  )}
                  {isHost && seat.bot && (
                    <button type="button" class="btn small secondary" disabled={busy} onClick={() => setBot(seat.seat, false)}>
                      {t("lobby.remove_bot")}
                    </button>
                  )}
                  {isHost && !seat.open && !seat.bot && !mine && (
                    <button type="button" class="btn small danger" disabled={busy} onClick={() => kick(seat.seat)}>
                      {t("lobby.kick")}
                    </button>
                  )}
                </span>
              </li>
            );
          })}
        </ol>

        {you === null && (
          <div class="join-box">
            {openSeats > 0 ? (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  if (valid !== null) void joinTable(valid);
                }}
              >
                <h3>{t("lobby.join_title")}</h3>
                <label for="join-name">{t("landing.your_name")}</label>
                <div class="copy-row">
                  <input
                    id="join-name"
                    value={name}
                    autoComplete="nickname"
                    placeholder={t("landing.name_placeholder")}
                    onInput={(e) => setName(e.currentTarget.value)}
                  />
                  <button type="submit" class="btn" disabled={valid === null || busy}>
                    {t("lobby.join_button")}
                  </button>
                </div>
                <p class="muted">{t("lobby.not_seated")}</p>
              </form>
            ) : (
              <p>{t("lobby.full")}</p>
            )}
          </div>
        )}

        <div class="lobby-actions">
          {isHost && openSeats > 0 && (
            <button type="button" class="btn secondary" disabled={busy} onClick={() => fillWithBots()}>
              {t("lobby.fill_bots")}
            </button>
          )}
          {isHost && (
            <button type="button" class="btn primary-big" disabled={busy || openSeats > 0} onClick={() => startMatch()}>
              {t("lobby.start")}
            </button>
          )}
          {!isHost && you !== null && (
            <p class="muted">{table.host === null ? t("lobby.no_host") : t("lobby.waiting_host")}</p>
          )}
          {isHost && openSeats > 0 && <p class="muted">{t("lobby.need_players")}</p>}
          {you !== null && (
            <button type="button" class="btn secondary" disabled={busy} onClick={() => leave()}>
              {t("menu.leave")}
            </button>
          )}
        </div>
      </section>
      <ChatPanel state={state} />
    </div>
  );
}
