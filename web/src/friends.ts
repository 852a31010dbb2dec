// Friends at the socket: this page says whose it is (`hello`, so friends see it online and their
// invitations reach it), and an invitation that arrives is shown on whatever page is open, where one
// click takes a seat at the friend's table (or watches it once its match is under way).

import { joinOpenTable } from "./listing";
import { navigate, request } from "./net";
import { loadName } from "./session";
import { loadProfile, profileAuth } from "./profile";
import { getApp, update } from "./store";

export interface Invitation {
  /** The friend who invites, and the table's code. */
  player: string;
  name: string;
  table: string;
}

/** Say whose page this is (nothing without a profile); again on each connection and profile made. */
export function sayHello(): void {
  const auth = profileAuth();
  if (auth) void request("hello", { profile: auth });
}

export function onInvitation(message: unknown): void {
  const value = message && typeof message === "object" ? (message as Record<string, unknown>) : null;
  const from = value?.from && typeof value.from === "object" ? (value.from as Record<string, unknown>) : null;
  if (typeof value?.table !== "string" || typeof from?.player !== "string") return;
  const name = typeof from.name === "string" ? from.name : "";
  update({ invitation: { player: from.player, name, table: value.table } });
}

export function dismissInvitation(): void {
  update({ invitation: null });
}

/** One click: a free seat at the table if it has one, else watch it. */
export async function acceptInvitation(): Promise<void> {
  const invitation = getApp().invitation;
  if (!invitation) return;
  update({ invitation: null });
  await joinOrWatch(invitation.table);
}

/** Join a friend's table (a free seat), or watch it when no seat can be taken. */
export async function joinOrWatch(table: string): Promise<void> {
  const name = loadProfile()?.name ?? loadName();
  const seated = name ? await joinOpenTable(table, name, { quiet: true }) : false;
  if (!seated) navigate(`/t/${encodeURIComponent(table)}?watch=1`);
}
