import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeOf } from "./routes";
import {
  claimCodeFrom,
  claimPath,
  isPlayerId,
  leaderboardPath,
  matchPath,
  playersRoute,
  profilePath,
} from "./playersRoutes";
import { update } from "./store";
import { FACTS } from "./test/presets";

const TRANSFER = FACTS.shapes.transfer_code;

/** With the server's facts here (the addresses read once the app has them). */
function withFacts(): void {
  beforeEach(() => update({ presets: { status: "ready", facts: FACTS } }));
  afterEach(() => update({ presets: { status: "loading" } }));
}

describe("the players' addresses", () => {
  withFacts();

  it("reads a profile's page, a person's or a bot's", () => {
    expect(routeOf("/p/k3J_x9QaZ0bd", "")).toEqual({ kind: "profile", player: "k3J_x9QaZ0bd" });
    expect(routeOf("/p/bot-heuristic/", "")).toEqual({ kind: "profile", player: "bot-heuristic" });
    expect(routeOf("/p/", "")).toEqual({ kind: "not_found" });
    expect(routeOf("/p/a%20b", "")).toEqual({ kind: "not_found" });
    expect(routeOf("/p/a/b", "")).toEqual({ kind: "not_found" });
    expect(routeOf("/p/%E0%A4%A", "")).toEqual({ kind: "not_found" });
  });

  it("reads a leaderboard of a game the server has; with no game named, the server's default one", () => {
    expect(routeOf("/leaderboard/ten_point", "")).toEqual({ kind: "leaderboard", preset: "ten_point", with: null });
    expect(routeOf("/leaderboard", "")).toEqual({ kind: "leaderboard", preset: null, with: null });
    expect(routeOf("/leaderboard/", "")).toEqual({ kind: "leaderboard", preset: null, with: null });
    expect(routeOf("/leaderboard/no_such_game", "")).toEqual({ kind: "not_found" });
    expect(routeOf("/leaderboard/house", "?with=k3J_x9QaZ0bd")).toEqual({
      kind: "leaderboard",
      preset: "house",
      with: "k3J_x9QaZ0bd",
    });
    expect(routeOf("/leaderboard/house", "?with=no%20way")).toEqual({ kind: "leaderboard", preset: "house", with: null });
    expect(routeOf("/leaderboard/House!", "")).toEqual({ kind: "not_found" });
  });

  it("reads the claim page, with the code the link carries", () => {
    expect(routeOf("/claim", "?code=ABCD-EFGH")).toEqual({ kind: "claim", code: "ABCD-EFGH" });
    expect(routeOf("/claim/", "")).toEqual({ kind: "claim", code: "" });
    expect(playersRoute("/claims", "")).toBeNull();
  });

  it("leaves the other addresses alone", () => {
    expect(playersRoute("/", "")).toBeNull();
    expect(playersRoute("/t/abcd1234", "")).toBeNull();
    expect(routeOf("/t/abcd1234", "")).toEqual({ kind: "table", code: "abcd1234", watch: false });
  });

  it("makes the addresses it reads", () => {
    expect(routeOf(profilePath("k3J_x9QaZ0bd"), "")).toEqual({ kind: "profile", player: "k3J_x9QaZ0bd" });
    expect(leaderboardPath("house")).toBe("/leaderboard/house");
    expect(leaderboardPath("house", "k3J_x9QaZ0bd")).toBe("/leaderboard/house?with=k3J_x9QaZ0bd");
    expect(leaderboardPath(null)).toBe("/leaderboard");
    expect(routeOf(leaderboardPath(null), "")).toEqual({ kind: "leaderboard", preset: null, with: null });
    expect(claimPath()).toBe("/claim");
    expect(claimPath("ABCD-EFGH")).toBe("/claim?code=ABCD-EFGH");
    expect(matchPath("Qw3eRt5yUi8o")).toBe("/m/Qw3eRt5yUi8o");
  });
});

describe("before the server's facts arrive", () => {
  it("passes what the address holds on, for the server to answer about", () => {
    expect(routeOf("/leaderboard/no_such_game", "")).toEqual({
      kind: "leaderboard",
      preset: "no_such_game",
      with: null,
    });
    expect(routeOf("/p/ab", "")).toEqual({ kind: "profile", player: "ab" });
    expect(routeOf("/p/a%20b", "")).toEqual({ kind: "not_found" });
  });
});

describe("isPlayerId", () => {
  it("takes the served shape", () => {
    const shape = FACTS.shapes.player_id;
    expect(isPlayerId("k3J_x9QaZ0bd", shape)).toBe(true);
    expect(isPlayerId("a".repeat(shape.min_length - 1), shape)).toBe(false);
    expect(isPlayerId("a".repeat(shape.max_length + 1), shape)).toBe(false);
  });
});

describe("claimCodeFrom", () => {
  it("takes the code as typed, in capitals, in the server's groups", () => {
    expect(claimCodeFrom(" ABCD-EFGH ", TRANSFER)).toBe("ABCD-EFGH");
    expect(claimCodeFrom("abcd-efgh", TRANSFER)).toBe("ABCD-EFGH");
    expect(claimCodeFrom("ABCD EFGH", TRANSFER)).toBe("ABCD-EFGH");
    expect(claimCodeFrom("abcdefgh", TRANSFER)).toBe("ABCD-EFGH");
    expect(claimCodeFrom("ab-cdef-gh", TRANSFER)).toBe("ABCD-EFGH");
  });

  it("follows the shape served: its groups, its length and its letters", () => {
    expect(claimCodeFrom("abcdefgh", { ...TRANSFER, group: 2 })).toBe("AB-CD-EF-GH");
    expect(claimCodeFrom("abcdefg", TRANSFER)).toBeNull();
    expect(claimCodeFrom("abcdefghj", TRANSFER)).toBeNull();
    expect(claimCodeFrom("abcd-efg0", TRANSFER)).toBeNull(); // no 0 to mistake for an O
  });

  it("takes the code out of the claim link", () => {
    expect(claimCodeFrom("https://smear.example/claim?code=ABCD-EFGH", TRANSFER)).toBe("ABCD-EFGH");
    expect(claimCodeFrom("smear.example/claim?x=1&code=abcd-efgh#top", TRANSFER)).toBe("ABCD-EFGH");
  });

  it("gives null when there is no code", () => {
    expect(claimCodeFrom("", TRANSFER)).toBeNull();
    expect(claimCodeFrom("hello there!", TRANSFER)).toBeNull();
    expect(claimCodeFrom("https://smear.example/claim", TRANSFER)).toBeNull();
  });

  it("passes the letters typed on to the server before the shape is known", () => {
    expect(claimCodeFrom("abcd efg0", null)).toBe("ABCDEFG0");
    expect(claimCodeFrom("  ", null)).toBeNull();
  });
});
