// The Practice page's texts, one small catalog per language in this page's chunk (words/), so the
// first page of the landing page and the table, which must stay within their script budget, carry
// none of them. The page fetches its language's before it shows (loadPracticeWords), and again when
// the language is switched; the app's catalog (i18n) holds the texts shared with other pages.

import { currentLang, type Lang } from "../../i18n";
import type { PracticeKey, PracticeWords } from "./words/en";

const FETCH: Record<Lang, () => Promise<PracticeWords>> = {
  en: () => import("./words/en").then((m) => m.en),
  es: () => import("./words/es").then((m) => m.es),
  fr: () => import("./words/fr").then((m) => m.fr),
  pt: () => import("./words/pt").then((m) => m.pt),
  it: () => import("./words/it").then((m) => m.it),
};
const LOADED: Partial<Record<Lang, PracticeWords>> = {};

/** Fetch a language's practice texts (once); rejects when they cannot be had (the network). */
export async function loadPracticeWords(lang: Lang): Promise<void> {
  LOADED[lang] ??= await FETCH[lang]();
}

export function hasPracticeWords(lang: Lang): boolean {
  return LOADED[lang] !== undefined;
}

function fill(template: string, args: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in args ? String(args[name]) : whole));
}

function words(): Partial<Record<string, string>> {
  return LOADED[currentLang()] ?? LOADED.en ?? {};
}

/** A practice text in the page's language, with its {placeholders} filled. */
export function pw(key: PracticeKey, args?: Record<string, string | number>): string {
  return fill(words()[key] ?? key, args);
}

/** A counted practice text: `${base}.one` or `${base}.other` by the language's plural rules. */
export function pwn(base: string, n: number, args: Record<string, string | number> = {}): string {
  const lang = currentLang();
  // As the app's catalog does: Portuguese reads "0" with the plural.
  const category = lang === "pt" && n === 0 ? "other" : new Intl.PluralRules(lang).select(n);
  const template = words()[`${base}.${category}`] ?? words()[`${base}.other`] ?? base;
  return fill(template, { n, ...args });
}

/** A theme's name by its id (the id itself for a theme this client has no name for). */
export function themeName(id: string): string {
  return words()[`theme.${id}`] ?? id;
}
