// The limits and code shapes the server published (GET /api/presets, docs/protocol.md), read where
// the client checks what a person typed before sending it. The client keeps no copy of them: before
// the facts arrive it passes what was typed on, and the server, always the judge, answers a coded error.

import type { CodeShape, PresetsFacts, ServedLimits } from "./presets";
import { getApp } from "./store";

/** The server's facts once they have arrived, else null. */
export function servedFacts(): PresetsFacts | null {
  const presets = getApp().presets;
  return presets.status === "ready" ? presets.facts : null;
}

/** The server's limits once they have arrived, else null. */
export function servedLimits(): ServedLimits | null {
  return servedFacts()?.limits ?? null;
}

/** A text's length as the server counts it: code points of its NFC form (an emoji is one). */
export function textLength(text: string): number {
  return [...text.normalize("NFC")].length;
}

/**
 * What was typed, trimmed as the server trims it, or null when nothing is left or it is longer than
 * `most` (null: the limit is not known yet, and only an empty text is held back).
 */
export function withinLength(typed: string, most: number | null): string | null {
  const trimmed = typed.trim();
  if (trimmed.length === 0) return null;
  return most === null || textLength(trimmed) <= most ? trimmed : null;
}

/**
 * Whether `text` has the served shape; with no shape yet, any text that can sit in one segment of an
 * address (no slash, no space) is passed on for the server to judge.
 */
export function fitsShape(text: string, shape: CodeShape | null): boolean {
  if (shape === null) return text.length > 0 && !/[\s/?#]/.test(text);
  return new RegExp(shape.pattern).test(text) && text.length >= shape.min_length && text.length <= shape.max_length;
}
