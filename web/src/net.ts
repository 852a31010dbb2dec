// The socket to the server, the requests the UI makes, and what happens when messages arrive.

import { io } from "socket.io-client";
import { setSingleJoker } from "./i18n";
import { routeOf } from "./routes";
import { loadSession, noteHand, removeSession, resumeFrom, saveName, saveSession } from "./session";
import { playTurnChime } from "./sound";
import type { PresetFacts } from "./presets";
import { createTablePayload, findGamePayload, joinPayload } from "./tableSettings";
import { onProfileChange, withProfile } from "./profile";
import { getApp, toast, update, type LogEntry, type Route } from "./store";
import { followOpenTables, onOpenTables } from "./listing";
import { onInvitation, sayHello } from "./friends";
import { loadChat, onChat, onChatRemoved, onReaction } from "./talk";
import { handDealtAt } from "./ui/game/handDealt";
import { logEntries } from "./ui/game/log";
import { parseBidAdvice } from "./ui/game/bidAdvice";
import { turnClockOf } from "./turnClock";
import {
  canAct,
  isAction,
  publicGame,
  seatView,
  type Ack,
  type EventMessage,
  type ServerError,
  type Settings,
  type StateMessage,
  type TableEvent,
} from "./types";

// WebSocket first: several server processes behind one address can serve it without sticky
// sessions. Long polling is the fallback where a WebSocket cannot open.
const socket = io({
  path: "/socket.io",
  autoConnect: false,
  transports: ["websocket", "polling"],
  tryAllTransports: true,
});
// How long to wait before connecting again after the server refused the connection.
const REFUSED_RETRY_MS = 10_000;

/** How this connection follows the table on screen: as its seat, as a spectator, or not yet. */
let mode: "none" | "seat" | "watch" = "none";
let attachedTo: string | null = null;

// --- routes ----------------------------------------------------------------------------------------

export function parseRoute(): Route {
  return routeOf(location.pathname, location.search);
}

/**
 * Show the page at `path`. With `replace`, the address in place of the current one, which Back
 * should not return to (a used claim code, a deleted profile).
 */
export function navigate(path: string, { replace = false }: { replace?: boolean } = {}): void {
  if (replace) history.replaceState(null, "", path);
  else if (path !== location.pathname + location.search) history.pushState(null, "", path);
  routeChanged();
}

export function routeChanged(): void {
  const route = parseRoute();
  const app = getApp();
  const sameTable =
    route.kind === "table" && app.route.kind === "table" && app.route.code === route.code;
  if (!sameTable) {
    update({
      route,
      state: null,
      log: [],
      notFound: false,
      hint: null,
      bidAdvice: null,
      turnClock: { version: -1, deadline: null },
      chat: [],
      chatKeptHours: null,
      reactions: [],
    });
    document.title = "Smear";
    setSingleJoker(false);
    mode = "none";
    attachedTo = null;
  } else {
    update({ route });
  }
  void followOpenTables(route, socket.connected);
  attach();
}

// --- requests --------------------------------------------------------------------------------------

/** Emit an event and wait for its ack; a missing answer becomes a `timeout` error. */
export function request(event: string, payload: Record<string, unknown>, timeoutMs = 10000): Promise<Ack> {
  return new Promise((resolve) => {
    if (!socket.connected) {
      resolve({ ok: false, error: { code: "timeout", args: {}, message: "not connected" } });
      return;
    }
    socket.timeout(timeoutMs).emit(event, payload, (err: Error | null, ack: Ack) => {
      if (err || !ack || typeof ack !== "object") {
        resolve({ ok: false, error: { code: "timeout", args: {}, message: "no answer" } });
      } else {
        resolve(ack);
      }
    });
  });
}

/** A request from a button: shows the error, if any, and keeps the buttons disabled meanwhile. */
function userRequest(event: string, payload: Record<string, unknown>): Promise<Ack> {
  return userAck(() => request(event, payload));
}

/** The same for requests sent in several steps (the profile first, for instance). */
async function userAck(send: () => Promise<Ack>): Promise<Ack> {
  update({ pending: true });
  try {
    const ack = await send();
    if (!ack.ok && ack.error.code !== "stale_version") toast({ error: ack.error });
    return ack;
  } finally {
    update({ pending: false });
  }
}

