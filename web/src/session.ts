// A seat is kept in localStorage per table, so a reload (or the invite link, later) takes it back.

export interface Session {
  table: string;
  token: string;
  seat: number;
  version: number;
  /** When the seat was last seen (ms), to list recent tables first. */
  seen: number;
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
    };
  } catch {
    return null;
  }
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
