import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ensureProfile,
  forgetProfile,
  isMine,
  loadProfile,
  onProfileChange,
  profileAuth,
  profileFor,
  renameProfile,
  saveProfile,
  startProfile,
  stopProfileRetries,
  withProfile,
  type ProfileAuth,
} from "./profile";
import { update } from "./store";
import { errorBody, fakeFetch, fakeStorage, type Seen } from "./test/fakes";
import { FACTS } from "./test/presets";
import type { Ack } from "./types";

let storage: Map<string, string>;
let made = 0;

/** A server that makes profiles p1, p2... and renames them, unless told otherwise. */
function server(extra: (seen: Seen) => ReturnType<Parameters<typeof fakeFetch>[0]> | null = () => null): Seen[] {
  return fakeFetch((seen) => {
    const special = extra(seen);
    if (special) return special;
    if (seen.method === "POST" && seen.url === "/api/players") {
      made += 1;
      const { name } = seen.body as { name: string };
      return { status: 201, json: { player: `p${made}`, secret: `s${made}`.padEnd(32, "x"), name } };
    }
    if (seen.method === "PATCH") {
      return { json: { player: seen.url.split("/").pop(), name: (seen.body as { name: string }).name } };
    }
    return { status: 404, json: errorBody("not_found") };
  });
}

const OK: Ack = { ok: true };
const BAD_PROFILE: Ack = { ok: false, error: { code: "bad_profile", args: {}, message: "bad profile" } };

beforeEach(() => {
  storage = fakeStorage();
  made = 0;
});

afterEach(() => {
  stopProfileRetries(); // a profile refused here is not tried again in the next test
  vi.unstubAllGlobals();
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
});

