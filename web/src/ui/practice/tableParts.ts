// The table's parts a practice position is drawn with (the hand, the trick, where seats sit, the bid
// chips), taken from the table's chunk once it is fetched: see `tableParts` in game/Game.tsx.

import type { tableParts } from "../game/Game";

export type TableParts = typeof tableParts;

let parts: TableParts | null = null;

/** Fetch the table's chunk (once); rejects when it cannot be had (the network). */
export async function loadTableParts(): Promise<void> {
  parts ??= (await import("../game/Game")).tableParts;
}

/** The table's parts; the page is shown only once loadTableParts has brought them. */
export function table(): TableParts {
  if (!parts) throw new Error("the table's parts are not loaded");
  return parts;
}
