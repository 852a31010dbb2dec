// Loading a replay from the server: a finished match's (GET /api/matches/{match}/replay), or a record
// file's (POST /api/replay with the file's text as the body); and the expert's review of a finished
// match's decisions (GET /api/matches/{match}/review).

import { servedLimits } from "../served";
import { isAction, type ServerError } from "../types";
import {
  looksLikeView,
  type MatchInfo,
  type ReplayDecision,
  type ReplayReview,
  type ReplayReviewPlayer,
  type ReplayView,
} from "./types";

/**
 * Whether a record of `bytes` is more than this server takes (its `limits.record_bytes`, GET
 * /api/presets). While that limit has not come, no record is held back: the server judges it.
 */
export function overRecordLimit(bytes: number): boolean {
  const most = servedLimits()?.record_bytes;
  return most !== undefined && bytes > most;
}

export type ReplayLoad =
  | { ok: true; view: ReplayView; match: MatchInfo | null }
  /** The record is not valid `smear-record/1`: the server's message says where (in English). */
  | { ok: false; problem: "bad_record"; message: string }
  | { ok: false; problem: "not_found" }
  | { ok: false; problem: "too_large" }
  /** The server could not be reached, or answered something else. */
  | { ok: false; problem: "failed"; error: ServerError | null };

type Fetch = typeof fetch;

const defaultFetch: Fetch = (...args) => fetch(...args);

/** The `{"error": ...}` of an answer, if it has one. */
async function errorOf(response: Response): Promise<ServerError | null> {
  try {
    const data: unknown = await response.json();
    const error = (data as { error?: unknown } | null)?.error as Partial<ServerError> | undefined;
    if (error && typeof error.code === "string") {
      return { code: error.code, args: error.args ?? {}, message: typeof error.message === "string" ? error.message : "" };
    }
  } catch {
    // not JSON
  }
  return null;
}

async function answer(response: Response): Promise<ReplayLoad> {
  if (!response.ok) {
    const error = await errorOf(response);
    if (error?.code === "bad_record") return { ok: false, problem: "bad_record", message: error.message };
    if (response.status === 404) return { ok: false, problem: "not_found" };
    if (response.status === 413 || error?.code === "message_too_large") return { ok: false, problem: "too_large" };
    return { ok: false, problem: "failed", error };
  }
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    return { ok: false, problem: "failed", error: null };
  }
  const body = data as { view?: unknown; match?: unknown } | null;
  if (!body || !looksLikeView(body.view)) return { ok: false, problem: "failed", error: null };
  const match = body.match && typeof body.match === "object" ? (body.match as MatchInfo) : null;
  return { ok: true, view: body.view, match };
}

/** The replay of a finished match. */
export async function loadMatchReplay(match: string, get: Fetch = defaultFetch): Promise<ReplayLoad> {
  try {
    const response = await get(`/api/matches/${encodeURIComponent(match)}/replay`, {
      headers: { Accept: "application/json" },
    });
    return await answer(response);
  } catch {
    return { ok: false, problem: "failed", error: null };
  }
}

/** The replay of a record's text (a file the player opened), checked by the server. */
export async function replayRecord(text: string, post: Fetch = defaultFetch): Promise<ReplayLoad> {
  if (overRecordLimit(new TextEncoder().encode(text).length)) return { ok: false, problem: "too_large" };
  try {
    const response = await post("/api/replay", {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: text,
    });
    return await answer(response);
  } catch {
    return { ok: false, problem: "failed", error: null };
  }
}

export type ReviewLoad =
  | { ok: true; review: ReplayReview }
  /** The server's reviews are all taken (`server_busy`), or this address asked too often. */
  | { ok: false; problem: "busy" | "rate_limited" | "not_found" | "failed" };

function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function count(value: unknown): value is number {
  return finite(value) && Number.isInteger(value) && value >= 0;
}

function parseDecision(item: unknown): ReplayDecision | null {
  if (!item || typeof item !== "object") return null;
  const entry = item as Record<string, unknown>;
  const { hand, action_index: actionIndex, seat, action, best, loss } = entry;
  if (!count(hand) || !count(actionIndex) || !count(seat)) return null;
  if (!isAction(action) || !isAction(best) || !finite(loss)) return null;
  const expected = (value: unknown) => (finite(value) ? value : null);
  return {
    hand,
    actionIndex,
    seat,
    action: action.text,
    best: best.text,
    acts: { action, best },
    expectedAction: expected(entry.expected_action),
    expectedBest: expected(entry.expected_best),
    loss: Math.max(0, loss),
    error: expected(entry.error),
  };
}

function parsePlayer(item: unknown): ReplayReviewPlayer | null {
  if (!item || typeof item !== "object") return null;
  const entry = item as Record<string, unknown>;
  if (!count(entry.seat) || !count(entry.decisions) || !finite(entry.total_loss)) return null;
  return { seat: entry.seat, decisions: entry.decisions, totalLoss: Math.max(0, entry.total_loss) };
}

/** The review in the server's answer, or null when the answer is not one. Costliest first, as sent. */
export function parseReplayReview(data: unknown): ReplayReview | null {
  if (!data || typeof data !== "object") return null;
  const body = data as Record<string, unknown>;
  if (!Array.isArray(body.decisions) || !Array.isArray(body.players) || !count(body.samples)) return null;
  const decisions = body.decisions.map(parseDecision);
  const players = body.players.map(parsePlayer);
  if (decisions.some((entry) => entry === null) || players.some((entry) => entry === null)) return null;
  return {
    decisions: decisions as ReplayDecision[],
    players: players as ReplayReviewPlayer[],
    samples: body.samples,
  };
}

/** The expert's review of a finished match: its costliest decisions, each judged from its seat's view. */
export async function loadMatchReview(match: string, get: Fetch = defaultFetch): Promise<ReviewLoad> {
  try {
    const response = await get(`/api/matches/${encodeURIComponent(match)}/review`, {
      headers: { Accept: "application/json" },
    });
    if (!response.ok) {
      const error = await errorOf(response);
      if (response.status === 404) return { ok: false, problem: "not_found" };
      if (error?.code === "server_busy" || response.status === 503) return { ok: false, problem: "busy" };
      if (error?.code === "rate_limited" || response.status === 429) return { ok: false, problem: "rate_limited" };
      return { ok: false, problem: "failed" };
    }
    const review = parseReplayReview(await response.json());
    return review ? { ok: true, review } : { ok: false, problem: "failed" };
  } catch {
    return { ok: false, problem: "failed" };
  }
}
