// What the client knows of each preset before a match starts (the lobby has no rules yet).

import type { Preset } from "./types";

/** Table sizes each preset allows, without and with teams (as smear.rules says). */
export const TABLE_SIZES: Record<Preset, { solo: number[]; teams: number[] }> = {
  house: { solo: [3, 4, 5, 6, 7, 8], teams: [4, 6, 8] },
  ten_point: { solo: [3, 4, 5, 6], teams: [4, 6, 8] },
  no_jick: { solo: [3, 4, 5, 6], teams: [4, 6, 8] },
  cutthroat: { solo: [3], teams: [] },
  five_point: { solo: [], teams: [4, 6, 8] },
  mcleod: { solo: [], teams: [4, 6] },
  widow: { solo: [3, 4], teams: [4] },
  nine_card: { solo: [3, 4, 5, 6], teams: [4, 6] },
};

/** Presets whose two teams alternate around the table instead of pairing across it. */
export const ALTERNATE_TEAMS: ReadonlySet<Preset> = new Set(["five_point"]);

/** Presets that offer the kitty option (the server refuses it for the others). */
export const KITTY_PRESETS: ReadonlySet<Preset> = new Set(["five_point"]);
