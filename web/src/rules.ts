// What the client knows of each preset before a match starts (the lobby has no rules yet), and a
// few readings of the rules a state carries.

import { parseCard } from "./cards";
import type { Phase, Preset, RulesInfo, SuitLetter } from "./types";

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

/** The phases of a hand in which someone is to act. */
export const ACTIVE_PHASES: ReadonlySet<Phase> = new Set<Phase>(["auction", "widow", "trump", "discard", "play"]);

/** Presets whose two teams alternate around the table instead of pairing across it. */
export const ALTERNATE_TEAMS: ReadonlySet<Preset> = new Set(["five_point"]);

/** Presets that offer the kitty option (the server refuses it for the others). */
export const KITTY_PRESETS: ReadonlySet<Preset> = new Set(["five_point"]);

/** A bid above the preset's highest is the moon (there only when the option is on). */
export function isMoon(rules: RulesInfo, bid: number | null | undefined): boolean {
  return typeof bid === "number" && bid > rules.max_bid;
}

/** A game with a single joker (five_point): its one point is simply "the joker". */
export function oneJoker(rules: RulesInfo): boolean {
  return rules.points.includes("big_joker") && !rules.points.includes("little_joker");
}

/** The suit of the same colour as `suit`: the jick's suit. */
const PARTNER: Record<SuitLetter, SuitLetter> = { c: "s", s: "c", d: "h", h: "d" };

/** Whether `card` is a trump this hand: the trump suit, the jick where it is played, the jokers. */
export function isTrump(rules: RulesInfo, trump: SuitLetter | null, card: string): boolean {
  const parsed = parseCard(card);
  if (!parsed || trump === null) return false;
  if (parsed.joker) return true;
  if (parsed.suit === trump) return true;
  return rules.points.includes("jick") && parsed.rank === "J" && parsed.suit === PARTNER[trump];
}
