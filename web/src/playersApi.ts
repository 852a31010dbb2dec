// The players' HTTP API (profiles, match history, leaderboards, moving a profile to another device).
// Every call answers `{ok: true, data}` or `{ok: false, status, error}` with the server's error (a
// network failure or an answer that is not the server's JSON becomes an error of its own code).

import type { ServerError } from "./types";

/** A profile in the browser that made it (or claimed it): the secret proves it is this browser's. */
export interface ProfileKeys {
  player: string;
  secret: string;
  name: string;
}

export interface PresetRating {
  /** The conservative estimate (mu − 3·sigma), one decimal; 0 for a new player. */
  rating: number;
  mu: number;
  sigma: number;
  matches: number;
}

/** A profile's counts over its finished matches of one preset. */
export interface PresetStats {
  matches: number;
  wins: number;
  hands: number;
  points: number;
  points_per_hand: number;
  bids_won: number;
  bids_made: number;
  /** Null when the seat never won a bid. */
  average_bid: number | null;
  sets: number;
  moons_tried: number;
  moons_made: number;
  /** Hands in which the seat's side took High, Jack, Game. */
  high: number;
  jack: number;
  game: number;
}

export interface PlayerProfile {
  player: string;
  name: string;
  /** The mark that tells this person from a bot of a like name, or null: shown as sent. */
  mark?: string | null;
  bot: boolean;
  /** A bot level's profile: the level (`expert`); null for a person. */
  bot_level?: string | null;
  /** When the profile was made (seconds since the epoch). */
  since: number;
  ratings: Record<string, PresetRating>;
  stats: Record<string, PresetStats>;
  /** Matches the player finished, and left while they were played. */
  finished: number;
  left: number;
}

export interface MatchPlayer {
  seat: number;
  name: string;
  /** Null for a guest without a profile or a deleted player. */
  player: string | null;
  bot: boolean;
  /** A bot's seat: the bot's level (`expert`), shown beside its name; null for a person. */
  bot_level?: string | null;
  /** The mark that tells this person apart, shown as sent (docs/players.md), or null. */
  mark?: string | null;
}

/** A finished match as the players' API gives it (with its replay, or in a history). */
export interface MatchInfo {
  match: string;
  preset: string;
  finished_at: number;
  players: MatchPlayer[];
  sides: number[][];
  scores: number[];
  winner: number | null;
}

/** A finished match as a profile's history lists it; `seat` and `won` are the profile's. */
export interface MatchSummary extends MatchInfo {
  seat: number;
  won: boolean;
}

export interface MatchPage {
  matches: MatchSummary[];
  more: boolean;
}

export interface LeaderEntry {
  player: string;
  name: string;
  rating: number;
  matches: number;
  bot: boolean;
  /** A bot level's entry: the level; null for a person. */
  bot_level?: string | null;
  /** The mark that tells this person apart, shown as sent, or null. */
  mark?: string | null;
}

export interface TransferCode {
  code: string;
  /** Seconds the code stays valid. */
  expires_in: number;
}

/** A refusal's `retryAfter` is the server's `Retry-After` (seconds), when it said when to ask again. */
export type Answer<T> = { ok: true; data: T } | { ok: false; status: number; error: ServerError; retryAfter?: number };

/** How long a call may take before it counts as unanswered. */
const TIMEOUT_MS = 10_000;

function failure(status: number, code: string, message: string): { ok: false; status: number; error: ServerError } {
  return { ok: false, status, error: { code, args: {}, message } };
}

function serverError(value: unknown): ServerError | null {
  const error = value && typeof value === "object" ? (value as { error?: unknown }).error : null;
  if (!error || typeof error !== "object") return null;
  const { code, args, message } = error as Record<string, unknown>;
  if (typeof code !== "string") return null;
  return {
    code,
    args: args && typeof args === "object" ? (args as ServerError["args"]) : {},
    message: typeof message === "string" ? message : code,
  };
}

/** One call: JSON in and out, the secret as a bearer token; `read` checks and shapes the answer. */
export async function call<T>(
  method: string,
  path: string,
  read: (value: unknown) => T | null,
  options: { body?: unknown; secret?: string; timeoutMs?: number } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.secret) headers.Authorization = `Bearer ${options.secret}`;
  const controller = typeof AbortController === "function" ? new AbortController() : null;
  const timer = controller ? setTimeout(() => controller.abort(), options.timeoutMs ?? TIMEOUT_MS) : null;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller?.signal,
    });
  } catch {
    return failure(0, "timeout", "no answer");
  } finally {
    if (timer) clearTimeout(timer);
  }
  let value: unknown = null;
  try {
    value = await response.json();
  } catch {
    value = null;
  }
  if (!response.ok) {
    const error = serverError(value);
    const refused = error
      ? { ok: false as const, status: response.status, error }
      : failure(response.status, "internal_error", `${method} ${path}: ${response.status}`);
    const retryAfter = response.headers?.get("Retry-After")?.trim() ?? "";
    return /^\d{1,6}$/.test(retryAfter) ? { ...refused, retryAfter: Number(retryAfter) } : refused;
  }
  const data = read(value);
  return data === null ? failure(response.status, "internal_error", `${method} ${path}: unexpected answer`) : { ok: true, data };
}

// --- reading the answers ----------------------------------------------------------------------

type Rec = Record<string, unknown>;

function record(value: unknown): Rec | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Rec) : null;
}

function num(value: unknown, fallback = 0): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function readKeys(value: unknown): ProfileKeys | null {
  const v = record(value);
  const player = str(v?.player);
  const secret = str(v?.secret);
  const name = str(v?.name);
  return player && secret && name !== null ? { player, secret, name } : null;
}