/** The table on screen and this browser's token for it, or null when it holds no seat there. */
export function seatPayload(): Record<string, unknown> | null {
  const route = getApp().route;
  if (route.kind !== "table") return null;
  const session = loadSession(route.code);
  if (!session) return null;
  return { table: route.code, token: session.token };
}

export async function createTable(name: string, settings: Settings, preset: PresetFacts): Promise<boolean> {
  saveName(name);
  const ack = await userAck(() =>
    withProfile(name, (profile) => request("create_table", createTablePayload(name, settings, preset, profile))),
  );
  if (!ack.ok) return false;
  const table = String(ack.table);
  saveSession({ table, token: String(ack.token), seat: Number(ack.seat), version: 0, seen: 0 });
  navigate(`/t/${encodeURIComponent(table)}`);
  return true;
}

/** "Find a game": a seat at a matchmade table of the game chosen (a bot's, from the next hand) or at a
 * new one with bots; then to the table's page. */
export async function findGame(name: string, settings: Settings): Promise<boolean> {
  saveName(name);
  const ack = await userAck(() => withProfile(name, (profile) => request("find_game", findGamePayload(name, settings, profile))));
  if (!ack.ok) return false;
  const table = String(ack.table);
  saveSession({ table, token: String(ack.token), seat: Number(ack.seat), version: 0, seen: 0 });
  navigate(`/t/${encodeURIComponent(table)}`);
  return true;
}

export async function joinTable(name: string): Promise<void> {
  const route = getApp().route;
  if (route.kind !== "table") return;
  saveName(name);
  const ack = await userAck(() => withProfile(name, (profile) => request("join_table", joinPayload(route.code, name, profile))));
  if (!ack.ok) return;
  saveSession({
    table: route.code,
    token: String(ack.token),
    seat: Number(ack.seat),
    version: Number(ack.version),
    seen: 0,
  });
  mode = "seat";
  if (route.watch) navigate(`/t/${encodeURIComponent(route.code)}`);
}

/** Sit in a given seat: join first if this browser has no seat yet, then move there. */
export async function sitAt(seat: number, name: string): Promise<void> {
  if (!seatPayload()) {
    await joinTable(name);
  }
  const payload = seatPayload();
  const you = getApp().state?.table.you;
  if (payload && you !== seat) await userRequest("take_seat", { ...payload, seat });
}

export async function setBot(seat: number, bot: boolean): Promise<void> {
  const payload = seatPayload();
  if (payload) await userRequest("set_bot", { ...payload, seat, bot });
}

export async function fillWithBots(): Promise<void> {
  const payload = seatPayload();
  const state = getApp().state;
  if (!payload || !state) return;
  for (const seat of state.table.seats) {
    if (seat.open) {
      const ack = await userRequest("set_bot", { ...payload, seat: seat.seat, bot: true });
      if (!ack.ok) break;
    }
  }
}

export async function kick(seat: number): Promise<void> {
  const payload = seatPayload();
  if (payload) await userRequest("kick", { ...payload, seat });
}

export async function startMatch(): Promise<void> {
  const payload = seatPayload();
  if (payload) await userRequest("start", payload);
}

/** After a match: this seat will play the next one, or not; the host also says whether partners are drawn anew. */
export async function rematch(ready: boolean, newPartners: boolean): Promise<void> {
  const payload = seatPayload();
  if (payload) await userRequest("rematch", { ...payload, ready, new_partners: newPartners });
}

export async function act(action: string): Promise<boolean> {
  const payload = seatPayload();
  const state = getApp().state;
  if (!payload || !state || getApp().pending) return false;
  const ack = await userRequest("act", { ...payload, version: state.version, action });
  return ack.ok;
}

/**
 * Ask the server what the expert would do in this seat now. The suggestion is kept with the version
 * it was given for, so it disappears as soon as the table moves on.
 */
