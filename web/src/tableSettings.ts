// The settings of a new table: the choices the landing page offers, kept within what the server
// says each preset allows (GET /api/presets), and the request that creates the table.

import { currentLang, t, tk, tn } from "./i18n";
import { presetFacts, tableFacts, tableSizes, type PresetFacts, type PresetsFacts } from "./presets";
import { servedLimits, withinLength } from "./served";
import type { Settings } from "./types";

/**
 * The bots the landing page offers, among those the server has, weakest first: three levels named
 * for players (Beginner, Normal, Expert). A choice of this page, not a rule: the server also has
 * a random player, no longer offered.
 */
export const OFFERED_BOTS = ["beginner", "heuristic", "expert"];

/** Levels once offered, and the one offered in their place when remembered from back then. */
const REPLACED_BOTS: Record<string, string> = { random: "beginner" };

/** The table size the landing page starts from, moved to the nearest one a preset allows. */
const FIRST_TABLE_SIZE = 4;

/**
 * A player's name as typed, trimmed, or null when it is empty or longer than the server takes
 * (`most`: its served limit, counted as it counts; null before the facts arrive, when the server
 * alone judges the length).
 */
export function playerName(typed: string, most: number | null = servedLimits()?.name_length ?? null): string | null {
  return withinLength(typed, most);
}

/** What to say of a name the server would not take: how long one may be, once that is known. */
export function nameRequired(most: number | null = servedLimits()?.name_length ?? null): string {
  return most === null ? t("landing.name_missing") : t("landing.name_required", { max: most });
}

/** The bots offered that the server has, in the page's order. */
export function botsOffered(facts: PresetsFacts): string[] {
  return OFFERED_BOTS.filter((bot) => facts.settings.bot_level.choices.includes(bot));
}

/** The preset a setting names, or the server's default preset for a name it does not have. */
export function chosenPreset(facts: PresetsFacts, name: string): PresetFacts {
  return presetFacts(facts, name) ?? (presetFacts(facts, facts.default_preset) as PresetFacts);
}

/** A table of a preset with the server's defaults for everything else (teams as the server starts that size). */
function presetDefaults(facts: PresetsFacts, preset: PresetFacts, botLevel: string): Settings {
  return fixSettings(
    {
      preset: preset.name,
      players: FIRST_TABLE_SIZE,
      teams: tableFacts(preset, FIRST_TABLE_SIZE)?.teams_default ?? false,
      target: preset.options.target.default,
      turn_timer: facts.settings.turn_timer.default,
      bot_level: botLevel,
      hints: facts.settings.hints.default,
      shoot_the_moon: preset.options.shoot_the_moon.default,
      elimination: preset.options.elimination.default,
      kitty: preset.options.kitty?.default ?? false,
    },
    facts,
  );
}

/** A new table's settings with the server's defaults. */
export function defaultSettings(facts: PresetsFacts): Settings {
  return presetDefaults(facts, chosenPreset(facts, facts.default_preset), facts.settings.bot_level.default);
}

/**
 * The table "Play now" creates: the server's default preset with its defaults at a table of four
 * (in teams as the server starts that size), with the bots last chosen on the page.
 */
export function playNowSettings(facts: PresetsFacts, botLevel: string): Settings {
  return presetDefaults(facts, chosenPreset(facts, facts.default_preset), botLevel);
}

/**
 * Keep the settings within what the preset allows, so the server is never asked for a table it
 * refuses: a table size the preset has (the nearest one when switching presets, the smaller on a
 * tie), teams only where possible and forced where required, choices the server offers.
 */
