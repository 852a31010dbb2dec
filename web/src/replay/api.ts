// Loading a replay from the server: a finished match's (GET /api/matches/{match}/replay), or a record
// file's (POST /api/replay with the file's text as the body).

import type { ServerError } from "../types";
import { looksLikeView, type MatchInfo, type ReplayView } from "./types";

/** The largest record the server takes (1 MB). */
export const MAX_RECORD_BYTES = 1024 * 1024;

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
  if (new TextEncoder().encode(text).length > MAX_RECORD_BYTES) return { ok: false, problem: "too_large" };
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
