import type { Preset } from "../types";

// The "How to play" pages: one module per language, each with every preset and the table options.

/** An item of a list, or one shown only where the preset offers that table option. */
export type Item = string | { option: "kitty"; text: string };

/**
 * A paragraph, a bulleted list, or a table drawn from the server's facts of the preset: the deal at
 * each table size, or the points of a hand. Text may name facts as {placeholders} (see ui/howtoFacts.ts).
 */
export type Block = string | { list: Item[] } | { facts: "deal" | "points" };

export interface Section {
  title: string;
  blocks: Block[];
}

export interface Page {
  title: string;
  intro: string;
  sections: Section[];
}

/** A page per preset, and the table options (shown at the end of every preset's page). */
export type HowTo = Record<Preset, Page> & { options: Section };