describe("the stored profile", () => {
  it("keeps the id, the secret and the name, and gives the id and secret to sit down with", () => {
    expect(profileAuth()).toBeNull();
    saveProfile({ player: "abc", secret: "s".repeat(32), name: "Sam" });
    expect(JSON.parse(storage.get("smear.profile") as string)).toEqual({ player: "abc", secret: "s".repeat(32), name: "Sam" });
    expect(loadProfile()).toEqual({ player: "abc", secret: "s".repeat(32), name: "Sam" });
    expect(profileAuth()).toEqual({ player: "abc", secret: "s".repeat(32) });
    expect(isMine("abc")).toBe(true);
    expect(isMine("xyz")).toBe(false);
    expect(isMine(null)).toBe(false);
    forgetProfile();
    expect(profileAuth()).toBeNull();
  });

  it("ignores what is not a profile", () => {
    storage.set("smear.profile", "{not json");
    expect(loadProfile()).toBeNull();
    storage.set("smear.profile", JSON.stringify({ player: "abc" }));
    expect(loadProfile()).toBeNull();
  });

  it("tells its listeners when it changes", () => {
    const heard = vi.fn();
    const stop = onProfileChange(heard);
    saveProfile({ player: "abc", secret: "s".repeat(32), name: "Sam" });
    forgetProfile();
    stop();
    saveProfile({ player: "abc", secret: "s".repeat(32), name: "Sam" });
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

describe("making the profile", () => {
  it("asks the server once, under the name, and keeps what it answers", async () => {
    const seen = server();
    const [a, b] = await Promise.all([ensureProfile(" Sam "), ensureProfile("Sam")]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/api/players", body: { name: "Sam" }, auth: null });
    expect(a).toEqual(b);
    expect(loadProfile()).toEqual({ player: "p1", secret: "s1".padEnd(32, "x"), name: "Sam" });
    await ensureProfile("Other");
    expect(seen).toHaveLength(1);
  });

  it("makes none without a valid name, or when the server cannot", async () => {
    const seen = server(() => ({ status: 500, text: "oops" }));
    update({ presets: { status: "ready", facts: FACTS } });
    expect(await ensureProfile("   ")).toBeNull();
    expect(await ensureProfile("x".repeat(FACTS.limits.name_length + 1))).toBeNull();
    update({ presets: { status: "loading" } });
    expect(seen).toHaveLength(0);
    expect(await ensureProfile("Sam")).toBeNull();
    expect(loadProfile()).toBeNull();
  });

  it("is made at the start under the name last used, and not without one", async () => {
    let seen = server();
    await startProfile();
    expect(seen).toHaveLength(0);
    storage.set("smear.name", "Ada");
    seen = server();
    await startProfile();
    expect(seen.map((s) => s.body)).toEqual([{ name: "Ada" }]);
    expect(loadProfile()?.name).toBe("Ada");
    await startProfile();
    expect(seen).toHaveLength(1);
  });
});

describe("renaming", () => {
  it("sends the new name with the secret, and keeps it once the server has it", async () => {
    saveProfile({ player: "abc", secret: "sec".padEnd(32, "x"), name: "Sam" });
    const seen = server();
    const answer = await renameProfile("Samuel");
    expect(answer.ok).toBe(true);
    expect(seen[0]).toMatchObject({
      method: "PATCH",
      url: "/api/players/abc",
      body: { name: "Samuel" },
      auth: `Bearer ${"sec".padEnd(32, "x")}`,
    });
    expect(loadProfile()?.name).toBe("Samuel");
  });

  it("forgets a profile the server no longer knows as this browser's", async () => {
    saveProfile({ player: "abc", secret: "sec".padEnd(32, "x"), name: "Sam" });
    server(() => ({ status: 401, json: errorBody("bad_secret") }));
    const answer = await renameProfile("Samuel");
    expect(answer.ok).toBe(false);
    expect(loadProfile()).toBeNull();
  });

  it("keeps the profile and its name on any other failure", async () => {
    saveProfile({ player: "abc", secret: "sec".padEnd(32, "x"), name: "Sam" });
    server(() => "network");
    const answer = await renameProfile("Samuel");
    expect(!answer.ok && answer.error.code).toBe("timeout");
    expect(loadProfile()?.name).toBe("Sam");
  });
});

describe("profileFor: the profile a seat is taken with", () => {
  it("is made the first time a name is typed at the door", async () => {
    const seen = server();
    expect(await profileFor("Sam")).toEqual({ player: "p1", secret: "s1".padEnd(32, "x") });
    expect(seen.map((s) => s.method)).toEqual(["POST"]);
  });

  it("is renamed when another name is typed, and left alone with the same one", async () => {
    saveProfile({ player: "abc", secret: "sec".padEnd(32, "x"), name: "Sam" });
    const seen = server();
    await profileFor("Sam");
    expect(seen).toHaveLength(0);
    expect(await profileFor("Ada ")).toEqual({ player: "abc", secret: "sec".padEnd(32, "x") });
    expect(seen.map((s) => [s.method, s.body])).toEqual([["PATCH", { name: "Ada" }]]);
    expect(loadProfile()?.name).toBe("Ada");
  });

  it("is made anew when the old one was deleted elsewhere", async () => {
    saveProfile({ player: "abc", secret: "sec".padEnd(32, "x"), name: "Sam" });
    const seen = server((s) => (s.method === "PATCH" ? { status: 404, json: errorBody("no_such_player") } : null));
    expect(await profileFor("Ada")).toEqual({ player: "p1", secret: "s1".padEnd(32, "x") });
    expect(seen.map((s) => s.method)).toEqual(["PATCH", "POST"]);
  });

  it("is null when the server makes none: the seat is taken without", async () => {
    server(() => "network");
    expect(await profileFor("Sam")).toBeNull();
  });
});

describe("withProfile: create_table and join_table", () => {
  it("sends the profile with the request", async () => {
    server();
    const sent: (ProfileAuth | null)[] = [];
    const ack = await withProfile("Sam", async (profile) => {
      sent.push(profile);
      return OK;
    });
    expect(ack).toBe(OK);
    expect(sent).toEqual([{ player: "p1", secret: "s1".padEnd(32, "x") }]);
  });

  it("on bad_profile forgets the profile, makes a new one and sends once more", async () => {
    saveProfile({ player: "old", secret: "old".padEnd(32, "x"), name: "Sam" });
    const seen = server();
    const sent: (ProfileAuth | null)[] = [];
    const ack = await withProfile("Sam", async (profile) => {
      sent.push(profile);
      return sent.length === 1 ? BAD_PROFILE : OK;
    });
    expect(ack).toBe(OK);
    expect(sent).toEqual([
      { player: "old", secret: "old".padEnd(32, "x") },
      { player: "p1", secret: "s1".padEnd(32, "x") },
    ]);
    expect(seen.map((s) => s.method)).toEqual(["POST"]);
    expect(loadProfile()?.player).toBe("p1");
  });

  it("tries again only once", async () => {
    server();
    const send = vi.fn(async () => BAD_PROFILE);
    expect(await withProfile("Sam", send)).toBe(BAD_PROFILE);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("passes any other refusal on as it is", async () => {
    server();
    const full: Ack = { ok: false, error: { code: "table_full", args: {}, message: "full" } };
    const send = vi.fn(async () => full);
    expect(await withProfile("Sam", send)).toBe(full);
    expect(send).toHaveBeenCalledTimes(1);
    expect(loadProfile()?.player).toBe("p1");
  });

  it("sits down without a profile when the server has none to give", async () => {
    server(() => "network");
    const send = vi.fn(async (_profile: ProfileAuth | null) => OK);
    await withProfile("Sam", send);
    expect(send).toHaveBeenCalledWith(null);
  });
});
