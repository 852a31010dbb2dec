// Interface strings: one catalog per language, chosen from the browser and switchable from the menu.
// Every catalog, English's too (the reference: the type checker makes the others complete), is a
// chunk of its own, fetched (loadLang) before it is spoken: startLang fetches the picked language's
// before the first page is drawn, so a page fetches its own language's catalog and no other. The
// entry holds only the two English texts that say no catalog could be fetched (./offline). t, tk and
// tn are synchronous: they read the catalog already fetched.
// The texts that only the pages fetched later show are a second catalog per language (./pages), fetched
// with those pages' chunks (withPageTexts), so the first page does not wait for them; t, tk and tn read
// it after the main catalog.

import { faceText, parseCard, shortCard, SUITS } from "../cards";
import type { ServerError, SuitLetter } from "../types";
import type { Catalog, MessageKey } from "./en";
import type { PageCatalog, PageKey } from "./pages/en";
import { OFFLINE, offlineNotice } from "./offline";

export type Lang = "en" | "es" | "fr" | "pt" | "it";
export const LANGS: Lang[] = ["en", "es", "fr", "pt", "it"];
/** Each language's name in that language, for the menu. */
export const LANG_NAMES: Record<Lang, string> = {
  en: "English",
  es: "Español",
  fr: "Français",
  pt: "Português",
  it: "Italiano",
};

const CATALOGS: Partial<Record<Lang, Catalog>> = {};
const FETCH_CATALOG: Record<Lang, () => Promise<Catalog>> = {
  en: () => import("./en").then((m) => m.en),
  es: () => import("./es").then((m) => m.es),
  fr: () => import("./fr").then((m) => m.fr),
  pt: () => import("./pt").then((m) => m.pt),
  it: () => import("./it").then((m) => m.it),
};
const PAGE_CATALOGS: Partial<Record<Lang, PageCatalog>> = {};
const FETCH_PAGE_CATALOG: Record<Lang, () => Promise<PageCatalog>> = {
  en: () => import("./pages/en").then((m) => m.en),
  es: () => import("./pages/es").then((m) => m.es),
  fr: () => import("./pages/fr").then((m) => m.fr),
  pt: () => import("./pages/pt").then((m) => m.pt),
  it: () => import("./pages/it").then((m) => m.it),
};
// Whether a page that shows the later pages' texts has been asked for: from then on, a language's page
// texts are fetched along with its main catalog, so a switch never shows such a page a raw key.
let pageTextsWanted = false;
const STORAGE_KEY = "smear.lang";

/** Any text's key: the main catalog's or the later pages' (the type checks both). */
export type TextKey = MessageKey | PageKey;

type Args = Record<string, string | number>;

let lang: Lang = pickLang();
let plural = new Intl.PluralRules(lang);

function pickLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && (LANGS as string[]).includes(saved)) return saved as Lang;
  } catch {
    // storage may be unavailable (private mode): fall through to the browser's languages
  }
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const base = (tag || "").toLowerCase().split("-")[0] as Lang;
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export function currentLang(): Lang {
  return lang;
}

/**
 * Fetch a language's catalog (once), and its page texts too once a page that shows them has been asked
 * for; rejects when they cannot be had (the network).
 */
export async function loadLang(wanted: Lang): Promise<void> {
  const main = async () => {
    CATALOGS[wanted] ??= await FETCH_CATALOG[wanted]();
  };
  await Promise.all([main(), pageTextsWanted ? loadPageTexts(wanted) : undefined]);
}

/** Fetch a language's page texts (once); rejects when they cannot be had (the network). */
export async function loadPageTexts(wanted: Lang): Promise<void> {
  PAGE_CATALOGS[wanted] ??= await FETCH_PAGE_CATALOG[wanted]();
}

/**
 * A later page's chunk (`load` imports it) together with the page texts of the language spoken:
 * resolves once both are here, so the page never draws a raw key. From this call on, loadLang fetches
 * a language's page texts too (a switch, or English at the start when the picked language fails).
 */