export async function requestHint(): Promise<void> {
  const payload = seatPayload();
  const app = getApp();
  if (!payload || !app.state || app.hintPending) return;
  update({ hintPending: true });
  try {
    const ack = await request("hint", payload);
    if (!ack.ok) {
      toast({ error: ack.error });
      return;
    }
    const version = Number(ack.version);
    const now = getApp().state;
    if (!isAction(ack.action) || !now || version < now.version) return; // the turn has passed
    const expected = typeof ack.expected === "number" && Number.isFinite(ack.expected) ? ack.expected : null;
    update({ hint: { version, action: ack.action, expected } });
  } finally {
    update({ hintPending: false });
  }
}

/**
 * Ask the server for each auction choice's chances on this seat's turn to bid (`bid_advice`). The
 * advice is kept with the version it was given for, so it disappears as soon as the turn passes.
 */
export async function requestBidAdvice(): Promise<void> {
  const payload = seatPayload();
  const app = getApp();
  if (!payload || !app.state || app.bidAdvicePending) return;
  update({ bidAdvicePending: true });
  try {
    const ack = await request("bid_advice", payload);
    if (!ack.ok) {
      toast({ error: ack.error });
      return;
    }
    const advice = parseBidAdvice(ack);
    const now = getApp().state;
    if (!advice || !now || advice.version < now.version) return; // the turn has passed
    update({ bidAdvice: advice });
  } finally {
    update({ bidAdvicePending: false });
  }
}

/** Put the bid advice away (it can be asked for again, at no cost while the turn lasts). */
export function hideBidAdvice(): void {
  update({ bidAdvice: null });
}

/** How long a review is awaited: the expert's search of every decision takes seconds. */
const REVIEW_WAIT_MS = 30000;

/**
 * The expert's review of this seat's decisions in a hand of the match that is over (`review_hand`,
 * `hand` from 0): the server's answer, for the review panel to read (its parsers stay out of the
 * first page's script), or null after an error (shown as a toast). It takes seconds too.
 */
export async function requestHandReview(hand: number): Promise<Record<string, unknown> | null> {
  const payload = seatPayload();
  if (!payload) return null;
  const ack = await request("review_hand", { ...payload, hand }, REVIEW_WAIT_MS);
  if (!ack.ok) {
    toast({ error: ack.error });
    return null;
  }
  return ack;
}

/**
 * The review of the match just over (`review_match`): every seat's figures and this seat's costliest
 * decisions, as the server sent them, or null after an error (shown). It takes seconds, so the answer
 * is awaited longer.
 */
export async function requestMatchReview(): Promise<Record<string, unknown> | null> {
  const payload = seatPayload();
  if (!payload) return null;
  const ack = await request("review_match", payload, REVIEW_WAIT_MS);
  if (!ack.ok) {
    toast({ error: ack.error });
    return null;
  }
  return ack;
}

export async function leave(): Promise<void> {
  const route = getApp().route;
  const payload = seatPayload();
  if (route.kind !== "table") return;
  if (payload) {
    const ack = await userRequest("leave", payload);
    if (!ack.ok && ack.error.code !== "bad_token") return;
  }
  removeSession(route.code);
  navigate("/");
}

// --- following a table -----------------------------------------------------------------------------

/** Take the seat back (resume) or follow as a spectator, once connected and on a table's page. */
async function attach(): Promise<void> {
  const route = getApp().route;
  if (route.kind !== "table" || !socket.connected) return;
  const key = `${socket.id}:${route.code}:${route.watch}`;
  if (attachedTo === key) return;
  attachedTo = key;
  const session = route.watch ? null : loadSession(route.code);
  if (session) {
    const seen = getApp().state?.version ?? resumeFrom(session);
    const ack = await request("resume", { table: route.code, token: session.token, version: seen });
    if (ack.ok) {
      mode = "seat";
      saveSession({ ...(loadSession(route.code) ?? session), seat: Number(ack.seat), version: Number(ack.version) });
      void loadChat(route.code);
      return;
    }
    if (ack.error.code === "no_such_table") {
      removeSession(route.code);
      update({ notFound: true });
      return;
    }
    if (ack.error.code === "bad_token") {
      removeSession(route.code);
      toast({ text: "lobby.not_seated" });
    } else {
      attachedTo = null; // a timeout or a hiccup: try again on the next connection
      toast({ error: ack.error });
      return;
    }
  }
  const ack = await request("watch_table", { table: route.code });
  if (ack.ok) {
    mode = "watch";
    void loadChat(route.code);
  } else if (ack.error.code === "no_such_table") {
    update({ notFound: true });
  } else {
    attachedTo = null;
    toast({ error: ack.error });
  }
}

