// Before every test file: the browser globals the app reads when its modules load, so the
// interface speaks English whatever the machine's language.

import { vi } from "vitest";

vi.stubGlobal("navigator", { language: "en", languages: ["en"] });

// Every language's catalog, English's included, fetched as the app fetches one before speaking it
// (after the stub above, which the catalogs' module reads when it loads): the tests' texts are there
// from the start, as the app's are once startLang has drawn the first page; and the later pages' texts.
const { LANGS, loadLang, loadPageTexts } = await import("../i18n");
await Promise.all(LANGS.flatMap((lang) => [loadLang(lang), loadPageTexts(lang)]));