export async function withPageTexts<T>(load: () => Promise<T>): Promise<T> {
  pageTextsWanted = true;
  const [loaded] = await Promise.all([load(), loadPageTexts(lang)]);
  return loaded;
}

function speak(next: Lang): void {
  lang = next;
  plural = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
}

/**
 * Speak the picked language once its catalog is here, else English for this visit (the choice stays
 * remembered for the next); false when neither catalog can be had.
 */
async function fetchFirstCatalog(): Promise<boolean> {
  for (const next of new Set<Lang>([lang, "en"])) {
    try {
      await loadLang(next);
      speak(next);
      return true;
    } catch {
      // the next one, if any
    }
  }
  return false;
}

/**
 * Speak the language picked at the start once its catalog is here; English if it cannot be had.
 * When neither can, the page says so (in English, the entry's own texts) with a button that tries
 * again, and this waits; when that fails too, the button loads the page again. It resolves only once
 * a catalog is here, so the app is never drawn without one.
 */
export async function startLang(): Promise<void> {
  document.documentElement.lang = lang;
  let retried = false;
  while (!(await fetchFirstCatalog())) {
    await offlineNotice(retried);
    retried = true;
  }
}

/** Speak `next`, whose catalog loadLang has fetched (until then, its texts are not there: see catalog). */
export function setLang(next: Lang): void {
  speak(next);
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // not remembered, but still switched
  }
}

/**
 * The texts to read: the current language's catalog; before it is here (setLang called early, or no
 * catalog fetched yet), English's if fetched; before any, only the entry's two offline texts (t gives
 * any other key as it is).
 */
function catalog(): Partial<Record<string, string>> {
  return CATALOGS[lang] ?? CATALOGS.en ?? OFFLINE;
}

/** A key's text: the main catalog's, else the later pages' (in the same language, English's before). */
function textOf(key: string): string | undefined {
  return catalog()[key] ?? (PAGE_CATALOGS[lang] ?? PAGE_CATALOGS.en)?.[key as PageKey];
}

function fill(template: string, args?: Args): string {
  if (!args) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in args ? String(args[name]) : whole,
  );
}

/** The text of a key in the current language, with its {placeholders} filled. */
export function t(key: TextKey, args?: Args): string {
  return fill(textOf(key) ?? key, args);
}

/**
 * A key chosen at run time (an error code, a point name). Every catalog has the same keys (the type
 * checks it), so a key the current catalog lacks is in none: it comes back as the key itself, which
 * callers compare with to choose another text (errorText falls back to the server's message).
 */
export function tk(key: string, args?: Args): string {
  const template = textOf(key);
  return template === undefined ? key : fill(template, args);
}

/** A counted text: `${base}.one` or `${base}.other` by the language's plural rules; {n} is the count. */
export function tn(base: string, n: number, args?: Args): string {
  // Portuguese plural rules put 0 with 1 ("0 carta"); "0 cartas" reads more naturally.
  const category = lang === "pt" && n === 0 ? "other" : plural.select(n);
  const template = textOf(`${base}.${category}`) ?? textOf(`${base}.other`) ?? base;
  return fill(template, { n, ...args });
}

export function suitName(suit: SuitLetter): string {
  return tk(`suit.${suit}`);
}

export function suitTitle(suit: SuitLetter): string {
  return tk(`suit_title.${suit}`);
}

let singleJoker = false;

/** At a table whose deck has one joker (five_point), `BJ` is named simply "the joker". */
export function setSingleJoker(value: boolean): void {
  singleJoker = value;
}

/** "ace of hearts", "as de corazones"... for aria labels and messages. */
export function cardName(text: string): string {
  const card = parseCard(text);
  if (!card) return text;
  if (card.joker) return t(card.big ? (singleJoker ? "card.joker" : "card.big_joker") : "card.little_joker");
  return t("card.name", { rank: tk(`rank.${card.rank}`), suit: suitName(card.suit) });
}