function isMyTurn(state: StateMessage | null): boolean {
  const view = state ? seatView(state) : null;
  return !!view && canAct(view);
}

function onState(message: StateMessage): void {
  const app = getApp();
  const route = app.route;
  if (route.kind !== "table" || message.table.code !== route.code) return;
  const previous = app.state;
  if (previous && message.version < previous.version && !message.resync) return; // an older state

  const session = loadSession(route.code);
  if (session && mode === "seat") {
    if (message.table.you === null && message.table.you_arrive == null) {
      // The token no longer holds a seat: kicked by the host (or left from another tab).
      removeSession(route.code);
      mode = "watch";
      toast({ text: "lobby.not_seated" });
    } else if (message.table.you !== null) {
      const seen = { ...session, seat: message.table.you, version: message.version };
      const hand = publicGame(message)?.hand_number ?? null;
      saveSession(noteHand(seen, message.version, hand, handDealtAt(app.log, message)));
    }
  }

  const names = message.table.seats.map((seat) => seat.name);
  const log = withEvent(app.log, message.version, message.event).map((entry) =>
    entry.names ? entry : { ...entry, names },
  );
  const after = publicGame(message);

  setSingleJoker(after?.rules.jokers === 1);
  const turnNow = isMyTurn(message);
  const hint = app.hint && app.hint.version >= message.version ? app.hint : null;
  const bidAdvice = app.bidAdvice && app.bidAdvice.version >= message.version ? app.bidAdvice : null;
  if (turnNow && !isMyTurn(previous) && app.sound) playTurnChime();
  update({
    state: message,
    notFound: false,
    log: message.resync ? [] : log.slice(-120),
    turnClock: turnClockOf(message, app.turnClock, Date.now()),
    hint,
    bidAdvice,
  });
  document.title = (turnNow ? "● " : "") + "Smear";
}

/** ``log`` with the lines of the event that made ``version``, unless it has them already. */
function withEvent(log: LogEntry[], version: number, event: TableEvent | null | undefined): LogEntry[] {
  if (!event) return log;
  if (log.some((entry) => entry.version === version)) return log;
  return [...log, ...logEntries(version, event)];
}

/** An event replayed on ``resume`` (a live change comes inside its ``state``). */
function onEvent(message: EventMessage): void {
  const app = getApp();
  if (app.route.kind !== "table") return;
  update({ log: withEvent(app.log, message.version, message.event).slice(-120) });
}

export function startNetwork(): void {
  socket.on("connect", () => {
    update({ conn: "connected" });
    attachedTo = null;
    void followOpenTables(getApp().route, true);
    void attach();
    sayHello();
  });
  socket.on("disconnect", () => {
    update({ conn: "disconnected" });
    attachedTo = null;
    void followOpenTables(getApp().route, false);
  });
  socket.io.on("reconnect_attempt", () => update({ conn: "disconnected" }));
  socket.on("connect_error", (err: Error & { data?: unknown }) => {
    update({ conn: "disconnected" });
    // A refusal by the server itself (too many connections) says why, and is tried again later:
    // the library retries only failures of the transport.
    const data = err.data;
    if (data && typeof data === "object" && "code" in data) {
      toast({ error: data as ServerError });
      setTimeout(() => socket.connect(), REFUSED_RETRY_MS);
    }
  });
  socket.on("state", onState);
  socket.on("event", onEvent);
  socket.on("chat", onChat);
  socket.on("chat_removed", onChatRemoved);
  socket.on("reaction", onReaction);
  socket.on("open_tables", onOpenTables);
  socket.on("invitation", onInvitation);
  onProfileChange(() => {
    if (socket.connected) sayHello();
  });
  socket.on("error", (error) => {
    if (error && typeof error === "object" && "code" in error) toast({ error });
  });
  window.addEventListener("popstate", routeChanged);
  routeChanged();
  socket.connect();
}
