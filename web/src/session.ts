// A seat is kept in localStorage per table, so a reload (or the invite link, later) takes it back.
// With it, the version at which the hand on the table was dealt, so a reload replays the hand's log.

export interface Session {
  table: string;
  token: string;
  seat: number;
  version: number;
  /** When the seat was last seen (ms), to list recent tables first. */
  seen: number;
  /** The hand on the table when last seen, and the version it was dealt at (or first seen at). */
  hand?: number;
  handFrom?: number;
}

const PREFIX = "smear.table.";

export function loadSession(table: string): Session | null {
  try {
    const raw = localStorage.getItem(PREFIX + table);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Session>;
    if (typeof value.token !== "string" || typeof value.seat !== "number") return null;
    return {
      table,
      token: value.token,
      seat: value.seat,
      version: typeof value.version === "number" ? value.version : 0,
      seen: typeof value.seen === "number" ? value.seen : 0,
      ...(typeof value.hand === "number" && typeof value.handFrom === "number"
        ? { hand: value.hand, handFrom: value.handFrom }
        : {}),
    };
  } catch {
    return null;
  }
}

/**
 * The session with the hand on the table noted: `hand` (null outside a match), dealt at version
 * `dealtAt` when that is known, else first seen at `version`.
 */
export function noteHand(session: Session, version: number, hand: number | null, dealtAt: number | null): Session {
  if (hand === null) return session;
  if (dealtAt !== null) return { ...session, hand, handFrom: dealtAt };
  if (session.hand !== hand || session.handFrom === undefined) return { ...session, hand, handFrom: version };
  return session;
}

/**
 * The version a page that shows nothing yet resumes from: just before the hand on the table was
 * dealt, so that the server replays the hand's events into the log; else the last one seen.
 */
export function resumeFrom(session: Session): number {
  const from = session.handFrom;
  return from !== undefined && from > 0 && from <= session.version ? from - 1 : session.version;
}

export function saveSession(session: Session): void {
  try {
    localStorage.setItem(PREFIX + session.table, JSON.stringify({ ...session, seen: Date.now() }));
  } catch {
    // without storage a reload loses the seat; play goes on
  }
}

export function removeSession(table: string): void {
  try {
    localStorage.removeItem(PREFIX + table);
  } catch {
    // nothing to remove
  }
}

/** Every table this browser holds a seat at, most recent first. */
export function listSessions(): Session[] {
  const found: Session[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const session = loadSession(key.slice(PREFIX.length));
      if (session) found.push(session);
    }
  } catch {
    return [];
  }
  return found.sort((a, b) => b.seen - a.seen);
}

export function loadName(): string {
  try {
    return localStorage.getItem("smear.name") ?? "";
  } catch {
    return "";
  }
}

export function saveName(name: string): void {
  try {
    localStorage.setItem("smear.name", name);
  } catch {
    // not remembered
  }
}