/**
 * The name of a control that shows a card's face: the face's text, then the card's name ("8♣, eight
 * of clubs"), so the name holds the label seen; a name that holds it already stays as it is
 * ("big joker" and JOKER).
 */
export function faceName(text: string): string {
  const name = cardName(text);
  const face = faceText(text);
  return name.toLocaleLowerCase(lang).includes(face.toLocaleLowerCase(lang)) ? name : t("card.face", { face, name });
}

/** A card as short texts print it: "10♥", "A♠", with the jokers named in words. */
export function shortCardName(text: string): string {
  return parseCard(text)?.joker ? cardName(text) : shortCard(text);
}

/** A signed score change with one decimal in the language's own way: "+1.8", "-0,5", "0.0". */
export function signedPoints(points: number): string {
  return new Intl.NumberFormat(lang, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: "exceptZero",
  }).format(points);
}

/** A score as text, with a true minus sign: "−21". */
export function scoreText(n: number): string {
  return n < 0 ? `\u2212${-n}` : String(n);
}

/** A point's name; in a game with one joker its point is simply "Joker". */
export function pointName(point: string, oneJoker = false): string {
  return tk(oneJoker && point === "big_joker" ? "point.joker" : `point.${point}`);
}

/** A table option's name as the landing page shows it, by its name in the protocol. */
const OPTION_LABELS: Record<string, MessageKey> = {
  kitty: "landing.kitty",
  shoot_the_moon: "landing.moon",
  elimination: "landing.elimination",
};

/** The catalog prefix of each error code whose `reason_code` says why in more detail. */
const REASON_PREFIX: Record<string, string> = {
  illegal_action: "reason",
  rules_refused: "refused",
  bad_action: "bad_action",
};

/** A suit letter sent as a code (`led_suit`), if it is one. */
function suitOf(code: string | number | undefined): SuitLetter | null {
  return typeof code === "string" && (SUITS as string[]).includes(code) ? (code as SuitLetter) : null;
}

/** The args of a reason in words of the current language: names, suits, cards, phases, presets, bots. */
function reasonArgs(args: Args, seatName: (seat: number) => string): Args {
  const words: Args = { ...args };
  if (typeof args.to_act === "number") words.name = seatName(args.to_act);
  const led = suitOf(args.led_suit);
  if (led) words.led = suitName(led);
  if (typeof args.card === "string") words.card = args.card.split(" ").map(cardName).join(", ");
  if (typeof args.phase === "string") words.phase_action = tk(`phase_action.${args.phase}`);
  if (typeof args.preset === "string") {
    const preset = tk(`preset.${args.preset}`);
    if (preset !== `preset.${args.preset}`) words.preset = preset;
  }
  if (typeof args.option === "string" && Object.prototype.hasOwnProperty.call(OPTION_LABELS, args.option)) {
    words.option = t(OPTION_LABELS[args.option]);
  }
  if (typeof args.bots === "string") {
    words.bots = args.bots
      .split(",")
      .map((bot) => bot.trim())
      .filter(Boolean)
      .map((bot) => {
        const label = tk(`bot.${bot}`);
        return label === `bot.${bot}` ? bot : label;
      })
      .join(", ");
  }
  return words;
}

/**
 * An error from the server in the current language, from its codes only (the server's English
 * `message` is the last resort, for a code this client does not know). Seat numbers are shown
 * counted from 1; a refusal with a `reason_code` is explained from it, with suits, cards, phases
 * and presets translated.
 */
export function errorText(error: ServerError, seatName: (seat: number) => string): string {
  const args: Args = { ...error.args };
  if (typeof args.seat === "number") args.seatn = args.seat + 1;
  const prefix = REASON_PREFIX[error.code];
  if (prefix && typeof args.reason_code === "string") {
    const key = `${prefix}.${args.reason_code}`;
    const text = tk(key, reasonArgs(args, seatName));
    if (text !== key) return text;
  }
  const key = `error.${error.code}`;
  const text = tk(key, args);
  return text === key ? error.message : text;
}