function readStats(value: unknown): PresetStats | null {
  const v = record(value);
  if (!v) return null;
  return {
    matches: num(v.matches),
    wins: num(v.wins),
    hands: num(v.hands),
    points: num(v.points),
    points_per_hand: num(v.points_per_hand),
    bids_won: num(v.bids_won),
    bids_made: num(v.bids_made),
    average_bid: typeof v.average_bid === "number" && Number.isFinite(v.average_bid) ? v.average_bid : null,
    sets: num(v.sets),
    moons_tried: num(v.moons_tried),
    moons_made: num(v.moons_made),
    high: num(v.high),
    jack: num(v.jack),
    game: num(v.game),
  };
}

function readEach<T>(value: unknown, read: (item: unknown) => T | null): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, item] of Object.entries(record(value) ?? {})) {
    const got = read(item);
    if (got !== null) out[key] = got;
  }
  return out;
}

export function readProfile(value: unknown): PlayerProfile | null {
  const v = record(value);
  const player = str(v?.player);
  const name = str(v?.name);
  if (!v || !player || name === null) return null;
  return {
    player,
    name,
    bot: v.bot === true,
    bot_level: str(v.bot_level) ?? undefined,
    since: num(v.since),
    ratings: readEach(v.ratings, (item) => {
      const r = record(item);
      return r ? { rating: num(r.rating), mu: num(r.mu), sigma: num(r.sigma), matches: num(r.matches) } : null;
    }),
    stats: readEach(v.stats, readStats),
    finished: num(v.finished),
    left: num(v.left),
  };
}

function readMatch(value: unknown): MatchSummary | null {
  const v = record(value);
  const match = str(v?.match);
  if (!v || !match || !Array.isArray(v.players) || !Array.isArray(v.sides) || !Array.isArray(v.scores)) return null;
  const players: MatchPlayer[] = [];
  for (const item of v.players) {
    const p = record(item);
    if (p && typeof p.seat === "number") {
      players.push({ seat: p.seat, name: str(p.name) ?? "", player: str(p.player), bot: p.bot === true, bot_level: str(p.bot_level) ?? undefined, mark: str(p.mark) ?? undefined });
    }
  }
  return {
    match,
    preset: str(v.preset) ?? "",
    finished_at: num(v.finished_at),
    players,
    sides: v.sides.filter(Array.isArray).map((side: unknown[]) => side.filter((s): s is number => typeof s === "number")),
    scores: v.scores.map((s) => num(s)),
    winner: typeof v.winner === "number" ? v.winner : null,
    seat: num(v.seat, -1),
    won: v.won === true,
  };
}

export function readMatchPage(value: unknown): MatchPage | null {
  const v = record(value);
  if (!v || !Array.isArray(v.matches)) return null;
  return {
    matches: v.matches.map(readMatch).filter((m): m is MatchSummary => m !== null),
    more: v.more === true,
  };
}

export function readLeaders(value: unknown): LeaderEntry[] | null {
  if (!Array.isArray(value)) return null;
  const out: LeaderEntry[] = [];
  for (const item of value) {
    const v = record(item);
    const player = str(v?.player);
    if (v && player) {
      out.push({ player, name: str(v.name) ?? "", rating: num(v.rating), matches: num(v.matches), bot: v.bot === true, bot_level: str(v.bot_level) ?? undefined, mark: str(v.mark) ?? undefined });
    }
  }
  return out;
}

// --- the calls --------------------------------------------------------------------------------

const players = (id: string) => `/api/players/${encodeURIComponent(id)}`;

export function createPlayer(name: string): Promise<Answer<ProfileKeys>> {
  return call("POST", "/api/players", readKeys, { body: { name } });
}

export function getPlayer(id: string): Promise<Answer<PlayerProfile>> {
  return call("GET", players(id), readProfile);
}

export function renamePlayer(id: string, secret: string, name: string): Promise<Answer<{ name: string }>> {
  return call("PATCH", players(id), (value) => {
    const renamed = str(record(value)?.name);
    return renamed === null ? null : { name: renamed };
  }, { body: { name }, secret });
}

export function deletePlayer(id: string, secret: string): Promise<Answer<true>> {
  return call("DELETE", players(id), (value) => (record(value)?.deleted === true ? true : null), { secret });
}

export function startTransfer(id: string, secret: string): Promise<Answer<TransferCode>> {
  return call("POST", `${players(id)}/transfer`, (value) => {
    const v = record(value);
    const code = str(v?.code);
    return code ? { code, expires_in: num(v?.expires_in, 600) } : null;
  }, { secret });
}

export function claimTransfer(code: string): Promise<Answer<ProfileKeys>> {
  return call("POST", "/api/transfer", readKeys, { body: { code } });
}

/** A page of a player's finished matches, newest first; `before` is the last match of the previous page. */
export function getMatches(id: string, before: string | null = null, limit = 20): Promise<Answer<MatchPage>> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before) query.set("before", before);
  return call("GET", `${players(id)}/matches?${query}`, readMatchPage);
}

/** The best ratings of a preset, or (`withPlayer`) that player's and those of everyone who played with them. */
export function getLeaderboard(preset: string, withPlayer: string | null = null): Promise<Answer<LeaderEntry[]>> {
  const query = withPlayer ? `?${new URLSearchParams({ with: withPlayer })}` : "";
  return call("GET", `/api/leaderboard/${encodeURIComponent(preset)}${query}`, readLeaders);
}
