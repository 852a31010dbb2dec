// The "How to play" pages: one module per language, each with both presets.

/** A paragraph, a bulleted list, or a table whose first row is the header. */
export type Block = string | { list: string[] } | { table: string[][] };

export interface Section {
  title: string;
  blocks: Block[];
}

export interface Page {
  title: string;
  intro: string;
  sections: Section[];
}

export type HowTo = Record<"house" | "ten_point", Page>;
