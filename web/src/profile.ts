// This browser's player profile. It is made on the server (POST /api/players) under the name last
// typed, at the start when a name is remembered, else the first time a table is created or joined;
// it is kept in localStorage as {player, secret, name} and sent with `create_table` and `join_table`,
// so that the seat counts for the profile's ratings and history. A name typed at the door renames it.
// When the server cannot make it now (busy, pacing its address, or out of reach), play goes on as a
// guest, the page says so (`profileMaking`), and it is tried again on its own, no sooner than the
// server's Retry-After; once made, every seat taken from then on carries it.

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
  stopProfileRetries(); // made, or brought from another device: nothing more to try
  if (makingState.kind === "waiting" || makingState.kind === "again") setMaking({ kind: "none" });
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

/**
 * Where the making of this browser's profile stands, for the page to say: nothing to tell (made at
 * the first try, or nothing asked); `waiting` after a try failed (`busy`: the server refused for now;
 * `offline`: no answer), tried again on its own in `seconds`; `again` while that try is under way;
 * `made` once a try after a failure made it. `guest`: the player chose to play on as a guest (the
 * tries go on).
 */
export type ProfileMaking =
  | { kind: "none" }
  | { kind: "waiting"; reason: "busy" | "offline"; seconds: number; guest: boolean }
  | { kind: "again"; guest: boolean }
  | { kind: "made" };

/** The first pause before a failed profile is tried again, and the longest (the server's Retry-After may ask for longer). */
const RETRY_FIRST_MS = 2_000;
const RETRY_MOST_MS = 120_000;

let making: Promise<Profile | null> | null = null;
let wanted: string | null = null; // the name to make the profile under, once a try has failed
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let failures = 0;
let makingState: ProfileMaking = { kind: "none" };
const makingListeners = new Set<() => void>();

/** Where the making of the profile stands now. */
export function profileMaking(): ProfileMaking {
  return makingState;
}

/** Call `listener` whenever `profileMaking()` changes; returns the unsubscribe. */
export function onProfileMaking(listener: () => void): () => void {
  makingListeners.add(listener);
  return () => {
    makingListeners.delete(listener);
  };
}

function setMaking(state: ProfileMaking): void {
  makingState = state;
  for (const listener of makingListeners) listener();
}

function guestChosen(): boolean {
  return makingState.kind === "waiting" || makingState.kind === "again" ? makingState.guest : false;
}

/** The player plays on as a guest knowingly: the page stops saying so; the tries go on. */
export function playAsGuest(): void {
  if (makingState.kind === "waiting" || makingState.kind === "again") setMaking({ ...makingState, guest: true });
}

/** The player has read that the profile is made. */
export function dismissProfileMaking(): void {
  if (makingState.kind === "made") setMaking({ kind: "none" });
}

/** Try to make the profile now rather than at the time set. */
export function tryProfileNow(): void {
  if (retryTimer === null) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  void attempt();
}

/** Stop trying (a profile came another way, or a test ends). */
export function stopProfileRetries(): void {
  if (retryTimer !== null) clearTimeout(retryTimer);
  retryTimer = null;
  failures = 0;
  wanted = null;
}

/** Whether a failed try is worth repeating: the server busy or pacing, or no answer at all. */
function passing(status: number): boolean {
  return status === 0 || status === 429 || status === 502 || status === 503 || status === 504;
}

/** The pause before the next try: doubling from the first, never sooner than the server asked. */
function retryDelay(retryAfter: number | undefined): number {
  const backoff = Math.min(RETRY_MOST_MS, RETRY_FIRST_MS * 2 ** (failures - 1)) * (0.8 + 0.4 * Math.random());
  return Math.max(backoff, (retryAfter ?? 0) * 1000);
}

function attempt(): Promise<Profile | null> {
  if (making) return making;
  const name = wanted;
  const have = loadProfile(); // made meanwhile in another tab, say
  if (have || name === null) {
    stopProfileRetries();
    if (makingState.kind === "waiting" || makingState.kind === "again") setMaking({ kind: have ? "made" : "none" });
    return Promise.resolve(have);
  }
  if (failures > 0) setMaking({ kind: "again", guest: guestChosen() });
  making = createPlayer(name)
    .then((answer) => {
      if (answer.ok) {
        const failed = failures > 0;
        saveProfile(answer.data);
        if (failed) setMaking({ kind: "made" });
        return answer.data;
      }
      if (loadProfile() || !passing(answer.status)) {
        stopProfileRetries();
        setMaking({ kind: "none" });
        return loadProfile();
      }
      failures += 1;
      const delay = retryDelay(answer.retryAfter);
      retryTimer = setTimeout(() => {
        retryTimer = null;
        void attempt();
      }, delay);
      const reason = answer.status === 0 ? "offline" : "busy";
      setMaking({ kind: "waiting", reason, seconds: Math.ceil(delay / 1000), guest: guestChosen() });
      return null;
    })
    .finally(() => {
      making = null;
    });
  return making;
}

/**
 * This browser's profile, made under `name` when there is none yet (one request at a time). Null
 * when the name is not a valid one or the server cannot make a profile now: play goes on as a guest,
 * and a failed profile is tried again on its own (`profileMaking` says when).
 */
export function ensureProfile(name: string): Promise<Profile | null> {
  const have = loadProfile();
  if (have) return Promise.resolve(have);
  const valid = playerName(name);
  if (valid === null) return Promise.resolve(null);
  wanted = valid;
  // Waiting for the next try: this seat is taken as a guest rather than held up.
  if (retryTimer !== null) return Promise.resolve(null);
  return attempt();
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
