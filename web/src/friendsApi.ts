// The friends' and blocks' requests over HTTP (/api/players/{id}/friends..., /blocks...), each with
// this browser's profile secret. Imported only by the chunks that use them (the person dialog, the
// profile page), not by the first page's script.

import { call, type Answer } from "./playersApi";
import { profileAuth } from "./profile";

export interface Person {
  player: string;
  name: string;
}

export interface Friend extends Person {
  online: boolean;
  /** The table one of the friend's pages follows (seated or watching), or null. */
  table: string | null;
}

export interface Friends {
  friends: Friend[];
  incoming: Person[];
  outgoing: Person[];
}

type Rec = Record<string, unknown>;

function people(value: unknown): Person[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((v): v is Rec => !!v && typeof v === "object" && typeof (v as Rec).player === "string")
    .map((v) => ({ player: String(v.player), name: typeof v.name === "string" ? v.name : "" }));
}

function readFriends(value: unknown): Friends | null {
  const v = value && typeof value === "object" ? (value as Rec) : null;
  if (!v || !Array.isArray(v.friends)) return null;
  const friends = (v.friends as Rec[]).flatMap((f) =>
    f && typeof f.player === "string"
      ? [{ player: f.player, name: typeof f.name === "string" ? f.name : "", online: f.online === true, table: typeof f.table === "string" ? f.table : null }]
      : [],
  );
  return { friends, incoming: people(v.incoming), outgoing: people(v.outgoing) };
}

const anything = (value: unknown) => (value && typeof value === "object" ? true : null);

function mine<T>(method: string, path: string, read: (value: unknown) => T | null, body?: unknown): Promise<Answer<T>> {
  const auth = profileAuth();
  if (auth === null) {
    return Promise.resolve({ ok: false, status: 401, error: { code: "bad_secret", args: {}, message: "" } });
  }
  const base = `/api/players/${encodeURIComponent(auth.player)}`;
  return call(method, base + path, read, { body, secret: auth.secret });
}

const other = (player: string) => encodeURIComponent(player);

export const getFriends = () => mine("GET", "/friends", readFriends);
export const getBlocked = () => mine("GET", "/blocks", (v) => (v && typeof v === "object" ? people((v as Rec).blocked) : null));
export const askFriend = (player: string) =>
  mine("POST", "/friends", (v) => (v && typeof v === "object" ? String((v as Rec).status) : null), { player });
export const acceptFriend = (player: string) => mine("POST", `/friends/${other(player)}/accept`, anything);
export const endFriend = (player: string) => mine("DELETE", `/friends/${other(player)}`, anything);
export const inviteFriend = (player: string) => mine("POST", `/friends/${other(player)}/invite`, anything);
export const blockPlayer = (player: string) => mine("POST", "/blocks", anything, { player });
export const unblockPlayer = (player: string) => mine("DELETE", `/blocks/${other(player)}`, anything);
