// Addresses: a table's page is /t/CODE (with ?watch=1 to follow it as a spectator), the rest is the landing page.

import type { Route } from "./store";
import { replayRouteOf } from "./replay/links";
import { playersRoute } from "./playersRoutes";

const CODE = /^[A-Za-z0-9_-]{8,32}$/;

export function isTableCode(code: string): boolean {
  return CODE.test(code);
}

/** The page an address shows, from its path and query string. */
export function routeOf(pathname: string, search: string): Route {
  const match = /^\/t\/([^/]+)\/?$/.exec(pathname);
  if (match) {
    const code = decodeURIComponent(match[1]);
    if (isTableCode(code)) {
      return { kind: "table", code, watch: new URLSearchParams(search).get("watch") === "1" };
    }
  }
  const replay = replayRouteOf(pathname);
  if (replay) return { kind: "replay", match: replay.match };
  const players = playersRoute(pathname, search);
  if (players) return players;
  return { kind: "landing" };
}

/** A table code from what was typed: the code itself or an invite link. */
export function codeFrom(text: string): string | null {
  const value = text.trim();
  if (isTableCode(value)) return value;
  const match = /\/t\/([A-Za-z0-9_-]{8,32})(?:[/?#]|$)/.exec(value);
  return match ? match[1] : null;
}
