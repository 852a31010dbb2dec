// One small observable store for the whole app; components read it with useApp().

import { useEffect, useState } from "preact/hooks";
import { currentLang, type Lang } from "./i18n";
import type { Invitation } from "./friends";
import type { PresetsState } from "./presets";
import type { PlayersRoute } from "./playersRoutes";
import type {
  Action,
  ChatLine,
  LogLine,
  OpenTable,
  Preset,
  Reaction,
  ServerError,
  StateMessage,
  TableEvent,
} from "./types";
import type { BidAdvice } from "./ui/game/bidAdvice";

export type Route =
  | { kind: "landing" }
  /** An address the game has no page for (the server answers it with 404). */
  | { kind: "not_found" }
  | { kind: "table"; code: string; watch: boolean }
  /** A match's replay (/m/{match}), or the page that opens a record file (/replay) when `match` is null. */
  | { kind: "replay"; match: string | null }
  /** Practice positions (/practice). */
  | { kind: "practice" }
  /** A profile, a leaderboard, or taking a profile from another device (see playersRoutes.ts). */
  | PlayersRoute;

export interface LogEntry {
  id: number;
  version: number;
  /** A server event, or one of the lines an action event carries (a trick won, the kitty...). */
  event: TableEvent | LogLine;
  /** The seat names in the state that followed the event, so a later seat change does not rename it. */
  names?: (string | null)[];
}

export interface Toast {
  id: number;
  /** A server error (translated when shown, so a language switch applies) or a message key. */
  error?: ServerError;
  text?: string;
}

/** The expert's suggestion for this seat, at the table version it was asked for. */
export interface Hint {
  version: number;
  /** What the expert would do (its `text` in record notation). */
  action: Action;
  /** The change the expert expects in this seat's side's score this hand, or null. */
  expected: number | null;
}

/** When the turn timer of a table version runs out (client clock, ms), or null when none runs. */
export interface TurnClock {
  version: number;
  deadline: number | null;
}

/** A reaction on show at a seat, until `until` (client clock, ms). */
export interface ShownReaction {
  id: number;
  seat: number;
  reaction: Reaction;
  until: number;
}

export interface AppState {
  lang: Lang;
  sound: boolean;
  conn: "connecting" | "connected" | "disconnected";
  route: Route;
  /** The latest state of the table on screen. */
  state: StateMessage | null;
  /** No table has the code in the address. */
  notFound: boolean;
  log: LogEntry[];
  toasts: Toast[];
  /** A request is waiting for its ack (buttons that act are disabled meanwhile). */
  pending: boolean;
  /** The turn timer of the state on screen, taken from its `turn_left_ms` when it arrived. */
  turnClock: TurnClock;
  /** The last suggestion asked for; shown only while the table is still at its version. */
  hint: Hint | null;
  /** A hint request is waiting for its ack. */
  hintPending: boolean;
  /** The bid advice asked for on this seat's turn in the auction; shown only at its version. */
  bidAdvice: BidAdvice | null;
  /** A bid advice request is waiting for its ack. */
  bidAdvicePending: boolean;
  /** The facts of every preset, from the server (asked for once, at the start). */
  presets: PresetsState;
  /** The table's chat lines, oldest first, by id. */
  chat: ChatLine[];
  /** How many hours the server keeps chat lines (from its answer), or null before it answers. */
  chatKeptHours: number | null;
  /** The reactions on show at the seats. */
  reactions: ShownReaction[];
  /** The open tables the landing page lists, or null before the server has said. */
  openTables: OpenTable[] | null;
  /** The "How to play" page that is open, if any. */
  howTo: Preset | null;
  /** Where the open "How to play" page should be scrolled to: its top, or the table options. */
  howToAt: "top" | "options";
  /** A friend's invitation to their table, shown on any page until joined or dismissed. */
  invitation: Invitation | null;
}

function loadSound(): boolean {
  try {
    return localStorage.getItem("smear.sound") !== "off";
  } catch {
    return true;
  }
}

let app: AppState = {
  lang: currentLang(),
  sound: loadSound(),
  conn: "connecting",
  route: { kind: "landing" },
  state: null,
  notFound: false,
  log: [],
  toasts: [],
  pending: false,
  turnClock: { version: -1, deadline: null },
  hint: null,
  hintPending: false,
  bidAdvice: null,
  bidAdvicePending: false,
  presets: { status: "loading" },
  chat: [],
  chatKeptHours: null,
  reactions: [],
  openTables: null,
  howTo: null,
  howToAt: "top",
  invitation: null,
};

const listeners = new Set<() => void>();

export function getApp(): AppState {
  return app;
}

export function update(patch: Partial<AppState>): void {
  app = { ...app, ...patch };
  for (const listener of listeners) listener();
}

/** Call `listener` after every change of the state; returns the unsubscribe. */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * The state, for a component, drawn again on every change. A change made between the component's
 * first drawing and its subscription (a fast answer from the server) is caught too.
 */
export function useApp(): AppState {
  // Not preact/compat's useSyncExternalStore: compat would weigh on every page for this one hook.
  const [, setShown] = useState(app);
  useEffect(() => {
    setShown(app);
    return subscribe(() => setShown(app));
  }, []);
  return app;
}

let nextId = 1;
export function newId(): number {
  return nextId++;
}

export function toast(entry: Omit<Toast, "id">): void {
  const id = newId();
  update({ toasts: [...app.toasts.slice(-3), { id, ...entry }] });
  setTimeout(() => dismissToast(id), 6000);
}

export function dismissToast(id: number): void {
  update({ toasts: app.toasts.filter((t) => t.id !== id) });
}
