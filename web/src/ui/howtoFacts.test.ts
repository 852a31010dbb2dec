import { describe, expect, it } from "vitest";
import { preset } from "../test/presets";
import { dealTable, factValues, fillFacts, pointsTable, rankRuns } from "./howtoFacts";

describe("rankRuns", () => {
  it("writes the ranks of a suit as runs", () => {
    expect(rankRuns(["8", "9", "T", "J", "Q", "K", "A"])).toBe("8–A");
    expect(rankRuns(["2", "9", "T", "J", "Q", "K", "A"])).toBe("2, 9–A");
    expect(rankRuns(["T", "J", "Q", "K", "A"])).toBe("10–A");
    expect(rankRuns(["2", "4", "5"])).toBe("2, 4–5");
  });
});

describe("dealTable", () => {
  it("shows the deal at every size, leaving out what is zero everywhere", () => {
    expect(dealTable(preset("house"))).toEqual({
      head: ["Players", "Teams", "Ranks in each suit", "Jokers", "Cards in the deck", "Dealt to each", "Sleeping"],
      rows: [
        ["3", "alone", "10–A", "2", "22", "6", "4"],
        ["4", "alone or in teams", "8–A", "2", "30", "6", "6"],
        ["5", "alone", "7–A", "2", "34", "6", "4"],
        ["6", "alone or in teams", "5–A", "2", "42", "6", "6"],
        ["7", "alone", "4–A", "2", "46", "6", "4"],
        ["8", "alone or in teams", "2–A", "2", "54", "6", "6"],
      ],
    });
  });

  it("adds the cards kept, the widow and the stock where the preset has them", () => {
    const widow = dealTable(preset("widow"));
    expect(widow.head.slice(5)).toEqual(["Dealt to each", "Kept and played", "Widow", "Stock"]);
    expect(widow.rows).toEqual([
      ["3", "alone", "2–A", "2", "54", "9", "6", "4", "23"],
      ["4", "alone or in teams", "2–A", "2", "54", "9", "6", "4", "14"],
    ]);
    expect(dealTable(preset("five_point")).rows[0]).toEqual(["4", "in teams", "2, 9–A", "1", "29", "6", "5"]);
  });
});

describe("pointsTable", () => {
  it("lists each point and its worth, and the total of a hand", () => {
    expect(pointsTable(preset("ten_point"))).toEqual({
      head: ["Point", "Worth"],
      rows: [
        ["High", "1"],
        ["Low", "1"],
        ["Jack", "1"],
        ["Jick", "1"],
        ["Big joker", "1"],
        ["Little joker", "1"],
        ["Game", "1"],
        ["Trey", "3"],
        ["Every point of a hand", "10"],
      ],
    });
  });

  it("names the single joker of a one-joker deck simply the joker", () => {
    expect(pointsTable(preset("five_point")).rows.map(([name]) => name)).toEqual([
      "High",
      "Low",
      "Jack",
      "Joker",
      "Game",
      "Every point of a hand",
    ]);
  });
});

describe("factValues and fillFacts", () => {
  it("fills the prose with the preset's numbers", () => {
    const values = factValues(preset("widow"));
    expect(fillFacts("bids from {min_bid} to {max_bid}, the moon {moon_bid}", values)).toBe(
      "bids from 4 to 10, the moon 11",
    );
    expect(fillFacts("{cards_dealt} cards, a widow of {widow}, {points} points", values)).toBe(
      "9 cards, a widow of 4, 10 points",
    );
    expect(fillFacts("to {target} ({targets}; else {other_targets}), out at {elimination}", values)).toBe(
      "to 21 (11, 21, 31, or 52; else 11, 31, or 52), out at −21",
    );
  });

  it("leaves out a number that changes with the table size, and an unknown placeholder", () => {
    const values = factValues(preset("ten_point"));
    expect("cards_dealt" in values).toBe(false);
    expect(fillFacts("{cards_dealt} and {nothing}", values)).toBe("{cards_dealt} and {nothing}");
    expect(factValues(preset("five_point")).kitty).toBe(3);
    expect(factValues(preset("cutthroat")).sleeping).toBe(24);
  });

  it("names the server's Game values, full pack, table sizes and team seats", () => {
    const house = factValues(preset("house"));
    expect(fillFacts("ten {game_ten}, ace {game_ace}, king {game_king}, queen {game_queen}, jack {game_jack}, 2 {game_other}", house)).toBe(
      "ten 10, ace 4, king 3, queen 2, jack 1, 2 0",
    );
    expect(fillFacts("{pack_cards}; {min_players} to {max_players}; teams at {team_players}", house)).toBe(
      "52; 3 to 8; teams at 4, 6, or 8",
    );
    expect(fillFacts("sleeping {sleeping_odd} at odd sizes, {sleeping_even} at even ones", house)).toBe(
      "sleeping 4 at odd sizes, 6 at even ones",
    );
    expect(fillFacts("at {team_example_players}: {team_seats_a} against {team_seats_b}", factValues(preset("five_point")))).toBe(
      "at 6: 1, 3, and 5 against 2, 4, and 6",
    );
    expect(fillFacts("{dealt_at_max} rather than {dealt_at_min}", factValues(preset("mcleod")))).toBe("8 rather than 10");
  });
});
