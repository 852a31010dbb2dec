// Reactions and the table chat: the requests, and the lines and bubbles that arrive.

import { request, seatPayload } from "./net";
import { loadName } from "./session";
import { servedFacts } from "./served";
import { getApp, newId, toast, update } from "./store";
import type { ChatLine, Reaction } from "./types";

/** How long a reaction stays on show at its seat (ms). */
export const REACTION_SHOWN_MS = 4000;
/**
 * `current` with `incoming` added, each line once (by id), oldest first, the newest `kept` of them
 * (the lines the server keeps; all of them until it has said how many).
 */
export function mergeLines(
  current: ChatLine[],
  incoming: ChatLine[],
  kept: number | null = servedFacts()?.limits.chat_lines ?? null,
): ChatLine[] {
  const byId = new Map<number, ChatLine>();
  for (const line of [...current, ...incoming]) byId.set(line.id, line);
  const sorted = [...byId.values()].sort((a, b) => a.id - b.id);
  return kept === null ? sorted : sorted.slice(-kept);
}

/** The reactions the server has, in the order the buttons offer them (none until it has said). */
export function servedReactions(): Reaction[] {
  return servedFacts()?.reactions ?? [];
}

function isLine(value: unknown): value is ChatLine {
  if (!value || typeof value !== "object") return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.id === "number" &&
    typeof line.at === "number" &&
    (line.seat === null || typeof line.seat === "number") &&
    typeof line.name === "string" &&
    typeof line.text === "string"
  );
}

function linesOf(value: unknown): ChatLine[] {
  return Array.isArray(value) ? value.filter(isLine) : [];
}

/** Ask for the chat kept at the table this connection now follows. */
export async function loadChat(code: string): Promise<void> {
  const ack = await request("chat_history", { table: code });
  const route = getApp().route;
  if (!ack.ok || route.kind !== "table" || route.code !== code) return;
  const hours = typeof ack.kept_hours === "number" ? ack.kept_hours : null;
  update({ chat: mergeLines(getApp().chat, linesOf(ack.lines)), chatKeptHours: hours });
}

/** Send a chat line: from the seat, or as a spectator under the name last used. */
export async function sendChat(text: string): Promise<boolean> {
  const route = getApp().route;
  if (route.kind !== "table") return false;
  const payload = seatPayload() ?? { table: route.code, name: loadName() || undefined };
  const ack = await request("chat", { ...payload, text });
  if (!ack.ok) toast({ error: ack.error });
  return ack.ok;
}

export async function sendReaction(reaction: Reaction): Promise<void> {
  const payload = seatPayload();
  if (!payload) return;
  const ack = await request("react", { ...payload, reaction });
  if (!ack.ok) toast({ error: ack.error });
}

/** The host's controls: the chat on or off, spectators writing or not. */
export async function setChatControls(on: boolean, spectators: boolean): Promise<void> {
  const payload = seatPayload();
  if (!payload) return;
  const ack = await request("chat_settings", { ...payload, on, spectators });
  if (!ack.ok) toast({ error: ack.error });
}

export async function muteSeat(seat: number, muted: boolean): Promise<void> {
  const payload = seatPayload();
  if (!payload) return;
  const ack = await request("mute", { ...payload, seat, muted });
  if (!ack.ok) toast({ error: ack.error });
}

export function onChat(message: unknown): void {
  if (getApp().route.kind !== "table" || !message || typeof message !== "object") return;
  const lines = linesOf((message as { lines?: unknown }).lines);
  if (lines.length) update({ chat: mergeLines(getApp().chat, lines) });
}

/** The server's operator deleted chat lines: they leave the page too. */
export function onChatRemoved(message: unknown): void {
  if (getApp().route.kind !== "table" || !message || typeof message !== "object") return;
  const ids = (message as { lines?: unknown }).lines;
  if (!Array.isArray(ids)) return;
  const removed = new Set(ids.filter((id): id is number => typeof id === "number"));
  update({ chat: getApp().chat.filter((line) => !removed.has(line.id)) });
}

export function onReaction(message: unknown): void {
  if (getApp().route.kind !== "table" || !message || typeof message !== "object") return;
  const { seat, reaction } = message as { seat?: unknown; reaction?: unknown };
  if (typeof seat !== "number" || typeof reaction !== "string" || !servedReactions().includes(reaction)) return;
  const id = newId();
  const shown = getApp().reactions.filter((r) => r.seat !== seat);
  update({ reactions: [...shown, { id, seat, reaction, until: Date.now() + REACTION_SHOWN_MS }] });
  setTimeout(() => update({ reactions: getApp().reactions.filter((r) => r.id !== id) }), REACTION_SHOWN_MS);
}
