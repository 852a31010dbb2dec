import { describe, expect, it } from "vitest";
import { tk } from "./i18n";
import { tableSizes } from "./presets";
import {
  botsOffered,
  createTablePayload,
  defaultSettings,
  fixSettings,
  joinPayload,
  nameRequired,
  playerName,
  playNowSettings,
  settingsChips,
  settingsFrom,
  teamsNote,
} from "./tableSettings";
import { FACTS, preset } from "./test/presets";
import type { Settings } from "./types";

const DEFAULTS = defaultSettings(FACTS);

/** The default preset's facts at a table size. */
function tableFactsOf(players: number) {
  const found = preset(FACTS.default_preset).tables.find((table) => table.players === players);
  if (!found) throw new Error(`no table of ${players}`);
  return found;
}

function settings(patch: Partial<Settings>): Settings {
  return { ...DEFAULTS, ...patch };
}

const fix = (s: Settings) => fixSettings(s, FACTS);

describe("playerName", () => {
  const most = FACTS.limits.name_length;

  it("trims the name typed", () => {
    expect(playerName("  Ann ", most)).toBe("Ann");
  });

  it("refuses an empty name and one past the server's limit, counted as the server counts", () => {
    expect(playerName("   ", most)).toBeNull();
    expect(playerName("x".repeat(most + 1), most)).toBeNull();
    expect(playerName(` ${"x".repeat(most)} `, most)).toBe("x".repeat(most));
    // An emoji is one code point (two UTF-16 units): a name of them is taken up to the limit.
    expect(playerName("😀".repeat(13), most)).toBe("😀".repeat(13));
    expect(playerName("😀".repeat(most), most)).toBe("😀".repeat(most));
    expect(playerName("😀".repeat(most + 1), most)).toBeNull();
  });

  it("leaves the length to the server until its limit is known", () => {
    expect(playerName("x".repeat(100), null)).toBe("x".repeat(100));
    expect(playerName(" ", null)).toBeNull();
  });
});

describe("nameRequired", () => {
  it("says the served limit, or only that a name is needed before it is known", () => {
    expect(nameRequired(7)).toBe("Enter your name (1 to 7 characters).");
    expect(nameRequired(null)).toBe("Enter your name.");
  });
});

describe("defaultSettings", () => {
  it("starts from the server's default preset and defaults, at a table of four", () => {
    // Partners at four, as the server says a table of that size starts (teams_default), like Play now.
    expect(tableFactsOf(4).teams_default).toBe(true);
    expect(DEFAULTS.teams).toBe(playNowSettings(FACTS, DEFAULTS.bot_level).teams);
    expect(DEFAULTS).toEqual({
      preset: FACTS.default_preset,
      players: 4,
      teams: true,
      target: preset(FACTS.default_preset).options.target.default,
      turn_timer: FACTS.settings.turn_timer.default,
      bot_level: FACTS.settings.bot_level.default,
      hints: FACTS.settings.hints.default,
      shoot_the_moon: false,
      elimination: false,
      kitty: false,
    });
  });

  it("follows the server: another default preset, other defaults", () => {
    const five = preset("five_point");
    const moved: typeof FACTS = {
      ...FACTS,
      default_preset: "five_point",
      presets: FACTS.presets.map((p) =>
        p === five ? { ...five, options: { ...five.options, target: { default: 31, choices: [11, 31] } } } : p,
      ),
      settings: { ...FACTS.settings, turn_timer: { default: 30, choices: [0, 30] }, hints: { default: false } },
    };
    expect(defaultSettings(moved)).toMatchObject({ preset: "five_point", teams: true, target: 31, turn_timer: 30, hints: false });
  });
});

