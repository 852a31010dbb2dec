// The practice API (docs/protocol.md, "Practice"): the themes, the daily position, the next position
// for this browser's profile, and an attempt at one. A position comes as its question only (what its
// seat could see, its choices); its answer comes back with the attempt, never before.

import { call, type Answer } from "../../playersApi";
import { isAction, type Action, type PublicGame, type SeatView } from "../../types";

/** What the position asks to decide (the contract's `kind`). */
export type PracticeKind = "bid" | "widow" | "trump" | "discard" | "card";

/** A position without its answer: the seat's view at the moment of the decision, and its choices. */
export interface PracticeQuestion {
  id: string;
  preset: string;
  players: number;
  seat: number;
  kind: PracticeKind;
  public: PublicGame;
  /** The seat's view as the table sends it (its `public` is the question's). */
  you: SeatView;
  /** A name per seat; the seat's own is "You". */
  names: string[];
  /** Each choice's text, which the page sends back and never reads. */
  choices: string[];
  /** The same choices as the table's actions, in the same order: what the page words and draws. */
  actions: (Action | null)[];
  themes: string[];
  difficulty: number;
  rating: number;
}

/** One of the deals the search used, played out from the position with the best choice first. */
export interface PracticeLine {
  /** Every seat's cards at the position on that deal. */
  hands: string[][];
  /** Each step as the table's action (null for one of a kind this client does not know). */
  actions: { seat: number; action: Action | null }[];
}

export interface PracticeAnswer {
  best: string;
  /** Expected points for the seat's side, per choice. */
  values: Record<string, number>;
  margin: number;
  error: number;
  deals: number;
  lines: PracticeLine[];
  /** For a position from the player's own match: the choice made there. */
  played?: string | null;
}

export interface PracticeRating {
  rating: number;
  mu: number;
  sigma: number;
  attempts: number;
}

export interface NextPosition {
  position: PracticeQuestion;
  rating: PracticeRating;
  streak: number;
}

export interface DailyPosition {
  position: PracticeQuestion;
  date: string;
}

export interface AttemptResult {
  correct: boolean;
  choice: string;
  answer: PracticeAnswer;
  rating: { before: PracticeRating; after: PracticeRating };
  streak: number;
}

export interface ThemeCount {
  id: string;
  positions: number;
}

type Rec = Record<string, unknown>;

const KINDS: PracticeKind[] = ["bid", "widow", "trump", "discard", "card"];

function record(value: unknown): Rec | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Rec) : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function strings(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : null;
}

export function readQuestion(value: unknown): PracticeQuestion | null {
  const v = record(value);
  const pub = record(v?.public);
  const you = record(v?.you);
  const choices = strings(v?.choices);
  const names = strings(v?.names);
  const seat = num(v?.seat);
  if (!v || !pub || !you || !choices || choices.length === 0 || !names || seat === null) return null;
  if (typeof v.id !== "string" || typeof v.preset !== "string" || !strings(you.hand)) return null;
  if ("answer" in v) return null; // a question never carries its answer
  const kind = KINDS.includes(v.kind as PracticeKind) ? (v.kind as PracticeKind) : "card";
  return {
    id: v.id,
    preset: v.preset,
    players: num(v.players) ?? names.length,
    seat,
    kind,
    public: pub as unknown as PublicGame,
    you: { ...(you as unknown as SeatView), public: pub as unknown as PublicGame },
    names,
    choices,
    actions: choices.map((_, index) => (Array.isArray(v.actions) && isAction(v.actions[index]) ? v.actions[index] : null)),
    themes: strings(v.themes) ?? [],
    difficulty: num(v.difficulty) ?? 0,
    rating: num(v.rating) ?? 0,
  };
}

function readRating(value: unknown): PracticeRating | null {
  const v = record(value);
  const rating = num(v?.rating);
  if (!v || rating === null) return null;
  return { rating, mu: num(v.mu) ?? 0, sigma: num(v.sigma) ?? 0, attempts: num(v.attempts) ?? 0 };
}

function readLine(value: unknown): PracticeLine | null {
  const v = record(value);
  if (!v || !Array.isArray(v.hands) || !Array.isArray(v.actions)) return null;
  const hands = v.hands.map((hand) => strings(hand) ?? []);
  const actions: PracticeLine["actions"] = [];
  for (const item of v.actions) {
    const step = record(item);
    const seat = num(step?.seat);
    if (seat !== null) actions.push({ seat, action: isAction(step?.action) ? step.action : null });
  }
  return { hands, actions };
}

