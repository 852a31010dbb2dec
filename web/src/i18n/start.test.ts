// @vitest-environment happy-dom
// The first catalog a page fetches: its language's only, English when that cannot be had, and when no
// catalog can be, a message (in English, the entry's own texts) and a retry. Each test loads the i18n
// module anew (no catalog fetched yet), with the catalogs' chunks replaced by ones that count their
// fetches and fail while the test says so.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { it as italian } from "./it";
import { pt } from "./pt";
import { OFFLINE } from "./offline";
import type { Lang } from "./index";

const CATALOGS = { en, es, fr, pt, it: italian };

/** The catalogs' chunks a test has fetched, and those it makes fail. */
let fetched: Lang[] = [];
let offline = new Set<Lang>();

function mockCatalog(lang: Lang): void {
  vi.doMock(`./${lang}`, () => {
    fetched.push(lang);
    if (offline.has(lang)) throw new Error(`the ${lang} chunk cannot be fetched`);
    return { [lang]: CATALOGS[lang] };
  });
}

/** The i18n module as a page loads it: nothing fetched, the language picked from the browser. */
async function freshI18n(browserLang: string) {
  vi.stubGlobal("navigator", { language: browserLang, languages: [browserLang] });
  vi.resetModules();
  for (const lang of Object.keys(CATALOGS) as Lang[]) mockCatalog(lang);
  return import("./index");
}

beforeEach(() => {
  fetched = [];
  offline = new Set();
  localStorage.clear();
  document.body.innerHTML = '<div id="app"></div>';
  document.documentElement.lang = "";
});

afterEach(() => {
  for (const lang of Object.keys(CATALOGS)) vi.doUnmock(`./${lang}`);
  vi.unstubAllGlobals();
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
  vi.resetModules();
});

function alert(): HTMLElement | null {
  return document.querySelector<HTMLElement>("#app [role=alert]");
}

describe("startLang", () => {
  it("fetches the picked language's catalog and no other", async () => {
    const i18n = await freshI18n("es-MX");
    await i18n.startLang();
    expect(fetched).toEqual(["es"]);
    expect(i18n.currentLang()).toBe("es");
    expect(document.documentElement.lang).toBe("es");
    expect(i18n.t("app.retry")).toBe("Reintentar");
    expect(i18n.tn("profile.matches", 2)).toBe(es["profile.matches.other"].replace("{n}", "2"));
  });

  it("fetches English's catalog, like any other, for an English page", async () => {
    const i18n = await freshI18n("en-US");
    await i18n.startLang();
    expect(fetched).toEqual(["en"]);
    expect(i18n.t("app.retry")).toBe("Try again");
  });

  it("speaks English for this visit when the picked language's catalog cannot be had", async () => {
    const i18n = await freshI18n("fr");
    localStorage.setItem("smear.lang", "fr");
    offline.add("fr");
    await i18n.startLang();
    expect(fetched).toEqual(["fr", "en"]);
    expect(i18n.currentLang()).toBe("en");
    expect(document.documentElement.lang).toBe("en");
    expect(i18n.t("app.retry")).toBe("Try again");
    expect(localStorage.getItem("smear.lang")).toBe("fr");
    expect(alert()).toBeNull();
  });

  it("says that nothing could be loaded, and draws nothing until a retry brings a catalog", async () => {
    const i18n = await freshI18n("pt-BR");
    offline = new Set(["pt", "en"]);
    let started = false;
    const start = i18n.startLang().then(() => (started = true));
    await vi.waitFor(() => expect(alert()).not.toBeNull());
    expect(fetched).toEqual(["pt", "en"]);
    expect(alert()?.lang).toBe("en");
    expect(alert()?.querySelector("p")?.textContent).toBe(en["app.load_failed"]);
    const retry = alert()?.querySelector("button");
    expect(retry?.textContent).toBe(en["app.retry"]);
    expect(started).toBe(false);
    // Without a catalog t has the entry's two texts, and gives any other key as it is.
    expect(i18n.t("app.retry")).toBe(en["app.retry"]);
    expect(i18n.t("landing.play_now.button")).toBe("landing.play_now.button");
    expect(i18n.tk("error.brand_new_code")).toBe("error.brand_new_code");

    offline.clear();
    retry?.click();
    await start;
    expect(fetched).toEqual(["pt", "en", "pt"]);
    expect(i18n.currentLang()).toBe("pt");
    expect(document.documentElement.lang).toBe("pt");
    expect(document.getElementById("app")?.childElementCount).toBe(0);
    expect(i18n.t("landing.play_now.button")).toBe(pt["landing.play_now.button"]);
  });

  it("loads the page again when the retry fails too, as a new build may have replaced the chunks", async () => {
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    const i18n = await freshI18n("en");
    offline.add("en");
    let started = false;
    void i18n.startLang().then(() => (started = true));
    await vi.waitFor(() => expect(alert()).not.toBeNull());
    expect(alert()?.querySelector("p")?.textContent).toBe(en["app.load_failed"]);
    alert()?.querySelector("button")?.click();
    await vi.waitFor(() => expect(fetched).toEqual(["en", "en"]));
    await vi.waitFor(() => expect(alert()).not.toBeNull());
    expect(reload).not.toHaveBeenCalled();
    alert()?.querySelector("button")?.click();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(started).toBe(false);
  });
});

describe("the offline texts", () => {
  it("are English's own words", () => {
    for (const [key, text] of Object.entries(OFFLINE)) {
      expect([key, text]).toEqual([key, en[key as keyof typeof OFFLINE]]);
    }
  });
});
