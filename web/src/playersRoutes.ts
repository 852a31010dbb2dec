// The players' pages: /p/ID (a profile), /leaderboard/PRESET (?with=ID: that player and the people
// they have played with), /claim (?code=CODE: a profile brought from another device). The shapes of
// ids and codes are the server's (GET /api/presets); before they arrive, what the address holds is
// passed on and the server answers about it.

import type { CodeShape, TransferCodeShape } from "./presets";
import { fitsShape, servedFacts } from "./served";

/** The players' routes (the store's `Route` takes them in). */
export type PlayersRoute =
  | { kind: "profile"; player: string }
  /** `preset` null: /leaderboard with no game named, the server's default preset's board. */
  | { kind: "leaderboard"; preset: string | null; with: string | null }
  | { kind: "claim"; code: string };

export function isPlayerId(id: string, shape: CodeShape | null = servedFacts()?.shapes.player_id ?? null): boolean {
  return fitsShape(id, shape);
}

/** Whether a leaderboard may be of `preset`: one the server has, or any segment before it has said. */
function isPreset(preset: string): boolean {
  const facts = servedFacts();
  return facts ? facts.presets.some((known) => known.name === preset) : fitsShape(preset, null);
}

function segment(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** A players' page from an address, or null when it is none of them. */
export function playersRoute(pathname: string, search: string): PlayersRoute | null {
  const query = new URLSearchParams(search);
  const profile = /^\/p\/([^/]+)\/?$/.exec(pathname);
  if (profile) {
    const player = segment(profile[1]);
    return player !== null && isPlayerId(player) ? { kind: "profile", player } : null;
  }
  const board = /^\/leaderboard(?:\/([^/]*))?\/?$/.exec(pathname);
  if (board) {
    const preset = board[1] ? segment(board[1]) : null;
    if (board[1] && (preset === null || !isPreset(preset))) return null;
    const withId = query.get("with");
    return { kind: "leaderboard", preset, with: withId && isPlayerId(withId) ? withId : null };
  }
  if (/^\/claim\/?$/.test(pathname)) return { kind: "claim", code: (query.get("code") ?? "").slice(0, 64) };
  return null;
}

export function profilePath(player: string): string {
  return `/p/${encodeURIComponent(player)}`;
}

/** A game's leaderboard; with `preset` null, the server's default game's (/leaderboard). */
export function leaderboardPath(preset: string | null, withPlayer: string | null = null): string {
  const query = withPlayer ? `?${new URLSearchParams({ with: withPlayer })}` : "";
  return `/leaderboard${preset === null ? "" : `/${encodeURIComponent(preset)}`}${query}`;
}

export function claimPath(code: string | null = null): string {
  return code ? `/claim?${new URLSearchParams({ code })}` : "/claim";
}

/** A finished match's replay (the replay viewer's page). */
export function matchPath(match: string): string {
  return `/m/${encodeURIComponent(match)}`;
}

/**
 * A transfer code from what was typed or pasted, or from the claim link that carries it: its letters
 * in capitals, in the server's groups (spaces and dashes as typed dropped); null when it is not of the
 * server's shape. Before the shape arrives, the letters as typed, for the server to judge.
 */
export function claimCodeFrom(
  text: string,
  shape: TransferCodeShape | null = servedFacts()?.shapes.transfer_code ?? null,
): string | null {
  let value = text.trim();
  const link = /[?&]code=([^&#\s]+)/.exec(value);
  if (link) value = segment(link[1].replace(/\+/g, " ")) ?? "";
  const letters = value.replace(/[\s-]+/g, "").toUpperCase();
  if (letters.length === 0) return null;
  if (shape === null) return letters;
  if (letters.length !== shape.length || [...letters].some((letter) => !shape.alphabet.includes(letter))) return null;
  const groups: string[] = [];
  for (let start = 0; start < letters.length; start += shape.group) {
    groups.push(letters.slice(start, start + shape.group));
  }
  return groups.join("-");
}
