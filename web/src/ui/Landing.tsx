import { useState } from "preact/hooks";
import { t, tk } from "../i18n";
import { createTable, navigate } from "../net";
import { codeFrom } from "../routes";
import { KITTY_PRESETS, TABLE_SIZES } from "../rules";
import { listSessions, loadName, removeSession } from "../session";
import { update, useApp } from "../store";
import {
  BOTS,
  countsOf,
  DEFAULT_SETTINGS,
  fixSettings,
  playerName,
  settingsFrom,
  TARGETS,
  teamsNote,
  TIMERS,
} from "../tableSettings";
import { PRESET_NAMES, type Settings } from "../types";

function loadSettings(): Settings {
  try {
    return settingsFrom(localStorage.getItem("smear.settings"));
  } catch {
    return DEFAULT_SETTINGS;
  }
}

export function Landing() {
  const app = useApp();
  const [name, setName] = useState(loadName());
  const [settings, setSettings] = useState<Settings>(loadSettings());
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState(false);
  const [nameError, setNameError] = useState(false);
  const [sessions, setSessions] = useState(listSessions());

  const change = (patch: Partial<Settings>) => {
    const next = fixSettings({ ...settings, ...patch });
    setSettings(next);
    try {
      localStorage.setItem("smear.settings", JSON.stringify(next));
    } catch {
      // not remembered
    }
  };

  const allowed = TABLE_SIZES[settings.preset];
  const counts = countsOf(settings.preset);
  const teamsPossible = allowed.teams.includes(settings.players);
  const teamsRequired = !allowed.solo.includes(settings.players);

  const submit = async (event: Event) => {
    event.preventDefault();
    const valid = playerName(name);
    if (valid === null) {
      setNameError(true);
      document.getElementById("create-name")?.focus();
      return;
    }
    setNameError(false);
    await createTable(valid, settings);
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
          <button type="button" class="link-button" onClick={() => update({ howTo: settings.preset })}>
            {t("menu.how_to_play")}
          </button>
        </p>
      </header>

      <div class="landing-grid">
        <form class="panel light create" onSubmit={submit} aria-labelledby="create-title" noValidate>
          <h2 id="create-title">{t("landing.create")}</h2>
          <label for="create-name">{t("landing.your_name")}</label>
          <input
            id="create-name"
            value={name}
            maxLength={40}
            autoComplete="nickname"
            placeholder={t("landing.name_placeholder")}
            aria-invalid={nameError}
            aria-describedby={nameError ? "name-error" : undefined}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          {nameError && (
            <p id="name-error" class="field-error">
              {t("landing.name_required")}
            </p>
          )}

          <fieldset>
            <legend>{t("landing.game")}</legend>
            {PRESET_NAMES.map((preset) => (
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
                {TARGETS.map((n) => (
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
            {teamsNote(settings.preset, settings.players)}
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
            {KITTY_PRESETS.has(settings.preset) && (
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
                {TIMERS.map((n) => (
                  <option key={n} value={n}>
                    {n === 0 ? t("landing.timer_off") : t("landing.seconds", { n })}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="create-bots">{t("landing.bots")}</label>
              <select
                id="create-bots"
                value={settings.bot_level}
                onChange={(e) => change({ bot_level: e.currentTarget.value })}
              >
                {BOTS.map((level) => (
                  <option key={level} value={level}>
                    {tk(`bot.${level}`)}
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


          <button type="submit" class="btn primary-big" disabled={app.pending || app.conn !== "connected"}>
            {t("landing.create_button")}
          </button>
        </form>

        <div class="landing-side">
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
