// The server's answer to GET /api/presets, as it is today: tests/server/test_facts.py fails when
// presets.json differs from smear.server.facts.presets_json(), so these facts never drift.

import type { PresetFacts, PresetsFacts } from "../presets";
import answer from "./presets.json";

// Through unknown: the JSON module's inferred type is narrower than the one the server documents.
export const FACTS = answer as unknown as PresetsFacts;

/** One preset's facts, by name. */
export function preset(name: string): PresetFacts {
  const found = FACTS.presets.find((facts) => facts.name === name);
  if (!found) throw new Error(`no preset ${name} in the fixture`);
  return found;
}
