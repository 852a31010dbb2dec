// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Block, HowTo, Section } from "../howto/types";
import { setLang, type Lang } from "../i18n";
import type { PresetsFacts } from "../presets";
import { update } from "../store";
import { FACTS } from "../test/presets";
import type { Preset } from "../types";
import { HowToDialog } from "./HowTo";
import { factValues, fillFacts } from "./howtoFacts";

// Every number of the "How to play" pages comes from the presets the server sends: the pages hold
// words and {placeholders} only, and a figure changed on the server changes the page.

const LANGS: Lang[] = ["en", "es", "fr", "it", "pt"];
const PAGES = import.meta.glob<{ howto: HowTo }>("../howto/[a-z][a-z].ts", { eager: true });

function page(lang: Lang): HowTo {
  const found = PAGES[`../howto/${lang}.ts`];
  if (!found) throw new Error(`no page in ${lang}`);
  return found.howto;
}

function blockTexts(block: Block): string[] {
  if (typeof block === "string") return [block];
  return "list" in block ? block.list : [];
}

function sectionTexts(section: Section): string[] {
  return [section.title, ...section.blocks.flatMap(blockTexts)];
}

/** Every text of a language's pages: each preset's title, intro and sections, and the options. */
function texts(howto: HowTo): string[] {
  const presets = FACTS.presets.map((facts) => howto[facts.name]);
  return [...presets.flatMap((p) => [p.title, p.intro, ...p.sections.flatMap(sectionTexts)]), ...sectionTexts(howto.options)];
}

describe("the How to play pages", () => {
  it.each(LANGS)("write no figure of their own in %s", (lang) => {
    const found = texts(page(lang)).filter((text) => /\d/.test(text.replace(/\{\w+\}/g, "")));
    expect(found).toEqual([]);
  });

  it.each(LANGS)("name only facts the server sends, in %s", (lang) => {
    const howto = page(lang);
    for (const facts of FACTS.presets) {
      const values = factValues(facts);
      const p = howto[facts.name];
      const all = [p.title, p.intro, ...p.sections.flatMap(sectionTexts), ...sectionTexts(howto.options)];
      const unfilled = all.map((text) => fillFacts(text, values)).filter((text) => /\{\w+\}/.test(text));
      expect([facts.name, unfilled]).toEqual([facts.name, []]);
    }
  });
});

/** The presets fixture with one preset's facts changed. */
function changed(name: Preset, change: (facts: PresetsFacts["presets"][number]) => void): PresetsFacts {
  const copy = structuredClone(FACTS);
  const facts = copy.presets.find((preset) => preset.name === name);
  if (!facts) throw new Error(`no preset ${name}`);
  change(facts);
  return copy;
}

describe("the How to play dialog", () => {
  const root = document.createElement("div");
  document.body.append(root);

  afterEach(() => {
    act(() => render(null, root));
    setLang("en");
    update({ lang: "en", presets: { status: "loading" } });
  });

  async function shown(lang: Lang, facts: PresetsFacts, preset: Preset): Promise<string> {
    setLang(lang);
    act(() => update({ lang, presets: { status: "ready", facts } }));
    act(() => render(<HowToDialog preset={preset} />, root));
    await vi.waitFor(() => expect(root.querySelector("article")).not.toBeNull());
    return root.querySelector("article")?.textContent ?? "";
  }

  it.each(LANGS)("follows the cards dealt and the sleeping cards of the house game in %s", async (lang) => {
    const before = await shown(lang, FACTS, "house");
    expect(before).not.toContain("17");
    expect(before).not.toContain("13");
    act(() => render(null, root));
    const facts = changed("house", (house) => {
      for (const table of house.tables) {
        table.cards_dealt = 17;
        table.sleeping = 13;
      }
    });
    const after = await shown(lang, facts, "house");
    // The intro and the deck's section say 17 cards, the deck's 13 sleeping ones at odd and even sizes.
    expect(page(lang).house.intro).toContain("{cards_dealt}");
    expect(after.match(/17/g)?.length).toBeGreaterThanOrEqual(2 + facts.presets[0].tables.length);
    expect(after.match(/13/g)?.length).toBeGreaterThanOrEqual(2 + facts.presets[0].tables.length);
  });

  it.each(LANGS)("follows the value of a ten towards Game in %s", async (lang) => {
    const before = await shown(lang, FACTS, "ten_point");
    expect(before).not.toContain("37");
    act(() => render(null, root));
    const after = await shown(
      lang,
      changed("ten_point", (facts) => {
        facts.game_values.T = 37;
      }),
      "ten_point",
    );
    expect(after).toContain("37");
  });
});
