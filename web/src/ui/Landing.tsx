import { useState } from "preact/hooks";
import { t, tk } from "../i18n";
import { createTable, isTableCode, navigate } from "../net";
import { ALTERNATE_TEAMS, KITTY_PRESETS, TABLE_SIZES } from "../rules";
import { listSessions, loadName, removeSession } from "../session";
import { update, useApp } from "../store";
import { PRESET_NAMES, type Preset, type Settings } from "../types";

const TARGETS = [11, 21, 31, 52];
const TIMERS = [0, 15, 30, 60];
const BOTS = ["heuristic", "random"];

const DEFAULTS: Settings = {
  preset: "house",
  players: 4,
  teams: false,
  target: 21,
  turn_timer: 0,
  bot_level: "heuristic",
  hints: true,
  shoot_the_moon: false,
  elimination: false,
  kitty: false,
};

function loadSettings(): Settings {
  try {
    const saved = JSON.parse(localStorage.getItem("smear.settings") ?? "{}") as Partial<Settings>;
    return fixSettings({ ...DEFAULTS, ...saved });
  } catch {
    return DEFAULTS;
  }
}

/** The table sizes a preset allows, with or without teams, smallest first. */
function countsOf(preset: Preset): number[] {
  const allowed = TABLE_SIZES[preset];
  return [...new Set([...allowed.solo, ...allowed.teams])].sort((a, b) => a - b);
}

/**
 * Keep the settings within what the preset allows, so the server is never asked for a table it
 * refuses: a table size the preset has (the nearest one when switching presets), teams only where
 * possible and forced where required.
 */
function fixSettings(s: Settings): Settings {
  const preset = PRESET_NAMES.includes(s.preset) ? s.preset : "house";
  const allowed = TABLE_SIZES[preset];
  const counts = countsOf(preset);
  const wanted = typeof s.players === "number" ? s.players : 4;
  const players = counts.includes(wanted)
    ? wanted
    : counts.reduce((best, n) => (Math.abs(n - wanted) < Math.abs(best - wanted) ? n : best), counts[0]);
  let teams = !!s.teams;
  if (!allowed.teams.includes(players)) teams = false;
  if (!allowed.solo.includes(players)) teams = true;
  return {
    preset,
    players,
    teams,
    target: TARGETS.includes(s.target) ? s.target : 21,
    turn_timer: TIMERS.includes(s.turn_timer) ? s.turn_timer : 0,
    bot_level: BOTS.includes(s.bot_level) ? s.bot_level : "heuristic",
    hints: typeof s.hints === "boolean" ? s.hints : true,
    shoot_the_moon: s.shoot_the_moon === true,
    elimination: s.elimination === true,
    // Kept while another preset is chosen, so it is still ticked on coming back; sent only where offered.
    kitty: s.kitty === true,
  };
}

/** The line under the teams box: how this preset seats its teams at this table size. */
function teamsNote(preset: Preset, players: number): string {
  const allowed = TABLE_SIZES[preset];
  if (allowed.teams.length === 0) return t("landing.teams_never", { n: allowed.solo.join(", ") });
  if (ALTERNATE_TEAMS.has(preset)) return t("landing.teams_alternate");
  if (!allowed.solo.includes(players)) return t("landing.teams_required", { n: players });
  return t("landing.teams_possible", { counts: allowed.teams.join(", ") });
}

/** A table code from what was typed: the code itself or an invite link. */
function codeFrom(text: string): string | null {
  const value = text.trim();
  if (isTableCode(value)) return value;
  const match = /\/t\/([A-Za-z0-9_-]{8,32})(?:[/?#]|$)/.exec(value);
  return match ? match[1] : null;
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
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > 24) {
      setNameError(true);
      document.getElementById("create-name")?.focus();
      return;
    }
    setNameError(false);
    await createTable(trimmed, settings);
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