describe("playNowSettings", () => {
  it("is House at a table of four in two teams, with the server's defaults and the bots asked for", () => {
    const house = preset("house");
    expect(playNowSettings(FACTS, "beginner")).toEqual({
      preset: "house",
      players: 4,
      teams: true,
      target: house.options.target.default,
      turn_timer: FACTS.settings.turn_timer.default,
      bot_level: "beginner",
      hints: FACTS.settings.hints.default,
      shoot_the_moon: false,
      elimination: false,
      kitty: false,
    });
  });

  it("plays every level offered, and the server's default level for one the page does not offer", () => {
    expect(playNowSettings(FACTS, "expert").bot_level).toBe("expert");
    expect(playNowSettings(FACTS, "heuristic").bot_level).toBe("heuristic");
    expect(playNowSettings(FACTS, "genius").bot_level).toBe("heuristic");
  });

  it("gives the beginners to a player who last chose the random bots, no longer offered", () => {
    expect(playNowSettings(FACTS, "random").bot_level).toBe("beginner");
  });

  it("plays the server's default preset where the server has no House, in teams only if it can", () => {
    const withoutHouse: typeof FACTS = {
      ...FACTS,
      default_preset: "cutthroat",
      presets: FACTS.presets.filter((p) => p.name !== "house"),
    };
    expect(playNowSettings(withoutHouse, "heuristic")).toMatchObject({ preset: "cutthroat", players: 3, teams: false });
  });
});

describe("tableSizes", () => {
  it("lists a preset's table sizes with and without teams once each, smallest first", () => {
    expect(tableSizes(preset("house"))).toEqual([3, 4, 5, 6, 7, 8]);
    expect(tableSizes(preset("ten_point"))).toEqual([3, 4, 5, 6, 8]);
    expect(tableSizes(preset("cutthroat"))).toEqual([3]);
    expect(tableSizes(preset("five_point"))).toEqual([4, 6, 8]);
  });
});

describe("botsOffered", () => {
  it("offers three levels named for players, weakest first, and not the random bot the server also has", () => {
    expect(FACTS.settings.bot_level.choices).toContain("random");
    expect(botsOffered(FACTS)).toEqual(["beginner", "heuristic", "expert"]);
    expect(botsOffered(FACTS).map((level) => tk(`bot.${level}`))).toEqual(["Beginner", "Normal", "Expert"]);
  });

  it("offers only the levels the server has", () => {
    const levels = { default: "random", choices: ["random", "expert"] };
    const fewer = { ...FACTS, settings: { ...FACTS.settings, bot_level: levels } };
    expect(botsOffered(fewer)).toEqual(["expert"]);
    expect(fix(settings({ bot_level: "heuristic" })).bot_level).toBe("heuristic");
    expect(fixSettings(settings({ bot_level: "heuristic" }), fewer).bot_level).toBe("expert");
  });
});

describe("fixSettings", () => {
  it("keeps settings the preset allows", () => {
    const chosen = settings({ preset: "ten_point", players: 6, teams: true, target: 31, turn_timer: 30 });
    expect(fix(chosen)).toEqual(chosen);
  });

  it("moves to the nearest table size the preset has, the smaller on a tie", () => {
    expect(fix(settings({ preset: "cutthroat", players: 6 })).players).toBe(3);
    expect(fix(settings({ preset: "five_point", players: 7 })).players).toBe(6);
    expect(fix(settings({ preset: "five_point", players: 3 })).players).toBe(4);
  });

  it("turns teams off where the size has none and on where it needs them", () => {
    expect(fix(settings({ preset: "house", players: 5, teams: true })).teams).toBe(false);
    expect(fix(settings({ preset: "five_point", players: 4, teams: false })).teams).toBe(true);
    expect(fix(settings({ preset: "ten_point", players: 8, teams: false })).teams).toBe(true);
  });

  it("replaces values the landing page does not offer with the defaults", () => {
    const odd = { ...DEFAULTS, preset: "poker", target: 20, turn_timer: 5, bot_level: "genius" };
    const fixed = fix(odd as unknown as Settings);
    expect(fixed.preset).toBe("house");
    expect(fixed.target).toBe(21);
    expect(fixed.turn_timer).toBe(0);
    expect(fixed.bot_level).toBe("heuristic");
  });

  it("keeps the kitty ticked under a preset without one, for coming back to five_point", () => {
    expect(fix(settings({ preset: "house", kitty: true })).kitty).toBe(true);
  });
});

