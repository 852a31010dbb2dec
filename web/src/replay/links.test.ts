import { describe, expect, it } from "vitest";
import { routeOf } from "../routes";
import { isMatchId, matchRecordUrl, matchReplayPath, replayRouteOf } from "./links";
import { positionFromSearch } from "./steps";
import { fixtureView } from "./fixture";

describe("replay addresses", () => {
  it("links to a match, at a place in it if given", () => {
    expect(matchReplayPath("Qw3eRt5yUi8o")).toBe("/m/Qw3eRt5yUi8o");
    expect(matchReplayPath("Qw3eRt5yUi8o", { hand: 2, step: 2 })).toBe("/m/Qw3eRt5yUi8o?hand=3&step=2");
    expect(matchRecordUrl("Qw3eRt5yUi8o")).toBe("/api/matches/Qw3eRt5yUi8o");
  });

  it("opens a share link at the place it was copied at", () => {
    const link = new URL(`https://smear.example${matchReplayPath("Qw3eRt5yUi8o", { hand: 1, step: 1 })}`);
    expect(routeOf(link.pathname, link.search)).toEqual({ kind: "replay", match: "Qw3eRt5yUi8o" });
    expect(positionFromSearch(fixtureView(), link.search)).toEqual({ hand: 1, step: 1 });
  });

  it("reads the replay pages from an address", () => {
    expect(replayRouteOf("/m/Qw3eRt5yUi8o")).toEqual({ match: "Qw3eRt5yUi8o" });
    expect(replayRouteOf("/m/Qw3eRt5yUi8o/")).toEqual({ match: "Qw3eRt5yUi8o" });
    expect(replayRouteOf("/replay")).toEqual({ match: null });
    expect(replayRouteOf("/replay/")).toEqual({ match: null });
    expect(replayRouteOf("/m/")).toBeNull();
    expect(replayRouteOf("/m/a b")).toBeNull();
    expect(replayRouteOf("/m/%E0%A4%A")).toBeNull();
    expect(replayRouteOf("/m/abcd1234/more")).toBeNull();
    expect(routeOf("/replay", "")).toEqual({ kind: "replay", match: null });
    expect(routeOf("/m/x", "")).toEqual({ kind: "not_found" });
  });

  it("takes match ids of URL-safe characters", () => {
    expect(isMatchId("k3J_x9QaZ0bd")).toBe(true);
    expect(isMatchId("a-b_c")).toBe(true);
    expect(isMatchId("abc")).toBe(false);
    expect(isMatchId("abc/def")).toBe(false);
  });
});
