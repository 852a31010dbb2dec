import { describe, expect, it } from "vitest";
import { fetchPresets, loadPresets, presetFacts, tableFacts, tableSizes } from "./presets";
import { getApp } from "./store";
import { FACTS, preset } from "./test/presets";

/** A stand-in for fetch that answers every request with `body` (as JSON) and `status`, counting calls. */
function server(body: unknown, status = 200) {
  const asked: string[] = [];
  const get = (async (input: RequestInfo | URL) => {
    asked.push(String(input));
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
  return { get, asked };
}

describe("fetchPresets", () => {
  it("asks GET /api/presets and gives the facts", async () => {
    const { get, asked } = server(FACTS);
    expect(await fetchPresets(get)).toEqual(FACTS);
    expect(asked).toEqual(["/api/presets"]);
  });

  it("refuses an error status and an answer that is not the facts", async () => {
    await expect(fetchPresets(server(FACTS, 500).get)).rejects.toThrow("500");
    await expect(fetchPresets(server({ presets: [] }).get)).rejects.toThrow("not the facts");
    const unknownDefault = { ...FACTS, default_preset: "poker" };
    await expect(fetchPresets(server(unknownDefault).get)).rejects.toThrow("not the facts");
  });
});

describe("loadPresets", () => {
  it("says it failed, and asks again when tried again", async () => {
    await loadPresets(server({}, 503).get);
    expect(getApp().presets).toEqual({ status: "failed" });
    const again = server(FACTS);
    const asking = loadPresets(again.get);
    expect(getApp().presets).toEqual({ status: "loading" });
    await asking;
    expect(getApp().presets).toEqual({ status: "ready", facts: FACTS });
    // Once here, the facts are not asked for again.
    const later = server(FACTS);
    await loadPresets(later.get);
    expect(later.asked).toEqual([]);
  });
});

describe("reading the facts", () => {
  it("finds a preset and its deal at a table size", () => {
    expect(presetFacts(FACTS, "poker")).toBeNull();
    expect(presetFacts(FACTS, "widow")?.team_players).toEqual([4]);
    expect(tableFacts(preset("widow"), 4)).toMatchObject({ cards_dealt: 9, widow: 4, stock: 14 });
    expect(tableFacts(preset("widow"), 5)).toBeNull();
    expect(tableSizes(preset("mcleod"))).toEqual([4, 6]);
  });
});
