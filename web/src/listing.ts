// Open tables: the host's switch, the list the landing page shows (kept up to date by the server
// while the page is open), and taking a free seat from it in one click.

import { navigate, request, seatPayload } from "./net";
import { withProfile } from "./profile";
import { joinPayload } from "./tableSettings";
import { saveName, saveSession } from "./session";
import { toast, update, type Route } from "./store";
import type { OpenTable } from "./types";

/** Whether this connection asked to be sent the list's changes. */
let watching = false;
/** Bumped by every push, so an answer older than a push does not replace it. */
let pushes = 0;

function isOpenTable(value: unknown): value is OpenTable {
  if (!value || typeof value !== "object") return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.table === "string" &&
    typeof entry.free === "number" &&
    typeof entry.seats === "number" &&
    !!entry.settings &&
    typeof entry.settings === "object"
  );
}

function tablesOf(value: unknown): OpenTable[] {
  return Array.isArray(value) ? value.filter(isOpenTable) : [];
}

/** Follow the list while the landing page is on screen (call on every route change and connection). */
export async function followOpenTables(route: Route, connected: boolean): Promise<void> {
  const wanted = route.kind === "landing";
  if (!connected) {
    watching = false; // a new connection must ask again
    return;
  }
  if (wanted === watching) return;
  watching = wanted;
  const before = pushes;
  const ack = await request("open_tables", { watch: wanted });
  if (!ack.ok) {
    if (wanted) watching = false;
    return;
  }
  if (wanted && pushes === before) update({ openTables: tablesOf(ack.tables) });
}

export function onOpenTables(message: unknown): void {
  if (!message || typeof message !== "object") return;
  pushes += 1;
  update({ openTables: tablesOf((message as { tables?: unknown }).tables) });
}

/**
 * Take the first free seat of an open table, and go there; whether a seat was taken (`quiet`: a
 * refusal is left to the caller, which watches instead).
 */
export async function joinOpenTable(code: string, name: string, { quiet = false } = {}): Promise<boolean> {
  saveName(name);
  update({ pending: true });
  try {
    const ack = await withProfile(name, (profile) => request("join_table", joinPayload(code, name, profile)));
    if (!ack.ok) {
      if (!quiet) toast({ error: ack.error });
      return false;
    }
    saveSession({ table: code, token: String(ack.token), seat: Number(ack.seat), version: Number(ack.version), seen: 0 });
    navigate(`/t/${encodeURIComponent(code)}`);
    return true;
  } finally {
    update({ pending: false });
  }
}

/** The host lists the table on screen as open, or takes it off the list. */
export async function setListed(listed: boolean): Promise<void> {
  const payload = seatPayload();
  if (!payload) return;
  const ack = await request("list_table", { ...payload, listed });
  if (!ack.ok) toast({ error: ack.error });
}
