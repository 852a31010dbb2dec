// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Block, HowTo, Item, Section } from "../howto/types";
import { setLang, type Lang } from "../i18n";
import type { PresetFacts, PresetsFacts } from "../presets";
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

function itemText(item: Item): string {
  return typeof item === "string" ? item : item.text;
}

function blockTexts(block: Block): string[] {
  if (typeof block === "string") return [block];
  return "list" in block ? block.list.map(itemText) : [];
}

function sectionTexts(section: Section): string[] {
  return [section.title, ...section.blocks.flatMap(blockTexts)];
}

/** The texts of a section a preset's page shows: an item about an option it does not offer is left out. */
function shownTexts(section: Section, facts: PresetFacts): string[] {
  const shown = (item: Item) => typeof item === "string" || facts.options[item.option] !== undefined;
  const blocks = section.blocks.map((block) =>
    typeof block === "object" && "list" in block ? { list: block.list.filter(shown) } : block,
  );
  return sectionTexts({ ...section, blocks });
}

/** Every text of a language's pages: each preset's title, intro and sections, and the options. */
function texts(howto: HowTo): string[] {
  const presets = FACTS.presets.map((facts) => howto[facts.name]);
  return [...presets.flatMap((p) => [p.title, p.intro, ...p.sections.flatMap(sectionTexts)]), ...sectionTexts(howto.options)];
}

/**
 * The words of each language that write a count (of cards, players, points, tricks, hands, bids,
 * seats or sides): every figure is a {placeholder} instead. The indefinite articles a/an, un/une,
 * un/una, um/uma also mean "one" but are the language's article nearly everywhere, so they are not
 * listed; a count of one is written with the words that make it one ("un seul", "una sola"...),
 * and those are. Ranks and points named after a number (the ten of trump, the Trey) come from the
 * language's card and point names ({rank_T}, {point_trey}).
 */
const NUMBER_WORDS: Record<Lang, string[]> = {
  en: ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    .concat(["both", "twice", "single", "pair", "pairs", "twos", "threes"]),
  es: ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"]
    .concat(["ambos", "ambas", "un solo", "una sola", "un único", "una única", "doses", "treses"]),
  fr: ["zéro", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze"]
    .concat(["un seul", "une seule", "l’un", "l’une", "l'un", "l'une"]),
  it: ["zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "undici", "dodici"]
    .concat(["entrambi", "entrambe", "un solo", "una sola", "un unico", "una unica", "l’uno", "l'uno"]),
  pt: ["zero", "dois", "duas", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez", "onze", "doze"]
    .concat(["ambos", "ambas", "um só", "uma só", "um único", "uma única"]),
};

/** Uses of a number word that count nothing: Spanish "cada uno/una" is "each" (every player). */
const NOT_FIGURES: Partial<Record<Lang, RegExp>> = { es: /(?<![\p{L}])cada un[oa](?![\p{L}])/giu };

/** The number words of `lang` found in `text` outside its {placeholders}. */
function numberWords(lang: Lang, text: string): string[] {
  const words = NUMBER_WORDS[lang].map((word) => word.replace(/[’']/g, "[’']"));
  const pattern = new RegExp(`(?<![\\p{L}])(?:${words.join("|")})(?![\\p{L}])`, "giu");
  const prose = text.replace(/\{\w+\}/g, "").replace(NOT_FIGURES[lang] ?? /$^/, "");
  return prose.match(pattern) ?? [];
}

describe("the How to play pages", () => {
  it.each(LANGS)("write no figure of their own in %s", (lang) => {
    const found = texts(page(lang)).filter((text) => /\d/.test(text.replace(/\{\w+\}/g, "")));
    expect(found).toEqual([]);
  });

  it.each(LANGS)("write no number as a word in %s", (lang) => {
    const found = texts(page(lang)).flatMap((text) => numberWords(lang, text).map((word) => `${word}: ${text}`));
    expect(found).toEqual([]);
  });

  it("find the number words the check looks for", () => {
    expect(numberWords("en", "Six tricks, {hand_size} cards")).toEqual(["Six"]);
    expect(numberWords("fr", "Un seul joker et une carte")).toEqual(["Un seul"]);
    expect(numberWords("pt", "Três jogadores, uma carta")).toEqual(["Três"]);
    expect(numberWords("es", "cada jugador, doscientos, cada uno")).toEqual([]);
    expect(numberWords("es", "uno de ellos")).toEqual(["uno"]);
  });

  it.each(LANGS)("name only facts the server sends, in %s", (lang) => {
    const howto = page(lang);
    for (const facts of FACTS.presets) {
      const values = factValues(facts);
      const p = howto[facts.name];
      const all = [p.title, p.intro, ...p.sections.flatMap(sectionTexts), ...shownTexts(howto.options, facts)];
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

  /** The rendered page of `preset` in `lang` once `change` has changed its facts. */
  async function changedPage(lang: Lang, preset: Preset, change: (facts: PresetFacts) => void): Promise<string> {
    act(() => render(null, root));
    return shown(lang, changed(preset, change), preset);
  }

  it.each(LANGS)("follows ten-point's usual deal and its points' total in %s", async (lang) => {
    const before = await shown(lang, FACTS, "ten_point");
    expect(before).not.toContain("47");
    expect(before).not.toContain("43");
    const after = await changedPage(lang, "ten_point", (facts) => {
      facts.cards_dealt = 47;
      facts.points_total = 43;
    });
    expect(after).toContain("47");
    expect(after.match(/43/g)?.length).toBeGreaterThanOrEqual(2); // the intro and the points' total
  });

  it.each(LANGS)("follows the widow's size in %s", async (lang) => {
    const before = await shown(lang, FACTS, "widow");
    expect(before).not.toContain("613");
    const after = await changedPage(lang, "widow", (facts) => {
      for (const table of facts.tables) table.widow = 613;
    });
    // The intro, the deal's text, the widow's section and each row of the deal's table.
    expect(after.match(/613/g)?.length).toBeGreaterThanOrEqual(3 + tableCount("widow"));
  });

  it.each(LANGS)("follows the moon's reset score and the kitty's cards in %s", async (lang) => {
    const before = await shown(lang, FACTS, "five_point");
    expect(before).not.toContain("39");
    expect(before).not.toContain("37");
    const after = await changedPage(lang, "five_point", (facts) => {
      facts.options.shoot_the_moon.reset_score = 39;
      if (facts.options.kitty) facts.options.kitty.held = 37;
    });
    expect(after).toContain("39");
    expect(after).toContain("37");
  });

  it.each(LANGS)("shows the kitty's option only where the preset offers it, in %s", async (lang) => {
    const kitty = page(lang).options.blocks.flatMap((block) =>
      typeof block === "object" && "list" in block ? block.list.filter((item) => typeof item !== "string") : [],
    );
    expect(kitty).toHaveLength(1);
    const text = (item: Item) => (typeof item === "string" ? item : item.text);
    const opening = text(kitty[0]).split(":")[0];
    expect(await shown(lang, FACTS, "five_point")).toContain(`${opening}:`);
    act(() => render(null, root));
    expect(await shown(lang, FACTS, "house")).not.toContain(`${opening}:`);
  });
});

/** The table sizes of a preset in the fixture. */
function tableCount(name: Preset): number {
  return FACTS.presets.find((preset) => preset.name === name)?.tables.length ?? 0;
}