export function fixSettings(s: Settings, facts: PresetsFacts): Settings {
  const preset = chosenPreset(facts, s.preset);
  const counts = tableSizes(preset);
  const wanted = typeof s.players === "number" ? s.players : FIRST_TABLE_SIZE;
  const players = counts.includes(wanted)
    ? wanted
    : counts.reduce((best, n) => (Math.abs(n - wanted) < Math.abs(best - wanted) ? n : best), counts[0]);
  const table = tableFacts(preset, players) as NonNullable<ReturnType<typeof tableFacts>>;
  let teams = !!s.teams;
  if (!table.with_teams) teams = false;
  if (!table.without_teams) teams = true;
  const bots = botsOffered(facts);
  const timers = facts.settings.turn_timer.choices;
  return {
    preset: preset.name,
    players,
    teams,
    target: preset.options.target.choices.includes(s.target) ? s.target : preset.options.target.default,
    turn_timer: timers.includes(s.turn_timer) ? s.turn_timer : facts.settings.turn_timer.default,
    bot_level: offeredLevel(s.bot_level, bots, facts.settings.bot_level.default),
    hints: typeof s.hints === "boolean" ? s.hints : facts.settings.hints.default,
    shoot_the_moon: s.shoot_the_moon === true,
    elimination: s.elimination === true,
    // Kept while another preset is chosen, so it is still ticked on coming back; sent only where offered.
    kitty: s.kitty === true,
  };
}

/**
 * The level asked for if the page offers it, else the one offered in its place, else the server's
 * default level, else the first offered.
 */
function offeredLevel(level: string, offered: string[], serverDefault: string): string {
  for (const choice of [level, REPLACED_BOTS[level], serverDefault]) {
    if (choice !== undefined && offered.includes(choice)) return choice;
  }
  return offered[0] ?? serverDefault;
}

/** The settings remembered from the last table created (a JSON text, or null), made valid. */
export function settingsFrom(saved: string | null, facts: PresetsFacts): Settings {
  const defaults = defaultSettings(facts);
  try {
    return fixSettings({ ...defaults, ...(JSON.parse(saved ?? "{}") as Partial<Settings>) }, facts);
  } catch {
    return defaults;
  }
}

const SETTINGS_KEY = "smear.settings";

/** The settings this browser chose last (on the landing page's form), made valid. */
export function savedSettings(facts: PresetsFacts): Settings {
  try {
    return settingsFrom(localStorage.getItem(SETTINGS_KEY), facts);
  } catch {
    return defaultSettings(facts);
  }
}

/** Remembers the form's settings for the next visit (and for "How to play" in the menu). */
export function saveSettings(settings: Settings): void {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // not remembered
  }
}

/** Seat numbers as people count them (from 1), in the language's own list: "1, 3 and 5". */
function seatList(seats: number[]): string {
  return new Intl.ListFormat(currentLang(), { type: "conjunction" }).format(seats.map((seat) => String(seat + 1)));
}

/** The line under the teams box: how this preset seats its teams at this table size. */
export function teamsNote(preset: PresetFacts, players: number): string {
  if (preset.team_players.length === 0) return t("landing.teams_never", { n: preset.players.join(", ") });
  const sides = tableFacts(preset, players)?.teams;
  if (preset.team_layout === "alternate" && sides && sides.length === 2) {
    return t("landing.teams_alternate", { first: seatList(sides[0]), second: seatList(sides[1]) });
  }
  if (!preset.players.includes(players)) return t("landing.teams_required", { n: players });
  return t("landing.teams_possible", { counts: preset.team_players.join(", ") });
}

/**
 * The `create_table` request: the kitty is asked for only where the preset offers it (the server
 * refuses it elsewhere); the player's profile, when there is one, links the host's seat to it.
 */
export function createTablePayload(
  name: string,
  settings: Settings,
  preset: PresetFacts,
  profile: { player: string; secret: string } | null = null,
): Record<string, unknown> {
  const { kitty, ...rest } = settings;
  const payload: Record<string, unknown> = { name, ...rest };
  if (preset.options.kitty) payload.kitty = kitty;
  if (profile) payload.profile = { player: profile.player, secret: profile.secret };
  return payload;
}

/** The `find_game` request: the game chosen (preset, players, teams), with the profile when there is one. */
export function findGamePayload(
  name: string,
  settings: Settings,
  profile: { player: string; secret: string } | null = null,
): Record<string, unknown> {
  const payload: Record<string, unknown> = { name, preset: settings.preset, players: settings.players, teams: settings.teams };
  if (profile) payload.profile = { player: profile.player, secret: profile.secret };
  return payload;
}

/** The `join_table` request, with the player's profile when there is one. */
export function joinPayload(
  table: string,
  name: string,
  profile: { player: string; secret: string } | null = null,
): Record<string, unknown> {
  return profile ? { table, name, profile: { player: profile.player, secret: profile.secret } } : { table, name };
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
