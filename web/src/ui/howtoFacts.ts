// The parts of a "How to play" page drawn from the server's facts of a preset (GET /api/presets):
// the deal at each table size, the points, and the numbers the prose names ({min_bid}...). The
// pages themselves (howto/*.ts) hold only words.

import { rankLabel, RANKS, type Rank } from "../cards";
import { currentLang, pointName, t, tk } from "../i18n";
import type { PresetFacts, TableFacts } from "../presets";
import type { Preset } from "../types";

/** A table of facts: a header row and the rows under it, the first cell of each a row header. */
export interface FactTable {
  head: string[];
  rows: string[][];
}

/** The ranks of a suit as runs: "8–A", "2, 9–A", "2–A". */
export function rankRuns(ranks: string[]): string {
  const order = ranks.map((rank) => RANKS.indexOf(rank as Rank)).filter((i) => i >= 0);
  const runs: string[] = [];
  let start = 0;
  for (let i = 1; i <= order.length; i++) {
    if (i === order.length || order[i] !== order[i - 1] + 1) {
      const low = rankLabel(RANKS[order[start]]);
      const high = rankLabel(RANKS[order[i - 1]]);
      runs.push(start === i - 1 ? low : `${low}–${high}`);
      start = i;
    }
  }
  return runs.join(", ");
}

function teamsCell(table: TableFacts): string {
  if (table.with_teams && table.without_teams) return t("howto.teams_either");
  return t(table.with_teams ? "howto.teams_only" : "howto.teams_none");
}

/**
 * The deal at every table size the preset allows: players, teams, the deck, what each player is
 * dealt and keeps, and where the other cards go. A column that would be zero everywhere is left out.
 */
export function dealTable(preset: PresetFacts): FactTable {
  const tables = preset.tables;
  const columns: [string, (table: TableFacts) => string][] = [
    [t("howto.col_players"), (table) => String(table.players)],
    [t("howto.col_teams"), teamsCell],
    [t("howto.col_ranks"), (table) => rankRuns(table.ranks)],
    [t("howto.col_jokers"), (table) => String(table.jokers)],
    [t("howto.col_deck"), (table) => String(table.deck)],
    [t("howto.col_dealt"), (table) => String(table.cards_dealt)],
  ];
  if (tables.some((table) => table.cards_dealt !== table.hand_size)) {
    columns.push([t("howto.col_kept"), (table) => String(table.hand_size)]);
  }
  const counts: [keyof TableFacts, string][] = [
    ["widow", t("howto.col_widow")],
    ["stock", t("howto.col_stock")],
    ["sleeping", t("howto.col_sleeping")],
  ];
  for (const [field, head] of counts) {
    if (tables.some((table) => Number(table[field]) > 0)) columns.push([head, (table) => String(table[field])]);
  }
  return {
    head: columns.map(([head]) => head),
    rows: tables.map((table) => columns.map(([, cell]) => cell(table))),
  };
}

/** The points of a hand and what each is worth, with their total. */
export function pointsTable(preset: PresetFacts): FactTable {
  const oneJoker = preset.tables.every((table) => table.jokers === 1);
  const rows = preset.points.map((point) => [pointName(point, oneJoker), String(preset.point_values[point] ?? 0)]);
  const total = [t("howto.points_total"), String(preset.points_total)];
  return { head: [t("howto.col_point"), t("howto.col_worth")], rows: [...rows, total] };
}

/** Numbers as the language lists choices: "11, 21, 31, or 52". */
function choiceList(numbers: number[]): string {
  return new Intl.ListFormat(currentLang(), { type: "disjunction" }).format(numbers.map(String));
}

/** Numbers as the language lists them together: "1, 3, and 5". */
function allList(numbers: number[]): string {
  return new Intl.ListFormat(currentLang(), { type: "conjunction" }).format(numbers.map(String));
}

/** The value of a field when it is the same at every table size in `tables`, else undefined. */
function sameAt(
  tables: TableFacts[],
  field: "sleeping" | "cards_dealt" | "team_count" | "sleeping_with_kitty",
): number | undefined {
  const first = tables[0]?.[field];
  return first != null && tables.every((table) => table[field] === first) ? first : undefined;
}

/** The table sizes, as a language lists choices, of the tables that pass `keep`. */
function sizesWhere(preset: PresetFacts, keep: (table: TableFacts) => boolean): string {
  return choiceList(preset.tables.filter(keep).map((table) => table.players));
}

/**
 * The numbers of the pages that are not one figure of the preset: Game's card values, the full pack,
 * the table sizes, the sleeping cards at odd and even sizes, the deal at the smallest and largest
 * table, and the seats of each team at a team table (numbered from 1).
 */
