// What the players' pages show, put into words and numbers of the reader's language, with no DOM:
// ratings, a preset's statistics, a match of the history from its player's side.

import { currentLang, pointName, scoreText, t, tk, tn } from "./i18n";
import type { MatchPlayer, MatchSummary, PlayerProfile, PresetStats } from "./playersApi";

/** Shown where there is no number to give (no bid won, no hand played). */
export const NO_VALUE = "—";

function decimals(n: number, digits: number): string {
  return new Intl.NumberFormat(currentLang(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/** A rating with its one decimal: "4.2", "4,2", "−1.5". */
export function ratingText(rating: number): string {
  // The server sends the shown rating, a whole number from 0 (see docs/players.md); written as sent.
  return new Intl.NumberFormat(currentLang(), { maximumFractionDigits: 0, useGrouping: false }).format(rating);
}

/** `part` of `whole` as a whole percentage in the language's way ("44%", "44 %"), or a dash for none. */
export function percentText(part: number, whole: number): string {
  if (whole <= 0) return NO_VALUE;
  return new Intl.NumberFormat(currentLang(), { style: "percent", maximumFractionDigits: 0 }).format(part / whole);
}

/** A date and time of the reader's language: "Dec 2, 2025, 2:13 PM". */
export function dateTimeText(seconds: number): string {
  return new Intl.DateTimeFormat(currentLang(), { dateStyle: "medium", timeStyle: "short" }).format(seconds * 1000);
}

/** A day of the reader's language: "December 2, 2025". */
export function dateText(seconds: number): string {
  return new Intl.DateTimeFormat(currentLang(), { dateStyle: "long" }).format(seconds * 1000);
}

/** A time of day of the reader's language: "2:23 PM". */
export function timeText(ms: number): string {
  return new Intl.DateTimeFormat(currentLang(), { timeStyle: "short" }).format(ms);
}

export interface StatRow {
  label: string;
  value: string;
}

/** A preset's statistics as the rows of its table. */
export function statRows(stats: PresetStats): StatRow[] {
  const ratio = (a: number, b: number) => `${a} / ${b}`;
  return [
    { label: t("stats.matches"), value: String(stats.matches) },
    { label: t("stats.wins"), value: `${stats.wins} (${percentText(stats.wins, stats.matches)})` },
    { label: t("stats.hands"), value: String(stats.hands) },
    { label: t("stats.points_per_hand"), value: stats.hands > 0 ? decimals(stats.points_per_hand, 2) : NO_VALUE },
    { label: t("stats.bids"), value: ratio(stats.bids_won, stats.bids_made) },
    { label: t("stats.average_bid"), value: stats.average_bid === null ? NO_VALUE : decimals(stats.average_bid, 1) },
    { label: t("stats.sets"), value: String(stats.sets) },
    { label: t("stats.moons"), value: ratio(stats.moons_tried, stats.moons_made) },
    ...(["high", "jack", "game"] as const).map((point) => ({
      label: t("stats.point_hands", { point: pointName(point) }),
      value: percentText(stats[point], stats.hands),
    })),
  ];
}

/**
 * The presets a profile has played (a bot: every preset it has a rating in, its fixed one), in the
 * order the server lists its presets (unknown ones last).
 */
export function playedPresets(profile: PlayerProfile, order: string[]): string[] {
  const played = new Set([...Object.keys(profile.ratings), ...Object.keys(profile.stats)]);
  const rank = (preset: string) => {
    const at = order.indexOf(preset);
    return at < 0 ? order.length : at;
  };
  return [...played]
    .filter(
      (preset) =>
        (profile.bot && preset in profile.ratings) ||
        (profile.stats[preset]?.matches ?? 0) > 0 ||
        (profile.ratings[preset]?.matches ?? 0) > 0,
    )
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** "3 matches" */
export function matchesText(n: number): string {
  return tn("profile.matches", n);
}

export interface MatchView {
  /** The other players of the profile's side, and everyone else. */
  partners: MatchPlayer[];
  opponents: MatchPlayer[];
  won: boolean;
  /** The final scores, the profile's side first: "21 – 14", "−3 – 21 – 11". */
  score: string;
}

/** A match of the history as its profile lived it. */
export function matchView(match: MatchSummary): MatchView {
  const mine = match.sides.findIndex((side) => side.includes(match.seat));
  const bySeat = [...match.players].sort((a, b) => a.seat - b.seat);
  const partners = bySeat.filter((p) => p.seat !== match.seat && mine >= 0 && match.sides[mine].includes(p.seat));
  const opponents = bySeat.filter((p) => p.seat !== match.seat && !partners.includes(p));
  const order = mine >= 0 ? [mine, ...match.sides.map((_, i) => i).filter((i) => i !== mine)] : match.sides.map((_, i) => i);
  const score = order
    .filter((side) => typeof match.scores[side] === "number")
    .map((side) => scoreText(match.scores[side]))
    .join(" \u2013 ");
  return { partners, opponents, won: match.won, score };
}

/**
 * A bot's label from the level the server sends beside its name ("Expert bot"), the same at the
 * table, in a history, a replay and the leaderboard; a level this page has no words for is "bot".
 */
export function botLabel(level: string | null | undefined): string {
  const key = `bot_name.${level ?? ""}`;
  const word = tk(key);
  return word === key ? t("players.bot") : word;
}

/** A profile's name as shown: a bot level's profile (its `bot_level` from the server) by its label. */
export function shownName(name: string, botLevel: string | null | undefined): string {
  return botLevel ? botLabel(botLevel) : name;
}
