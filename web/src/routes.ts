// Addresses: a table's page is /t/CODE (with ?watch=1 to follow it as a spectator), / the landing page,
// and an address with no page the not-found screen.

import type { Route } from "./store";
import type { CodeShape } from "./presets";
import { replayRouteOf } from "./replay/links";
import { playersRoute } from "./playersRoutes";
import { fitsShape, servedFacts } from "./served";

/**
 * Whether `code` may be a table's: of the shape the server serves, or, before its facts arrive (an
 * address read at start), any one segment, for the server to answer about.
 */
export function isTableCode(code: string, shape: CodeShape | null = servedFacts()?.shapes.table_code ?? null): boolean {
  return fitsShape(code, shape);
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
  if (/^\/practice\/?$/.test(pathname)) return { kind: "practice" };
  const players = playersRoute(pathname, search);
  if (players) return players;
  return pathname === "/" || pathname === "" ? { kind: "landing" } : { kind: "not_found" };
}

/** A table code from what was typed: the code itself or an invite link. */
export function codeFrom(
  text: string,
  shape: CodeShape | null = servedFacts()?.shapes.table_code ?? null,
): string | null {
  const value = text.trim();
  if (isTableCode(value, shape)) return value;
  const match = /\/t\/([^/?#\s]+)(?:[/?#]|$)/.exec(value);
  return match && isTableCode(match[1], shape) ? match[1] : null;
}