function tableValues(preset: PresetFacts): Record<string, string | number> {
  const game = preset.game_values;
  const sizes = preset.tables.map((table) => table.players);
  const values: Record<string, string | number> = {
    pack_cards: preset.pack_cards,
    game_ten: game.T,
    game_ace: game.A,
    game_king: game.K,
    game_queen: game.Q,
    game_jack: game.J,
    game_other: game["2"],
    min_players: sizes[0],
    max_players: sizes[sizes.length - 1],
    alone_min: preset.players[0] ?? "",
    alone_max: preset.players[preset.players.length - 1] ?? "",
    team_players: choiceList(preset.team_players),
    alone_players: choiceList(preset.players),
    table_sizes: choiceList(sizes),
    teams_only: allList(preset.tables.filter((t) => t.with_teams && !t.without_teams).map((t) => t.players)),
    alone_only: sizesWhere(preset, (table) => table.without_teams && !table.with_teams),
    teams_either: sizesWhere(preset, (table) => table.without_teams && table.with_teams),
    dealt_at_min: preset.tables[0].cards_dealt,
    dealt_at_max: preset.tables[preset.tables.length - 1].cards_dealt,
  };
  const odd = sameAt(preset.tables.filter((table) => table.players % 2 === 1), "sleeping");
  const even = sameAt(preset.tables.filter((table) => table.players % 2 === 0), "sleeping");
  if (odd !== undefined) values.sleeping_odd = odd;
  if (even !== undefined) values.sleeping_even = even;
  const teamCount = sameAt(preset.tables.filter((table) => table.teams), "team_count");
  if (teamCount !== undefined) values.team_count = teamCount;
  const kittySleeping = sameAt(preset.tables, "sleeping_with_kitty");
  if (preset.options.kitty && kittySleeping !== undefined) values.kitty_sleeping = kittySleeping;
  // The example of seating: the team table in the middle of those the preset allows.
  const teamTables = preset.tables.filter((table) => table.teams);
  const example = teamTables[Math.floor(teamTables.length / 2)];
  if (example?.teams) {
    values.team_example_players = example.players;
    values.team_seats_a = allList(example.teams[0].map((seat) => seat + 1));
    values.team_seats_b = allList(example.teams[1].map((seat) => seat + 1));
  }
  return values;
}

// The points and ranks the pages name, and the presets they refer to, put in words by the language.
const POINT_NAMES = ["high", "low", "jack", "jick", "big_joker", "little_joker", "joker", "game", "trey", "two", "ten"];
const NAMED_RANKS: Rank[] = ["2", "3", "9", "T"];
const REFERRED_PRESETS: Preset[] = ["ten_point"];

/** The names the prose may use as {point_two}, {rank_T}, {preset_ten_point}: the language's words. */
function names(): Record<string, string> {
  const values: Record<string, string> = {};
  for (const point of POINT_NAMES) values[`point_${point}`] = pointName(point);
  for (const rank of NAMED_RANKS) values[`rank_${rank}`] = rankName(rank);
  for (const preset of REFERRED_PRESETS) values[`preset_${preset}`] = tk(`preset.${preset}`);
  return values;
}

/** A rank in words ("ten"), as the card names of the language write it. */
function rankName(rank: Rank): string {
  return tk(`rank.${rank}`);
}

/** The numbers the prose may name, by placeholder. */
export function factValues(preset: PresetFacts): Record<string, string | number> {
  const target = preset.options.target;
  const values: Record<string, string | number> = {
    ...names(),
    min_bid: preset.bids.min,
    max_bid: preset.bids.max,
    moon_bid: preset.options.shoot_the_moon.bid,
    moon_reset: preset.options.shoot_the_moon.reset_score,
    usual_dealt: preset.cards_dealt,
    hand_size: preset.hand_size,
    target: target.default,
    targets: choiceList(target.choices),
    other_targets: choiceList(target.choices.filter((n) => n !== target.default)),
    elimination: `\u2212${Math.abs(preset.options.elimination.score)}`,
    points: preset.points_total,
  };
  if (preset.options.kitty) {
    values.kitty = preset.options.kitty.cards;
    values.kitty_held = preset.options.kitty.held;
  }
  Object.assign(values, tableValues(preset));
  const first = preset.tables[0];
  // Numbers the same at every table size of the preset.
  for (const field of ["cards_dealt", "widow", "stock", "sleeping", "deck", "jokers"] as const) {
    if (preset.tables.every((table) => table[field] === first[field])) values[field] = first[field];
  }
  return values;
}

/** The prose with its {placeholders} filled from the facts (an unknown one stays as it is). */
export function fillFacts(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

