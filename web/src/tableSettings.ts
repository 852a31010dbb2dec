// The settings of a new table: the choices the landing page offers, kept within what each preset
// allows, and the request that creates the table.

import { t, tk, tn } from "./i18n";
import { ALTERNATE_TEAMS, KITTY_PRESETS, TABLE_SIZES } from "./rules";
import { PRESET_NAMES, type Preset, type Settings } from "./types";

export const TARGETS = [11, 21, 31, 52];
export const TIMERS = [0, 15, 30, 60];
export const BOTS = ["heuristic", "random"];

export const DEFAULT_SETTINGS: Settings = {
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

/** A player's name as typed, trimmed, or null when it is empty or longer than the server takes. */
export function playerName(typed: string): string | null {
  const trimmed = typed.trim();
  return trimmed.length >= 1 && trimmed.length <= 24 ? trimmed : null;
}

/** The table sizes a preset allows, with or without teams, smallest first. */
export function countsOf(preset: Preset): number[] {
  const allowed = TABLE_SIZES[preset];
  return [...new Set([...allowed.solo, ...allowed.teams])].sort((a, b) => a - b);
}

/**
 * Keep the settings within what the preset allows, so the server is never asked for a table it
 * refuses: a table size the preset has (the nearest one when switching presets), teams only where
 * possible and forced where required.
 */
export function fixSettings(s: Settings): Settings {
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

/** The settings remembered from the last table created (a JSON text, or null), made valid. */
export function settingsFrom(saved: string | null): Settings {
  try {
    return fixSettings({ ...DEFAULT_SETTINGS, ...(JSON.parse(saved ?? "{}") as Partial<Settings>) });
  } catch {
    return DEFAULT_SETTINGS;
  }
}

/** The line under the teams box: how this preset seats its teams at this table size. */
export function teamsNote(preset: Preset, players: number): string {
  const allowed = TABLE_SIZES[preset];
  if (allowed.teams.length === 0) return t("landing.teams_never", { n: allowed.solo.join(", ") });
  if (ALTERNATE_TEAMS.has(preset)) return t("landing.teams_alternate");
  if (!allowed.solo.includes(players)) return t("landing.teams_required", { n: players });
  return t("landing.teams_possible", { counts: allowed.teams.join(", ") });
}

/**
 * The `create_table` request: the kitty is asked for only where the preset offers it (the server
 * refuses it elsewhere).
 */
export function createTablePayload(name: string, settings: Settings): Record<string, unknown> {
  const { kitty, ...rest } = settings;
  const payload: Record<string, unknown> = { name, ...rest };
  if (KITTY_PRESETS.has(settings.preset)) payload.kitty = kitty;
  return payload;
}

/** A table's settings as the lobby lists them, each with its class (the preset, an option on). */
export function settingsChips(s: Settings): { text: string; kind?: string }[] {
  const chips: { text: string; kind?: string }[] = [
    { text: tk(`preset.${s.preset}`), kind: "preset" },
    { text: tn("settings.players", s.players) },
    { text: s.teams ? t("settings.teams") : t("settings.no_teams") },
    { text: t("settings.target", { n: s.target }) },
  ];
  if (s.shoot_the_moon) chips.push({ text: t("settings.moon"), kind: "option moon" });
  if (s.elimination) chips.push({ text: t("settings.elimination"), kind: "option elimination" });
  if (s.kitty) chips.push({ text: t("settings.kitty"), kind: "option kitty" });
  chips.push(
    { text: s.turn_timer ? t("settings.timer", { n: s.turn_timer }) : t("settings.no_timer") },
    { text: t("settings.bots", { level: tk(`bot.${s.bot_level}`) }) },
    { text: s.hints ? t("settings.hints") : t("settings.no_hints") },
  );
  return chips;
}