export function readAnswer(value: unknown): PracticeAnswer | null {
  const v = record(value);
  const values = record(v?.values);
  if (!v || typeof v.best !== "string" || !values) return null;
  const points: Record<string, number> = {};
  for (const [choice, worth] of Object.entries(values)) {
    const n = num(worth);
    if (n !== null) points[choice] = n;
  }
  return {
    best: v.best,
    values: points,
    margin: num(v.margin) ?? 0,
    error: num(v.error) ?? 0,
    deals: num(v.deals) ?? 0,
    lines: Array.isArray(v.lines) ? v.lines.map(readLine).filter((line): line is PracticeLine => line !== null) : [],
    played: typeof v.played === "string" ? v.played : null,
  };
}

export function readNext(value: unknown): NextPosition | null {
  const v = record(value);
  const position = readQuestion(v?.position);
  const rating = readRating(v?.rating);
  return position && rating ? { position, rating, streak: num(v?.streak) ?? 0 } : null;
}

export function readDaily(value: unknown): DailyPosition | null {
  const v = record(value);
  const position = readQuestion(v?.position);
  return position ? { position, date: typeof v?.date === "string" ? v.date : "" } : null;
}

export function readAttempt(value: unknown): AttemptResult | null {
  const v = record(value);
  const answer = readAnswer(v?.answer);
  const rating = record(v?.rating);
  const before = readRating(rating?.before);
  const after = readRating(rating?.after);
  if (!v || !answer || !before || !after || typeof v.choice !== "string") return null;
  return { correct: v.correct === true, choice: v.choice, answer, rating: { before, after }, streak: num(v.streak) ?? 0 };
}

export function readThemes(value: unknown): ThemeCount[] | null {
  const list = record(value)?.themes;
  if (!Array.isArray(list)) return null;
  const themes: ThemeCount[] = [];
  for (const item of list) {
    const theme = record(item);
    if (theme && typeof theme.id === "string") themes.push({ id: theme.id, positions: num(theme.positions) ?? 0 });
  }
  return themes;
}

// --- the calls --------------------------------------------------------------------------------

const practiceOf = (player: string) => `/api/players/${encodeURIComponent(player)}/practice`;

export function getThemes(): Promise<Answer<ThemeCount[]>> {
  return call("GET", "/api/practice/themes", readThemes);
}

export function getDaily(): Promise<Answer<DailyPosition>> {
  return call("GET", "/api/practice/daily", readDaily);
}

/** The next position for the profile, of `theme` when one is chosen. */
export function getNext(player: string, secret: string, theme: string | null): Promise<Answer<NextPosition>> {
  const query = theme ? `?${new URLSearchParams({ theme })}` : "";
  return call("GET", `${practiceOf(player)}/next${query}`, readNext, { secret });
}

export function postAttempt(player: string, secret: string, position: string, choice: string): Promise<Answer<AttemptResult>> {
  return call("POST", `${practiceOf(player)}/${encodeURIComponent(position)}`, readAttempt, {
    body: { choice },
    secret,
  });
}

// The first time, the server reviews the match (if it has not yet) and solves up to five decisions.
const SOLVING_MS = 60_000;

/** The profile's costliest decisions of a finished match it played, as positions, costliest first
 * (solved by the server the first time: seconds; the same positions again later). */
export function postMatchPractice(player: string, secret: string, match: string): Promise<Answer<PracticeQuestion[]>> {
  return call("POST", `${practiceOf(player)}/matches/${encodeURIComponent(match)}`, readOwnPositions, {
    body: {},
    secret,
    timeoutMs: SOLVING_MS,
  });
}

export function readOwnPositions(value: unknown): PracticeQuestion[] | null {
  const list = record(value)?.positions;
  if (!Array.isArray(list)) return null;
  const questions = list.map(readQuestion);
  return questions.every((q): q is PracticeQuestion => q !== null) ? questions : null;
}

/** An attempt at one of the profile's own positions: answered as any, never rated. */
export function postOwnAttempt(player: string, secret: string, position: string, choice: string): Promise<Answer<AttemptResult>> {
  return call("POST", `${practiceOf(player)}/mine/${encodeURIComponent(position)}`, readAttempt, {
    body: { choice },
    secret,
  });
}

// The profile's positions of a match once had: the replay's button gets them, the page shows them.
const ownKept = new Map<string, PracticeQuestion[]>();

/** The profile's positions of `match`: kept from a former answer, else asked of the server. */
export async function ownPositions(player: string, secret: string, match: string): Promise<Answer<PracticeQuestion[]>> {
  const key = `${player}:${match}`;
  const kept = ownKept.get(key);
  if (kept) return { ok: true, data: kept };
  const answer = await postMatchPractice(player, secret, match);
  if (answer.ok) ownKept.set(key, answer.data);
  return answer;
}
