import { describe, expect, it } from "vitest";
import type { MatchSummary, PlayerProfile, PresetStats } from "./playersApi";
import { botLabel, matchesText, matchView, percentText, playedPresets, ratingText, shownName, statRows } from "./playersView";

const STATS: PresetStats = {
  matches: 3, wins: 2, hands: 27, points: 51, points_per_hand: 1.89, bids_won: 9, bids_made: 7,
  average_bid: 3.4, sets: 2, moons_tried: 1, moons_made: 0, high: 12, jack: 8, game: 11,
};

function match(patch: Partial<MatchSummary>): MatchSummary {
  return {
    match: "m1", preset: "house", finished_at: 1764680000,
    players: [
      { seat: 0, name: "Sam", player: "sam", bot: false },
      { seat: 1, name: "Ada", player: "ada", bot: false },
      { seat: 2, name: "Bo", player: null, bot: false },
      { seat: 3, name: "Cy", player: "bot-heuristic", bot: true },
    ],
    sides: [[0, 2], [1, 3]], scores: [21, 14], winner: 0, seat: 0, won: true,
    ...patch,
  };
}

describe("numbers", () => {
  it("writes the rating the server shows as a whole number, without grouping", () => {
    expect(ratingText(1000)).toBe("1000");
    expect(ratingText(996)).toBe("996");
    expect(ratingText(0)).toBe("0");
  });

  it("gives a share as a percentage, or a dash when there is nothing to share", () => {
    expect(percentText(12, 27)).toBe("44%");
    expect(percentText(0, 0)).toBe("—");
  });

  it("counts matches", () => {
    expect(matchesText(1)).toBe("1 match");
    expect(matchesText(3)).toBe("3 matches");
  });
});

describe("statRows", () => {
  it("puts a preset's statistics into rows", () => {
    expect(statRows(STATS)).toEqual([
      { label: "Matches", value: "3" },
      { label: "Wins", value: "2 (67%)" },
      { label: "Hands played", value: "27" },
      { label: "Points per hand", value: "1.89" },
      { label: "Bids won / made", value: "9 / 7" },
      { label: "Average winning bid", value: "3.4" },
      { label: "Bids set", value: "2" },
      { label: "Moons tried / made", value: "1 / 0" },
      { label: "Hands with High", value: "44%" },
      { label: "Hands with Jack", value: "30%" },
      { label: "Hands with Game", value: "41%" },
    ]);
  });

  it("gives dashes where there is no bid and no hand", () => {
    const none = { ...STATS, matches: 0, wins: 0, hands: 0, average_bid: null, high: 0 };
    const rows = Object.fromEntries(statRows(none).map((row) => [row.label, row.value]));
    expect(rows["Average winning bid"]).toBe("—");
    expect(rows["Points per hand"]).toBe("—");
    expect(rows["Hands with High"]).toBe("—");
    expect(rows.Wins).toBe("0 (—)");
  });
});

describe("playedPresets", () => {
  it("lists the presets played, in the server's order, unknown ones last", () => {
    const profile: PlayerProfile = {
      player: "p", name: "N", bot: false, since: 0, finished: 0, left: 0,
      ratings: { widow: { rating: 1, mu: 0, sigma: 0, matches: 1 }, zzz: { rating: 0, mu: 0, sigma: 0, matches: 2 } },
      stats: { house: STATS, ten_point: { ...STATS, matches: 0 } },
    };
    expect(playedPresets(profile, ["house", "ten_point", "widow"])).toEqual(["house", "widow", "zzz"]);
  });

  it("lists every rating of a bot, played or not", () => {
    const none = { rating: 21, mu: 27, sigma: 2, matches: 0 };
    const bot: PlayerProfile = {
      player: "bot-heuristic", name: "heuristic bot", bot: true, since: 0, finished: 0, left: 0,
      ratings: { widow: none, house: none }, stats: {},
    };
    expect(playedPresets(bot, ["house", "widow"])).toEqual(["house", "widow"]);
    expect(playedPresets({ ...bot, bot: false }, ["house", "widow"])).toEqual([]);
  });
});

describe("matchView", () => {
  it("names partners and opponents and gives the own side's score first", () => {
    const view = matchView(match({ seat: 1, won: false }));
    expect(view.partners.map((p) => p.name)).toEqual(["Cy"]);
    expect(view.opponents.map((p) => p.name)).toEqual(["Sam", "Bo"]);
    expect(view.won).toBe(false);
    expect(view.score).toBe("14 \u2013 21");
  });

  it("has no partners where everyone plays alone", () => {
    const view = matchView(
      match({
        players: [
          { seat: 0, name: "Sam", player: "sam", bot: false },
          { seat: 1, name: "Ada", player: "ada", bot: false },
          { seat: 2, name: "Bo", player: "bo", bot: false },
        ],
        sides: [[0], [1], [2]],
        scores: [11, -3, 21],
        seat: 1,
        winner: 2,
        won: false,
      }),
    );
    expect(view.partners).toEqual([]);
    expect(view.opponents.map((p) => p.name)).toEqual(["Sam", "Bo"]);
    expect(view.score).toBe("\u22123 \u2013 11 \u2013 21");
  });
});

describe("shownName", () => {
  it("names a bot level's profile by its label in the reader's language and leaves people's names alone", () => {
    expect(shownName("heuristic bot", "heuristic")).toBe("Normal bot");
    expect(shownName("expert bot", "expert")).toBe(botLabel("expert"));
    expect(shownName("genius bot", "genius")).toBe("bot");
    expect(shownName("Ann", null)).toBe("Ann");
    expect(shownName("Cy", undefined)).toBe("Cy");
  });
});

describe("botLabel", () => {
  it("gives every level the server offers a label, the same one the table, history and leaderboard show", () => {
    expect(["random", "beginner", "heuristic", "expert"].map(botLabel)).toEqual([
      "Random bot",
      "Beginner bot",
      "Normal bot",
      "Expert bot",
    ]);
    expect(botLabel(null)).toBe("bot");
  });
});
