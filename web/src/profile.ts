// This browser's player profile. It is made on the server (POST /api/players) under the name last
// typed, at the start when a name is remembered, else the first time a table is created or joined;
// it is kept in localStorage as {player, secret, name} and sent with `create_table` and `join_table`,
// so that the seat counts for the profile's ratings and history. A name typed at the door renames it.

import { createPlayer, renamePlayer, type Answer, type ProfileKeys } from "./playersApi";
import { loadName } from "./session";
import { playerName } from "./tableSettings";
import type { Ack } from "./types";

export type Profile = ProfileKeys;

/** What `create_table` and `join_table` carry to link the seat to the profile. */
export interface ProfileAuth {
  player: string;
  secret: string;
}

const KEY = "smear.profile";

export function loadProfile(): Profile | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Profile>;
    if (typeof value.player !== "string" || typeof value.secret !== "string" || !value.player || !value.secret) {
      return null;
    }
    return { player: value.player, secret: value.secret, name: typeof value.name === "string" ? value.name : "" };
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();

/** Call `listener` whenever this browser's profile changes (here or in another tab); returns the unsubscribe. */
export function onProfileChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function changed(): void {
  for (const listener of listeners) listener();
}

export function saveProfile(profile: Profile): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ player: profile.player, secret: profile.secret, name: profile.name }));
  } catch {
    // without storage the profile lasts as long as the page; the next visit makes another
  }
  changed();
}

export function forgetProfile(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing to forget
  }
  changed();
}

/** The id and secret to send with `create_table` and `join_table`, or null without a profile. */
export function profileAuth(): ProfileAuth | null {
  const profile = loadProfile();
  return profile ? { player: profile.player, secret: profile.secret } : null;
}

/** Whether `player` is this browser's profile. */
export function isMine(player: string | null | undefined): boolean {
  return !!player && loadProfile()?.player === player;
}

/** The server says the profile is gone or no longer this browser's: it is of no use here any more. */
export function profileLost(code: string): boolean {
  return code === "bad_profile" || code === "bad_secret" || code === "no_such_player";
}

let making: Promise<Profile | null> | null = null;

/**
 * This browser's profile, made under `name` when there is none yet (one request at a time). Null
 * when the name is not a valid one or the server cannot make a profile now: play goes on without.
 */
export function ensureProfile(name: string): Promise<Profile | null> {
  const have = loadProfile();
  if (have) return Promise.resolve(have);
  const valid = playerName(name);
  if (valid === null) return Promise.resolve(null);
  if (!making) {
    making = createPlayer(valid)
      .then((answer) => {
        if (!answer.ok) return null;
        saveProfile(answer.data);
        return answer.data;
      })
      .finally(() => {
        making = null;
      });
  }
  return making;
}

/** At the start of the app: a profile under the name last used, when there is one and no profile yet. */
export async function startProfile(): Promise<void> {
  try {
    window.addEventListener("storage", (event) => {
      if (event.key === KEY || event.key === null) changed();
    });
  } catch {
    // not in a browser
  }
  if (!loadProfile() && playerName(loadName()) !== null) await ensureProfile(loadName());
}

/**
 * Give the profile a new name on the server, and here once the server has it. A profile the server
 * no longer knows as this browser's is forgotten.
 */
export async function renameProfile(name: string): Promise<Answer<{ name: string }>> {
  const profile = loadProfile();
  if (!profile) return { ok: false, status: 0, error: { code: "bad_profile", args: {}, message: "no profile" } };
  const answer = await renamePlayer(profile.player, profile.secret, name);
  const now = loadProfile();
  if (answer.ok) {
    if (now?.player === profile.player) saveProfile({ ...now, name: answer.data.name });
  } else if (profileLost(answer.error.code) && now?.player === profile.player) {
    forgetProfile();
  }
  return answer;
}

/**
 * The profile to sit down with under `name` (typed at the door): made if there is none, renamed if
 * it goes by another name. Null when there is no profile to be had now.
 */
export async function profileFor(name: string): Promise<ProfileAuth | null> {
  const valid = playerName(name);
  let profile = loadProfile() ?? (valid === null ? null : await ensureProfile(valid));
  if (!profile) return null;
  if (valid !== null && profile.name !== valid) {
    const renamed = await renameProfile(valid);
    // The profile was deleted elsewhere (or its secret is no longer good): a new one takes its place.
    if (!renamed.ok && profileLost(renamed.error.code)) profile = await ensureProfile(valid);
  }
  return profile ? { player: profile.player, secret: profile.secret } : null;
}

/**
 * Send a request that sits down (`create_table`, `join_table`) with the profile for `name`. When the
 * server refuses the profile (`bad_profile`), it is forgotten, a new one is made and the request is
 * sent once more.
 */
export async function withProfile(
  name: string,
  send: (profile: ProfileAuth | null) => Promise<Ack>,
): Promise<Ack> {
  const ack = await send(await profileFor(name));
  if (ack.ok || ack.error.code !== "bad_profile") return ack;
  forgetProfile();
  return send(await profileFor(name));
}

/** Take a profile brought from another device (`POST /api/transfer`) as this browser's. */
export function adoptProfile(keys: ProfileKeys): void {
  saveProfile(keys);
}
