import { describe, expect, it } from "vitest";
import {
  countsOf,
  createTablePayload,
  DEFAULT_SETTINGS,
  fixSettings,
  playerName,
  settingsChips,
  settingsFrom,
  teamsNote,
} from "./tableSettings";
import type { Settings } from "./types";

function settings(patch: Partial<Settings>): Settings {
  return { ...DEFAULT_SETTINGS, ...patch };
}

describe("playerName", () => {
  it("trims the name typed", () => {
    expect(playerName("  Ann ")).toBe("Ann");
  });

  it("refuses an empty name and one over 24 characters", () => {
    expect(playerName("   ")).toBeNull();
    expect(playerName("x".repeat(25))).toBeNull();
    expect(playerName(` ${"x".repeat(24)} `)).toBe("x".repeat(24));
  });
});

describe("countsOf", () => {
  it("lists a preset's table sizes with and without teams once each, smallest first", () => {
    expect(countsOf("house")).toEqual([3, 4, 5, 6, 7, 8]);
    expect(countsOf("ten_point")).toEqual([3, 4, 5, 6, 8]);
    expect(countsOf("cutthroat")).toEqual([3]);
    expect(countsOf("five_point")).toEqual([4, 6, 8]);
  });
});

describe("fixSettings", () => {
  it("keeps settings the preset allows", () => {
    const chosen = settings({ preset: "ten_point", players: 6, teams: true, target: 31, turn_timer: 30 });
    expect(fixSettings(chosen)).toEqual(chosen);
  });

  it("moves to the nearest table size the preset has, the smaller on a tie", () => {
    expect(fixSettings(settings({ preset: "cutthroat", players: 6 })).players).toBe(3);
    expect(fixSettings(settings({ preset: "five_point", players: 7 })).players).toBe(6);
    expect(fixSettings(settings({ preset: "five_point", players: 3 })).players).toBe(4);
  });

  it("turns teams off where the size has none and on where it needs them", () => {
    expect(fixSettings(settings({ preset: "house", players: 5, teams: true })).teams).toBe(false);
    expect(fixSettings(settings({ preset: "five_point", players: 4, teams: false })).teams).toBe(true);
    expect(fixSettings(settings({ preset: "ten_point", players: 8, teams: false })).teams).toBe(true);
  });

  it("replaces values the landing page does not offer with the defaults", () => {
    const odd = { ...DEFAULT_SETTINGS, preset: "poker", target: 20, turn_timer: 5, bot_level: "genius" };
    const fixed = fixSettings(odd as unknown as Settings);
    expect(fixed.preset).toBe("house");
    expect(fixed.target).toBe(21);
    expect(fixed.turn_timer).toBe(0);
    expect(fixed.bot_level).toBe("heuristic");
  });

  it("keeps the kitty ticked under a preset without one, for coming back to five_point", () => {
    expect(fixSettings(settings({ preset: "house", kitty: true })).kitty).toBe(true);
  });
});

describe("settingsFrom", () => {
  it("gives the defaults when nothing was saved or the text is not JSON", () => {
    expect(settingsFrom(null)).toEqual(DEFAULT_SETTINGS);
    expect(settingsFrom("{not json")).toEqual(DEFAULT_SETTINGS);
  });

  it("fills what was saved with the defaults and fixes it", () => {
    const saved = settingsFrom(JSON.stringify({ preset: "five_point", players: 5, hints: false }));
    expect(saved).toEqual({ ...DEFAULT_SETTINGS, preset: "five_point", players: 4, teams: true, hints: false });
  });
});

describe("teamsNote", () => {
  it("says how the preset seats teams at this size", () => {
    expect(teamsNote("cutthroat", 3)).toBe("Played by 3 players, each on their own.");
    expect(teamsNote("five_point", 4)).toMatch(/^Always two teams whose members alternate/);
    expect(teamsNote("ten_point", 8)).toBe("With 8 players this game is played in teams.");
    expect(teamsNote("house", 4)).toBe(
      "Teams are possible with 4, 6, 8 players; partners sit across from each other.",
    );
  });
});

describe("createTablePayload", () => {
  it("sends the name and the settings, and the kitty only where the preset offers it", () => {
    const house = createTablePayload("Ann", settings({ kitty: true }));
    expect(house).toEqual({ name: "Ann", ...DEFAULT_SETTINGS, kitty: undefined });
    expect("kitty" in house).toBe(false);
    const five = createTablePayload("Ann", settings({ preset: "five_point", players: 4, teams: true, kitty: true }));
    expect(five.kitty).toBe(true);
    expect(five.preset).toBe("five_point");
  });
});

describe("settingsChips", () => {
  it("lists the preset, the table, the options on, the timer, the bots and the hints", () => {
    const five = settings({ preset: "five_point", teams: true, kitty: true, turn_timer: 30, hints: false });
    expect(settingsChips(five)).toEqual([
      { text: "Five-point", kind: "preset" },
      { text: "4 players" },
      { text: "teams" },
      { text: "to 21" },
      { text: "kitty", kind: "option kitty" },
      { text: "30 s per turn" },
      { text: "bots: Sensible" },
      { text: "hints off" },
    ]);
  });

  it("lists every option on, in a fixed order", () => {
    const all = settingsChips(settings({ shoot_the_moon: true, elimination: true, kitty: true }));
    expect(all.filter((chip) => chip.kind?.startsWith("option")).map((chip) => chip.kind)).toEqual([
      "option moon",
      "option elimination",
      "option kitty",
    ]);
  });
});
