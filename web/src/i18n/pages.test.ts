// @vitest-environment happy-dom
// The later pages' texts (./pages): a catalog of their own per language, fetched with those pages and
// not before the first page, read after the main catalog, and fetched again on a language switch once a
// page has shown them. Each test loads the i18n module anew, with the chunks replaced by ones that count
// their fetches.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as main from "./en";
import * as mainEs from "./es";
import * as mainFr from "./fr";
import * as mainIt from "./it";
import * as mainPt from "./pt";
import * as pages from "./pages/en";
import * as pagesEs from "./pages/es";
import * as pagesFr from "./pages/fr";
import * as pagesIt from "./pages/it";
import * as pagesPt from "./pages/pt";
import type { Lang } from "./index";

const MAIN = { en: main, es: mainEs, fr: mainFr, pt: mainPt, it: mainIt };
const PAGES = { en: pages, es: pagesEs, fr: pagesFr, pt: pagesPt, it: pagesIt };
const LANG_LIST = Object.keys(MAIN) as Lang[];

/** The chunks a test has fetched: "fr" for a main catalog, "pages/fr" for page texts. */
let fetched: string[] = [];

async function freshI18n(browserLang: string) {
  vi.stubGlobal("navigator", { language: browserLang, languages: [browserLang] });
  vi.resetModules();
  for (const lang of LANG_LIST) {
    vi.doMock(`./${lang}`, () => (fetched.push(lang), MAIN[lang]));
    vi.doMock(`./pages/${lang}`, () => (fetched.push(`pages/${lang}`), PAGES[lang]));
  }
  return import("./index");
}

beforeEach(() => {
  fetched = [];
  localStorage.clear();
});

afterEach(() => {
  for (const lang of LANG_LIST) {
    vi.doUnmock(`./${lang}`);
    vi.doUnmock(`./pages/${lang}`);
  }
  vi.unstubAllGlobals();
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
  vi.resetModules();
});

describe("the later pages' texts", () => {
  it("are a catalog apart: no key in both, the same keys in every language", () => {
    const pageKeys = Object.keys(pages.en).sort();
    expect(pageKeys.filter((key) => key in main.en)).toEqual([]);
    for (const lang of LANG_LIST) {
      const catalog = (PAGES[lang] as unknown as Record<Lang, object>)[lang];
      expect([lang, Object.keys(catalog).sort()]).toEqual([lang, pageKeys]);
    }
  });

  it("are not fetched before the first page, but with a page that shows them", async () => {
    const i18n = await freshI18n("fr");
    await i18n.startLang();
    expect(fetched).toEqual(["fr"]);
    expect(i18n.t("replay.title")).toBe("replay.title");

    const page = await i18n.withPageTexts(async () => "the page's chunk");
    expect(page).toBe("the page's chunk");
    expect(fetched).toEqual(["fr", "pages/fr"]);
    expect(i18n.t("replay.title")).toBe(pagesFr.fr["replay.title"]);
    expect(i18n.tn("profile.transfer_expires", 2, { time: "12:00" })).toBe(
      pagesFr.fr["profile.transfer_expires.other"].replace("{n}", "2").replace("{time}", "12:00"),
    );
    // The main catalog is read first, and still is.
    expect(i18n.t("app.retry")).toBe(mainFr.fr["app.retry"]);
  });

  it("of the new language come with its catalog on a switch, once a page has shown them", async () => {
    const i18n = await freshI18n("en");
    await i18n.startLang();
    await i18n.loadLang("es");
    expect(fetched).toEqual(["en", "es"]);

    await i18n.withPageTexts(async () => null);
    await i18n.loadLang("it");
    expect(fetched).toEqual(["en", "es", "pages/en", "it", "pages/it"]);
    i18n.setLang("it");
    expect(i18n.t("leaders.title")).toBe(pagesIt.it["leaders.title"]);
  });

  it("of a page first drawn come with the start, in English too when the picked language fails", async () => {
    const i18n = await freshI18n("pt");
    vi.doMock("./pt", () => {
      fetched.push("pt");
      throw new Error("the pt chunk cannot be fetched");
    });
    const page = i18n.withPageTexts(async () => "the page");
    await i18n.startLang();
    await page;
    expect(i18n.currentLang()).toBe("en");
    expect(fetched).toContain("pages/en");
    expect(i18n.t("howto.title")).toBe(pages.en["howto.title"]);
  });
});
