// The facts of every preset, asked of the server once (GET /api/presets, docs/protocol.md): table
// sizes, teams, options, the deal at each size and the points; and the limits, reactions and code
// shapes the server checks what it is sent against. The client keeps no copy of them.

import { getApp, update } from "./store";
import type { Preset } from "./types";

/** The deal at one table size. */
export interface TableFacts {
  players: number;
  without_teams: boolean;
  with_teams: boolean;
  /** Whether a new table of this size starts with teams (the server's default: partners at 4 and 6). */
  teams_default: boolean;
  /** The sides as lists of seats when played with teams, else null. */
  teams: number[][] | null;
  /** How many sides `teams` makes, else null. */
  team_count: number | null;
  deck: number;
  /** The ranks of each suit in this deck, lowest first ("2".."9", "T", "J", "Q", "K", "A"). */
  ranks: string[];
  jokers: number;
  cards_dealt: number;
  hand_size: number;
  widow: number;
  stock: number;
  sleeping: number;
  /** The cards still sleeping once the kitty the preset offers is taken (`sleeping` without one). */
  sleeping_with_kitty: number;
}

export interface PresetFacts {
  name: Preset;
  players: number[];
  team_players: number[];
  team_layout: "across" | "alternate";
  trump: "named" | "first_lead";
  bids: { min: number; max: number };
  target: number;
  /** The usual deal; `tables` says what each table size is dealt. */
  cards_dealt: number;
  hand_size: number;
  points: string[];
  point_values: Record<string, number>;
  /** What the points of a hand are worth together. */
  points_total: number;
  /** What a card of each rank (its letter) counts towards Game; the same in every preset. */
  game_values: Record<string, number>;
  /** The cards of a full pack without jokers, which the deck is cut down from. */
  pack_cards: number;
  options: {
    target: { default: number; choices: number[] };
    /** reset_score: where a moon made from below zero puts the bidding side's score. */
    shoot_the_moon: { default: boolean; bid: number; reset_score: number };
    elimination: { default: boolean; score: number };
    /** Only where the preset offers the kitty. */
    kitty?: { default: boolean; cards: number; held: number };
  };
  /** One entry per table size, smallest first. */
  tables: TableFacts[];
}

/** The lengths the server refuses beyond; text is counted in code points of its NFC form once trimmed. */
export interface ServedLimits {
  name_length: number;
  chat_length: number;
  /** The chat lines a table keeps (and a client shows). */
  chat_lines: number;
  /** The bytes of a record sent to be replayed. */
  record_bytes: number;
  /** The reasons a player may give when reporting another, and the longest line a report may add. */
  report_reasons: string[];
  report_length: number;
}

/** A code's shape: a regular expression (source text) and its length in characters. */
export interface CodeShape {
  pattern: string;
  min_length: number;
  max_length: number;
}

/** A transfer code: `length` letters of `alphabet`, shown in groups of `group` split by dashes. */
export interface TransferCodeShape {
  alphabet: string;
  length: number;
  group: number;
}

export interface PresetsFacts {
  presets: PresetFacts[];
  default_preset: Preset;
  settings: {
    max_players: number;
    turn_timer: { default: number; choices: number[] };
    bot_level: { default: string; choices: string[] };
    hints: { default: boolean };
  };
  limits: ServedLimits;
  /** The reactions a seat may show, in the order the buttons offer them. */
  reactions: string[];
  shapes: { table_code: CodeShape; player_id: CodeShape; transfer_code: TransferCodeShape };
}

/** Where the facts are: being asked for, refused or out of reach, or here. */
export type PresetsState = { status: "loading" } | { status: "failed" } | { status: "ready"; facts: PresetsFacts };

/** A preset's facts by its name, or null for a name the server does not have. */
export function presetFacts(facts: PresetsFacts, name: string): PresetFacts | null {
  return facts.presets.find((preset) => preset.name === name) ?? null;
}

/** The deal of a preset at a table size, or null where it is not played at that size. */
export function tableFacts(preset: PresetFacts, players: number): TableFacts | null {
  return preset.tables.find((table) => table.players === players) ?? null;
}

/** The table sizes a preset allows, with or without teams, smallest first. */
export function tableSizes(preset: PresetFacts): number[] {
  return preset.tables.map((table) => table.players);
}

/** The shape the client relies on; anything else counts as a failed answer. */
function looksLikeFacts(data: unknown): data is PresetsFacts {
  if (!data || typeof data !== "object") return false;
  const facts = data as Partial<PresetsFacts>;
  return (
    Array.isArray(facts.presets) &&
    facts.presets.length > 0 &&
    facts.presets.every(
      (preset) =>
        typeof preset?.name === "string" &&
        Array.isArray(preset.tables) &&
        preset.tables.length > 0 &&
        Array.isArray(preset.points) &&
        typeof preset.options?.target?.default === "number",
    ) &&
    typeof facts.default_preset === "string" &&
    facts.presets.some((preset) => preset.name === facts.default_preset) &&
    typeof facts.settings?.turn_timer?.default === "number" &&
    typeof facts.limits?.name_length === "number" &&
    typeof facts.limits.chat_length === "number" &&
    Array.isArray(facts.reactions) &&
    typeof facts.shapes?.table_code?.pattern === "string" &&
    typeof facts.shapes.player_id?.pattern === "string" &&
    typeof facts.shapes.transfer_code?.alphabet === "string"
  );
}

/** Ask the server for the facts; rejects when it cannot be reached or answers something else. */
export async function fetchPresets(get: typeof fetch): Promise<PresetsFacts> {
  const response = await get("/api/presets", { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`GET /api/presets: ${response.status}`);
  const data: unknown = await response.json();
  if (!looksLikeFacts(data)) throw new Error("GET /api/presets: not the facts");
  return data;
}

let asking: Promise<void> | null = null;

/** Ask for the facts once (again after a failure); the store says where they are. */
export function loadPresets(get: typeof fetch = (...args) => fetch(...args)): Promise<void> {
  if (getApp().presets.status === "ready") return Promise.resolve();
  if (asking) return asking;
  update({ presets: { status: "loading" } });
  asking = fetchPresets(get)
    .then(
      (facts) => update({ presets: { status: "ready", facts } }),
      () => update({ presets: { status: "failed" } }),
    )
    .finally(() => {
      asking = null;
    });
  return asking;
}
