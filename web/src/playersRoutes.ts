// The players' pages: /p/ID (a profile), /leaderboard/PRESET (?with=ID: that player and the people
// they have played with), /claim (?code=CODE: a profile brought from another device).

/** The players' routes (the store's `Route` takes them in). */
export type PlayersRoute =
  | { kind: "profile"; player: string }
  | { kind: "leaderboard"; preset: string; with: string | null }
  | { kind: "claim"; code: string };

const PLAYER = /^[A-Za-z0-9_-]{1,64}$/;
const PRESET = /^[a-z0-9_]{1,32}$/;

/** The leaderboard shown at /leaderboard, with no game named. */
export const FIRST_BOARD = "house";

export function isPlayerId(id: string): boolean {
  return PLAYER.test(id);
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
    const preset = board[1] ? segment(board[1]) : FIRST_BOARD;
    if (preset === null || !PRESET.test(preset)) return null;
    const withId = query.get("with");
    return { kind: "leaderboard", preset, with: withId && isPlayerId(withId) ? withId : null };
  }
  if (/^\/claim\/?$/.test(pathname)) return { kind: "claim", code: (query.get("code") ?? "").slice(0, 64) };
  return null;
}

export function profilePath(player: string): string {
  return `/p/${encodeURIComponent(player)}`;
}

export function leaderboardPath(preset: string, withPlayer: string | null = null): string {
  const query = withPlayer ? `?${new URLSearchParams({ with: withPlayer })}` : "";
  return `/leaderboard/${encodeURIComponent(preset)}${query}`;
}

export function claimPath(code: string | null = null): string {
  return code ? `/claim?${new URLSearchParams({ code })}` : "/claim";
}

/** A finished match's replay (the replay viewer's page). */
export function matchPath(match: string): string {
  return `/m/${encodeURIComponent(match)}`;
}

/**
 * A transfer code from what was typed or pasted: the code (spaces dropped, letters in capitals, the
 * dash put back when left out) or the claim link that carries it; null when it is neither.
 */
export function claimCodeFrom(text: string): string | null {
  let value = text.trim();
  const link = /[?&]code=([^&#\s]+)/.exec(value);
  if (link) value = segment(link[1].replace(/\+/g, " ")) ?? "";
  value = value.replace(/\s+/g, "").toUpperCase();
  if (/^[A-Z0-9]{8}$/.test(value)) value = `${value.slice(0, 4)}-${value.slice(4)}`;
  return /^[A-Z0-9]{2,16}(?:-[A-Z0-9]{2,16})*$/.test(value) ? value : null;
}
