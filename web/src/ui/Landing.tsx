import { useState } from "preact/hooks";
import { t, tk, tn } from "../i18n";
import { createTable, findGame, navigate } from "../net";
import { playNow } from "../playNow";
import { tableFacts, tableSizes, type PresetsFacts } from "../presets";
import { codeFrom } from "../routes";
import { listSessions, loadName, removeSession } from "../session";
import { update, useApp } from "../store";
import {
  botsOffered,
  chosenPreset,
  fixSettings,
  nameRequired,
  playerName,
  playNowSettings,
  savedSettings,
  saveSettings,
  teamsNote,
} from "../tableSettings";
import type { Settings } from "../types";
import { OpenTablesList } from "./OpenTables";
import { PresetsPending } from "./PresetsPending";
import { PlayersLinks } from "./players/PlayersLinks";

const MORE_KEY = "smear.more_options";

/** Whether the full form was left unfolded last time (a player who uses it keeps it at hand). */
function loadMoreOpen(): boolean {
  try {
    return localStorage.getItem(MORE_KEY) === "open";
  } catch {
    return false;
  }
}

export function Landing() {
  const app = useApp();
  const [name, setName] = useState(loadName());
  // The facts of the presets come from the server; until they are here no table can be offered.
  const facts = app.presets.status === "ready" ? app.presets.facts : null;
  const [chosen, setChosen] = useState<Settings | null>(null);
  const settings = facts ? (chosen ?? savedSettings(facts)) : null;
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState(false);
  const [nameError, setNameError] = useState(false);
  const [sessions, setSessions] = useState(listSessions());
  const [more, setMore] = useState(loadMoreOpen());
  const busy = app.pending || app.conn !== "connected";
  // "Play now" takes the bots last chosen in the form; the rest is its own.
  const quick = facts && settings ? playNowSettings(facts, settings.bot_level) : null;

  /** The name typed, or null after saying it is needed and putting the focus there. */
  const checkedName = (): string | null => {
    const valid = playerName(name);
    setNameError(valid === null);
    if (valid === null) document.getElementById("create-name")?.focus();
    return valid;
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!facts || !settings) return;
    const valid = checkedName();
    if (valid !== null) await createTable(valid, settings, chosenPreset(facts, settings.preset));
  };

  const submitFindGame = async () => {
    if (!facts || !settings) return;
    const valid = checkedName();
    if (valid !== null) await findGame(valid, settings);
  };

  const submitPlayNow = async (event: Event) => {
    event.preventDefault();
    if (!facts || !quick) return;
    const valid = checkedName();
    if (valid !== null) await playNow(valid, quick, chosenPreset(facts, quick.preset));
  };

  const toggleMore = (open: boolean) => {
    if (open === more) return;
    setMore(open);
    try {
      localStorage.setItem(MORE_KEY, open ? "open" : "closed");
    } catch {
      // not remembered
    }
  };

  const change = (patch: Partial<Settings>) => {
    if (!facts || !settings) return;
    const next = fixSettings({ ...settings, ...patch }, facts);
    setChosen(next);
    saveSettings(next);
  };

  return (
    <div class="landing">
      <header class="hero">
        <h1>
          <span class="hero-suits" aria-hidden="true">
            ♠<span class="red">♥</span>♣<span class="red">♦</span>
          </span>{" "}
          {t("app.title")}
        </h1>
        <p>{t("app.tagline")}</p>
        <p>
          <button
            type="button"
            class="link-button"
            disabled={!settings}
            onClick={() => settings && update({ howTo: settings.preset })}
          >
            {t("menu.how_to_play")}
          </button>
        </p>
        <nav class="players-links" aria-label={t("players.links")}>
          <PlayersLinks where="landing" />
        </nav>
      </header>

      <div class="landing-grid">
        {facts && settings && quick ? (
          <section class="panel light create" aria-labelledby="play-title">
            <h2 id="play-title">{t("landing.play_now.heading")}</h2>
            <form class="play-now" onSubmit={submitPlayNow} noValidate>
              <label for="create-name">{t("landing.your_name")}</label>
              <input
                id="create-name"
                value={name}
                autoComplete="nickname"
                placeholder={t("landing.name_placeholder")}
                aria-invalid={nameError}
                aria-describedby={nameError ? "name-error" : undefined}
                onInput={(e) => setName(e.currentTarget.value)}
              />
              {nameError && (
                <p id="name-error" class="field-error">
                  {nameRequired()}
                </p>
              )}
              {/* The bots of Play now and of a table created below: chosen here, in sight of both. */}
              <label for="play-bots">{t("landing.bots")}</label>
              <select
                id="play-bots"
                value={settings.bot_level}
                onChange={(e) => change({ bot_level: e.currentTarget.value })}
              >
                {botsOffered(facts).map((level) => (
                  <option key={level} value={level}>
                    {tk(`bot.${level}`)}
                  </option>
                ))}
              </select>
              <button type="submit" class="btn primary-big" disabled={busy} aria-describedby="play-now-note">
                {t("landing.play_now.button")}
              </button>
              <p id="play-now-note" class="muted small-text">
                {t("landing.play_now.note", {
                  preset: tk(`preset.${quick.preset}`),
                  level: tk(`bot.${quick.bot_level}`),
                })}
              </p>
              <button
                type="button"
                class="btn primary"
                disabled={busy}
                aria-describedby="find-game-note"
                onClick={() => void submitFindGame()}
              >
                {t("landing.find_game.button")}
              </button>
              <p id="find-game-note" class="muted small-text">
                {t("landing.find_game.note", {
                  preset: tk(`preset.${settings.preset}`),
                  players: tn("settings.players", settings.players),
                  teams: t(settings.teams ? "settings.teams" : "settings.no_teams"),
                })}
              </p>
            </form>
            {/* The summary's click toggles the fold itself, so the choice is stored at once: the
                browser's toggle event comes a task later, and a page left at once would miss it.
                The event still follows what the browser opens on its own (a word found in it). */}
            <details
              class="more-options"
              open={more}
              onToggle={(e) => toggleMore((e.currentTarget as HTMLDetailsElement).open)}
            >
              <summary
                onClick={(e) => {
                  e.preventDefault();
                  toggleMore(!more);
                }}
              >
                <strong id="create-title">{t("landing.create")}</strong>
                <span class="muted small-text">{t("landing.play_now.more")}</span>
              </summary>
              <CreateForm facts={facts} settings={settings} change={change} submit={submit} busy={busy} />
            </details>
          </section>
        ) : (
          <section class="panel light create" aria-labelledby="play-title">
            <h2 id="play-title">{t("landing.play_now.heading")}</h2>
            <PresetsPending presets={app.presets} />
          </section>
        )}

        <div class="landing-side">
          <OpenTablesList name={checkedName} busy={busy} />
          <form
            class="panel light"
            aria-labelledby="join-title"
            onSubmit={(event) => {
              event.preventDefault();
              const found = codeFrom(code);
              setCodeError(found === null);
              const watch = (event as SubmitEvent).submitter?.getAttribute("value") === "watch";
              if (found) navigate(`/t/${encodeURIComponent(found)}${watch ? "?watch=1" : ""}`);
            }}
          >
            <h2 id="join-title">{t("landing.join")}</h2>
            <label for="join-code">{t("landing.code_or_link")}</label>
            <div class="copy-row">
              <input
                id="join-code"
                value={code}
                spellcheck={false}
                autoCapitalize="off"
                aria-invalid={codeError}
                onInput={(e) => setCode(e.currentTarget.value)}
              />
              <button type="submit" class="btn" value="open">
                {t("landing.open_button")}
              </button>
            </div>
            <button type="submit" class="btn small secondary watch-btn" value="watch">
              {t("lobby.watch_button")}
            </button>
            {codeError && <p class="field-error">{t("landing.bad_code")}</p>}
          </form>

          {sessions.length > 0 && (
            <section class="panel light" aria-labelledby="tables-title">
              <h2 id="tables-title">{t("landing.your_tables")}</h2>
              <ul class="session-list">
                {sessions.slice(0, 6).map((session) => (
                  <li key={session.table}>
                    <a
                      href={`/t/${encodeURIComponent(session.table)}`}
                      onClick={(event) => {
                        event.preventDefault();
                        navigate(`/t/${encodeURIComponent(session.table)}`);
                      }}
                    >
                      {t("landing.back_to_table", { code: session.table })}
                    </a>
                    <button
                      type="button"
                      class="btn small secondary"
                      onClick={() => {
                        removeSession(session.table);
                        setSessions(listSessions());
                      }}
                    >
                      {t("landing.forget")}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * The form that creates a table, within what the server says the chosen preset allows; the name
 * is the one typed above it, for "Play now".
 */
function CreateForm({
  facts,
  settings,
  change,
  submit,
  busy,
}: {
  facts: PresetsFacts;
  settings: Settings;
  change: (patch: Partial<Settings>) => void;
  submit: (event: Event) => void;
  busy: boolean;
}) {
  const preset = chosenPreset(facts, settings.preset);
  const counts = tableSizes(preset);
  const table = tableFacts(preset, settings.players);
  const teamsPossible = !!table?.with_teams;
  const teamsRequired = !table?.without_teams;
  return (
    <form class="create-form" onSubmit={submit} aria-labelledby="create-title" noValidate>
      <fieldset>
        <legend>{t("landing.game")}</legend>
        {facts.presets.map(({ name: preset }) => (
          <label key={preset} class={`preset-option${settings.preset === preset ? " chosen" : ""}`}>
            <input
              type="radio"
              name="preset"
              value={preset}
              checked={settings.preset === preset}
              onChange={() => change({ preset })}
              aria-labelledby={`preset-${preset}`}
              aria-describedby={`preset-${preset}-desc`}
            />
            <span>
              <strong id={`preset-${preset}`}>{tk(`preset.${preset}`)}</strong>
              <span id={`preset-${preset}-desc`} class="muted small-text">
                {tk(`preset.${preset}_desc`)}
              </span>
            </span>
          </label>
        ))}
      </fieldset>

      <div class="form-row">
        <div>
          <label for="create-players">{t("landing.players")}</label>
          <select
            id="create-players"
            value={settings.players}
            onChange={(e) => change({ players: Number(e.currentTarget.value) })}
          >
            {counts.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="create-target">{t("landing.target")}</label>
          <select
            id="create-target"
            value={settings.target}
            onChange={(e) => change({ target: Number(e.currentTarget.value) })}
          >
            {preset.options.target.choices.map((n) => (
              <option key={n} value={n}>
                {t("landing.points", { n })}
              </option>
            ))}
          </select>
        </div>
      </div>

      <label class={`check${teamsPossible && !teamsRequired ? "" : " disabled"}`}>
        <input
          type="checkbox"
          checked={settings.teams}
          disabled={!teamsPossible || teamsRequired}
          onChange={(e) => change({ teams: e.currentTarget.checked })}
          aria-describedby="teams-note"
        />
        {t("landing.teams")}
      </label>
      <p id="teams-note" class="muted small-text">
        {teamsNote(preset, settings.players)}
      </p>

      <fieldset class="options">
        <legend>{t("landing.options")}</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={settings.shoot_the_moon}
            onChange={(e) => change({ shoot_the_moon: e.currentTarget.checked })}
            aria-describedby="moon-note"
          />
          {t("landing.moon")}
        </label>
        <p id="moon-note" class="muted small-text">
          {t("landing.moon_note")}
        </p>
        <label class="check">
          <input
            type="checkbox"
            checked={settings.elimination}
            onChange={(e) => change({ elimination: e.currentTarget.checked })}
            aria-describedby="elimination-note"
          />
          {t("landing.elimination")}
        </label>
        <p id="elimination-note" class="muted small-text">
          {t("landing.elimination_note")}
        </p>
        {preset.options.kitty && (
          <>
            <label class="check">
              <input
                type="checkbox"
                checked={settings.kitty}
                onChange={(e) => change({ kitty: e.currentTarget.checked })}
                aria-describedby="kitty-note"
              />
              {t("landing.kitty")}
            </label>
            <p id="kitty-note" class="muted small-text">
              {t("landing.kitty_note")}
            </p>
          </>
        )}
        <button
          type="button"
          class="link-button small-text"
          onClick={() => update({ howTo: settings.preset, howToAt: "options" })}
        >
          {t("landing.options_more")}
        </button>
      </fieldset>

      <div class="form-row">
        <div>
          <label for="create-timer">{t("landing.timer")}</label>
          <select
            id="create-timer"
            value={settings.turn_timer}
            onChange={(e) => change({ turn_timer: Number(e.currentTarget.value) })}
          >
            {facts.settings.turn_timer.choices.map((n) => (
              <option key={n} value={n}>
                {n === 0 ? t("landing.timer_off") : t("landing.seconds", { n })}
              </option>
            ))}
          </select>
        </div>
      </div>

      <label class="check">
        <input
          type="checkbox"
          checked={settings.hints}
          onChange={(e) => change({ hints: e.currentTarget.checked })}
          aria-describedby="hints-note"
        />
        {t("landing.hints")}
      </label>
      <p id="hints-note" class="muted small-text">
        {t("landing.hints_note")}
      </p>


      <button type="submit" class="btn primary-big" disabled={busy}>
        {t("landing.create_button")}
      </button>
    </form>
  );
}
