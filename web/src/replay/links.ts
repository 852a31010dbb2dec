// The addresses of the replay pages: /m/{match} (a finished match, `?hand=&step=` for a place in it)
// and /replay (open a record file). Other pages (a profile's match list) link here.

import { searchWithPosition, type Position } from "./steps";

const MATCH_ID = /^[A-Za-z0-9_-]{4,64}$/;

export function isMatchId(match: string): boolean {
  return MATCH_ID.test(match);
}

/** The replay page of a finished match, at a given place in it if one is given. */
export function matchReplayPath(match: string, position?: Position): string {
  const path = `/m/${encodeURIComponent(match)}`;
  return position ? path + searchWithPosition("", position) : path;
}

/** The page that opens a record file. */
export const REPLAY_UPLOAD_PATH = "/replay";

/** The `smear-record/1` of a finished match, for download. */
export function matchRecordUrl(match: string): string {
  return `/api/matches/${encodeURIComponent(match)}`;
}

/** The replay route an address shows: a match's (`match`), the record upload page (`null`), or none. */
export function replayRouteOf(pathname: string): { match: string | null } | null {
  if (/^\/replay\/?$/.test(pathname)) return { match: null };
  const found = /^\/m\/([^/]+)\/?$/.exec(pathname);
  if (!found) return null;
  let match: string;
  try {
    match = decodeURIComponent(found[1]);
  } catch {
    return null;
  }
  return isMatchId(match) ? { match } : null;
}
