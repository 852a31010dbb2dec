// Before every test file: the browser globals the app reads when its modules load, so the
// interface speaks English whatever the machine's language.

import { afterEach, vi } from "vitest";

vi.stubGlobal("navigator", { language: "en", languages: ["en"] });

// Every language's catalog, English's included, fetched as the app fetches one before speaking it
// (after the stub above, which the catalogs' module reads when it loads): the tests' texts are there
// from the start, as the app's are once startLang has drawn the first page; and the later pages' texts.
const { LANGS, currentLang, loadLang, loadPageTexts, setLang, setSingleJoker } = await import("../i18n");
await Promise.all(LANGS.flatMap((lang) => [loadLang(lang), loadPageTexts(lang)]));

// Each test leaves the page as it first was: English, the house's two jokers, the store as the app
// first makes it, nothing in the browser's storage. The test files of a worker share their modules
// and their document (vitest's isolate is off: a fresh environment for each file took three quarters
// of the run), so a test that switched language, filled the store or saved a choice would otherwise
// leave it so for the next file. After each test rather than before: the language is switched back
// while the test's document is still there.
const { getApp, update } = await import("../store");
const firstState = getApp();
afterEach(() => {
  if (currentLang() !== "en") setLang("en");
  setSingleJoker(false);
  update(firstState);
  if (typeof localStorage !== "undefined" && typeof localStorage.clear === "function") localStorage.clear();
});
