import { afterEach, describe, expect, it, vi } from "vitest";
import {
  claimTransfer,
  deletePlayer,
  getLeaderboard,
  getMatches,
  getPlayer,
  readMatchPage,
  readProfile,
  startTransfer,
} from "./playersApi";
import { errorBody, fakeFetch } from "./test/fakes";

const STATS = {
  matches: 3, wins: 2, hands: 27, points: 51, points_per_hand: 1.89, bids_won: 9, bids_made: 7,
  average_bid: 3.4, sets: 2, moons_tried: 1, moons_made: 0, high: 12, jack: 8, game: 11,
};
const PROFILE = {
  player: "k3J_x9QaZ0bd", name: "Sam", bot: false, since: 1764680000.0,
  ratings: { house: { rating: 4.2, mu: 27.1, sigma: 7.6, matches: 3 } },
  stats: { house: STATS },
  finished: 3, left: 1,
};
const MATCH = {
  match: "Qw3eRt5yUi8o", preset: "house", finished_at: 1764680000.0,
  players: [
    { seat: 0, name: "Sam", player: "k3J_x9QaZ0bd", bot: false, mark: "K3QF" },
    { seat: 1, name: "Bot", player: "bot-heuristic", bot: true },
    { seat: 2, name: "deleted player", player: null, bot: false },
    { seat: 3, name: "Cy", player: "cy0000000000", bot: false },
  ],
  sides: [[0, 2], [1, 3]], scores: [21, 14], winner: 0, seat: 0, won: true,
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
});

describe("reading the answers", () => {
  it("takes a profile as the server sends it", () => {
    expect(readProfile(PROFILE)).toEqual(PROFILE);
  });

  it("fills what is missing and drops what is not a preset's", () => {
    const profile = readProfile({ player: "p", name: "N", ratings: { house: "x", widow: { rating: 1 } }, stats: null });
    expect(profile).toEqual({
      player: "p", name: "N", bot: false, since: 0,
      ratings: { widow: { rating: 1, mu: 0, sigma: 0, matches: 0 } },
      stats: {}, finished: 0, left: 0,
    });
    expect(readProfile({ name: "N" })).toBeNull();
    expect(readProfile([])).toBeNull();
  });

  it("keeps a null average bid", () => {
    expect(readProfile({ ...PROFILE, stats: { house: { ...STATS, average_bid: null } } })?.stats.house.average_bid).toBeNull();
  });

  it("takes a page of matches, dropping malformed ones", () => {
    expect(readMatchPage({ matches: [MATCH, { match: 3 }], more: true })).toEqual({ matches: [MATCH], more: true });
    expect(readMatchPage({})).toBeNull();
  });
});

describe("the calls", () => {
  it("GET a profile", async () => {
    const seen = fakeFetch(() => ({ json: PROFILE }));
    const answer = await getPlayer("k3J_x9QaZ0bd");
    expect(answer).toEqual({ ok: true, data: PROFILE });
    expect(seen[0]).toMatchObject({ method: "GET", url: "/api/players/k3J_x9QaZ0bd", auth: null });
  });

  it("gives the server's error with its status", async () => {
    fakeFetch(() => ({ status: 404, json: errorBody("no_such_player") }));
    const answer = await getPlayer("nobody");
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.status).toBe(404);
      expect(answer.error).toEqual({ code: "no_such_player", args: {}, message: "no such player" });
    }
  });

  it("makes a network failure a timeout, and an answer not the server's an internal error", async () => {
    fakeFetch(() => "network");
    const lost = await getPlayer("p");
    expect(!lost.ok && lost.error.code).toBe("timeout");
    fakeFetch(() => ({ status: 502, text: "<html>bad gateway</html>" }));
    const proxy = await getPlayer("p");
    expect(!proxy.ok && [proxy.status, proxy.error.code]).toEqual([502, "internal_error"]);
    fakeFetch(() => ({ json: { something: "else" } }));
    const odd = await getPlayer("p");
    expect(!odd.ok && odd.error.code).toBe("internal_error");
  });

  it("asks for matches a page at a time", async () => {
    const seen = fakeFetch(() => ({ json: { matches: [MATCH], more: false } }));
    await getMatches("k3J_x9QaZ0bd");
    await getMatches("k3J_x9QaZ0bd", "Qw3eRt5yUi8o", 10);
    expect(seen.map((s) => s.url)).toEqual([
      "/api/players/k3J_x9QaZ0bd/matches?limit=20",
      "/api/players/k3J_x9QaZ0bd/matches?limit=10&before=Qw3eRt5yUi8o",
    ]);
  });

  it("asks for a leaderboard, of everyone or around a player", async () => {
    const entry = { player: "p", name: "Sam", rating: 4.2, matches: 3, bot: false };
    const seen = fakeFetch(() => ({ json: [entry, { name: "no id" }] }));
    const answer = await getLeaderboard("house");
    expect(answer).toEqual({ ok: true, data: [entry] });
    await getLeaderboard("ten_point", "k3J_x9QaZ0bd");
    expect(seen.map((s) => s.url)).toEqual(["/api/leaderboard/house", "/api/leaderboard/ten_point?with=k3J_x9QaZ0bd"]);
  });

  it("sends the secret as a bearer token where the profile's own browser acts", async () => {
    const seen = fakeFetch((s) =>
      s.method === "DELETE" ? { json: { deleted: true } } : { json: { code: "ABCD-EFGH", expires_in: 600 } },
    );
    expect(await startTransfer("p", "secret")).toEqual({ ok: true, data: { code: "ABCD-EFGH", expires_in: 600 } });
    expect(await deletePlayer("p", "secret")).toEqual({ ok: true, data: true });
    expect(seen.map((s) => [s.method, s.url, s.auth])).toEqual([
      ["POST", "/api/players/p/transfer", "Bearer secret"],
      ["DELETE", "/api/players/p", "Bearer secret"],
    ]);
  });

  it("claims a profile with a code", async () => {
    const seen = fakeFetch(() => ({ json: { player: "p", secret: "new", name: "Sam" } }));
    expect(await claimTransfer("ABCD-EFGH")).toEqual({ ok: true, data: { player: "p", secret: "new", name: "Sam" } });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/api/transfer", body: { code: "ABCD-EFGH" } });
  });
});