describe("settingsFrom", () => {
  it("gives the defaults when nothing was saved or the text is not JSON", () => {
    expect(settingsFrom(null, FACTS)).toEqual(DEFAULTS);
    expect(settingsFrom("{not json", FACTS)).toEqual(DEFAULTS);
  });

  it("fills what was saved with the defaults and fixes it", () => {
    const saved = settingsFrom(JSON.stringify({ preset: "five_point", players: 5, hints: false }), FACTS);
    expect(saved).toEqual({ ...DEFAULTS, preset: "five_point", players: 4, teams: true, hints: false });
  });

  it("remembers the level last chosen, the beginners for the random bots once offered", () => {
    for (const level of ["beginner", "heuristic", "expert"]) {
      expect(settingsFrom(JSON.stringify({ bot_level: level }), FACTS).bot_level).toBe(level);
    }
    expect(settingsFrom(JSON.stringify({ bot_level: "random" }), FACTS).bot_level).toBe("beginner");
  });
});

describe("teamsNote", () => {
  it("says how the preset seats teams at this size", () => {
    expect(teamsNote(preset("cutthroat"), 3)).toBe("Played by 3 players, each on their own.");
    expect(teamsNote(preset("ten_point"), 8)).toBe("With 8 players this game is played in teams.");
    expect(teamsNote(preset("house"), 4)).toBe(
      "Teams are possible with 4, 6, 8 players; partners sit across from each other.",
    );
  });
});

describe("teamsNote with alternate teams", () => {
  it("names the seats of each team at this table size, as the server draws them", () => {
    expect(teamsNote(preset("five_point"), 6)).toBe(
      "Always two teams whose members alternate around the table: seats 1, 3, and 5 play against seats 2, 4, and 6.",
    );
    expect(teamsNote(preset("five_point"), 4)).toBe(
      "Always two teams whose members alternate around the table: seats 1 and 3 play against seats 2 and 4.",
    );
  });
});

describe("createTablePayload", () => {
  it("sends the name and the settings, and the kitty only where the preset offers it", () => {
    const house = createTablePayload("Ann", settings({ kitty: true }), preset("house"));
    expect(house).toEqual({ name: "Ann", ...DEFAULTS, kitty: undefined });
    expect("kitty" in house).toBe(false);
    const chosen = settings({ preset: "five_point", players: 4, teams: true, kitty: true });
    const five = createTablePayload("Ann", chosen, preset("five_point"));
    expect(five.kitty).toBe(true);
    expect(five.preset).toBe("five_point");
  });

  it("links the host's seat to the player's profile when there is one", () => {
    const profile = { player: "k3J_x9QaZ0bd", secret: "s".repeat(32) };
    expect(createTablePayload("Ann", DEFAULTS, preset("house"), profile).profile).toEqual(profile);
    expect("profile" in createTablePayload("Ann", DEFAULTS, preset("house"), null)).toBe(false);
  });
});

describe("joinPayload", () => {
  it("asks for a seat under the name, with the profile when there is one", () => {
    expect(joinPayload("abcd1234", "Ann")).toEqual({ table: "abcd1234", name: "Ann" });
    const profile = { player: "k3J_x9QaZ0bd", secret: "s".repeat(32), name: "kept out" };
    expect(joinPayload("abcd1234", "Ann", profile)).toEqual({
      table: "abcd1234",
      name: "Ann",
      profile: { player: "k3J_x9QaZ0bd", secret: "s".repeat(32) },
    });
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
      { text: "bots: Normal" },
      { text: "hints off" },
    ]);
  });

  it("names the table's bots by their level", () => {
    const level = (bot_level: string) =>
      settingsChips(settings({ bot_level })).find((chip) => chip.text.startsWith("bots:"));
    expect(level("beginner")?.text).toBe("bots: Beginner");
    expect(level("heuristic")?.text).toBe("bots: Normal");
    expect(level("expert")?.text).toBe("bots: Expert");
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
