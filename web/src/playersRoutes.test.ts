import { describe, expect, it } from "vitest";
import { routeOf } from "./routes";
import { claimCodeFrom, claimPath, leaderboardPath, matchPath, playersRoute, profilePath } from "./playersRoutes";

describe("the players' addresses", () => {
  it("reads a profile's page, a person's or a bot's", () => {
    expect(routeOf("/p/k3J_x9QaZ0bd", "")).toEqual({ kind: "profile", player: "k3J_x9QaZ0bd" });
    expect(routeOf("/p/bot-heuristic/", "")).toEqual({ kind: "profile", player: "bot-heuristic" });
    expect(routeOf("/p/", "")).toEqual({ kind: "landing" });
    expect(routeOf("/p/a%20b", "")).toEqual({ kind: "landing" });
    expect(routeOf("/p/a/b", "")).toEqual({ kind: "landing" });
    expect(routeOf("/p/%E0%A4%A", "")).toEqual({ kind: "landing" });
  });

  it("reads a leaderboard, House's when no game is named", () => {
    expect(routeOf("/leaderboard/ten_point", "")).toEqual({ kind: "leaderboard", preset: "ten_point", with: null });
    expect(routeOf("/leaderboard", "")).toEqual({ kind: "leaderboard", preset: "house", with: null });
    expect(routeOf("/leaderboard/", "")).toEqual({ kind: "leaderboard", preset: "house", with: null });
    expect(routeOf("/leaderboard/house", "?with=k3J_x9QaZ0bd")).toEqual({
      kind: "leaderboard",
      preset: "house",
      with: "k3J_x9QaZ0bd",
    });
    expect(routeOf("/leaderboard/house", "?with=no%20way")).toEqual({ kind: "leaderboard", preset: "house", with: null });
    expect(routeOf("/leaderboard/House!", "")).toEqual({ kind: "landing" });
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
    expect(claimPath()).toBe("/claim");
    expect(claimPath("ABCD-EFGH")).toBe("/claim?code=ABCD-EFGH");
    expect(matchPath("Qw3eRt5yUi8o")).toBe("/m/Qw3eRt5yUi8o");
  });
});

describe("claimCodeFrom", () => {
  it("takes the code as typed, in capitals, without spaces", () => {
    expect(claimCodeFrom(" ABCD-EFGH ")).toBe("ABCD-EFGH");
    expect(claimCodeFrom("abcd-efgh")).toBe("ABCD-EFGH");
    expect(claimCodeFrom("ABCD EFGH")).toBe("ABCD-EFGH");
    expect(claimCodeFrom("abcdefgh")).toBe("ABCD-EFGH");
  });

  it("takes the code out of the claim link", () => {
    expect(claimCodeFrom("https://smear.example/claim?code=ABCD-EFGH")).toBe("ABCD-EFGH");
    expect(claimCodeFrom("smear.example/claim?x=1&code=abcd-efgh#top")).toBe("ABCD-EFGH");
  });

  it("gives null when there is no code", () => {
    expect(claimCodeFrom("")).toBeNull();
    expect(claimCodeFrom("hello there!")).toBeNull();
    expect(claimCodeFrom("https://smear.example/claim")).toBeNull();
  });
});
