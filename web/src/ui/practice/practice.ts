// What the Practice page shows of a position, from the server's question and answer alone: the
// choices as the table's controls, the answer's rows (in the server's values, best first), and a line
// of the rest of the hand step by step. Nothing here judges a choice or adds up points.

import type { Action, StateMessage } from "../../types";
import type { PracticeAnswer, PracticeLine, PracticeQuestion } from "./api";

/** A choice as the server's action for it (null for a choice of a kind this client does not know). */
export function choiceAction(question: PracticeQuestion, choice: string): Action | null {
  return question.actions[question.choices.indexOf(choice)] ?? null;
}

/** Every choice with its action, in the server's order. */
export function choiceActions(question: PracticeQuestion): { choice: string; action: Action | null }[] {
  return question.choices.map((choice) => ({ choice, action: choiceAction(question, choice) }));
}

/** The cards a card can be played from: those the choices play. */
export function playableCards(question: PracticeQuestion): Set<string> {
  const cards = new Set<string>();
  for (const { action } of choiceActions(question)) if (action?.kind === "play") cards.add(action.card);
  return cards;
}

/** The discards offered (the candidates the search weighed), each with its cards. */
export function discardChoices(question: PracticeQuestion): { choice: string; cards: string[] }[] {
  return choiceActions(question).flatMap(({ choice, action }) =>
    action?.kind === "discard" ? [{ choice, cards: action.cards }] : [],
  );
}

/** The cards that some offered discard lays down: those that may be picked. */
export function discardableCards(question: PracticeQuestion): Set<string> {
  return new Set(discardChoices(question).flatMap((offered) => offered.cards));
}

/** The offered discard whose cards are exactly those picked, or null. */
export function discardPicked(question: PracticeQuestion, picked: Set<string>): string | null {
  const found = discardChoices(question).find(
    ({ cards }) => cards.length === picked.size && cards.every((card) => picked.has(card)),
  );
  return found ? found.choice : null;
}

/** A card picked or put back for a discard: at most as many as a discard lays down. */
export function togglePicked(question: PracticeQuestion, picked: Set<string>, card: string): Set<string> {
  const next = new Set(picked);
  if (next.has(card)) next.delete(card);
  else {
    const most = Math.max(0, ...discardChoices(question).map(({ cards }) => cards.length));
    if (next.size >= most) return picked;
    next.add(card);
  }
  return next;
}

/** A row of the answer: a choice, its expected points as the server gives them, and its marks. */
export interface AnswerRow {
  choice: string;
  action: Action | null;
  /** Null when the server gave no value for it. */
  value: number | null;
  best: boolean;
  chosen: boolean;
}

/** Every choice, best first then by the server's values, marked best and chosen. */
export function answerRows(question: PracticeQuestion, answer: PracticeAnswer, chosen: string): AnswerRow[] {
  const rows = choiceActions(question).map(({ choice, action }) => ({
    choice,
    action,
    value: Object.prototype.hasOwnProperty.call(answer.values, choice) ? answer.values[choice] : null,
    best: choice === answer.best,
    chosen: choice === chosen,
  }));
  const rank = (row: AnswerRow) => (row.best ? Infinity : row.value ?? -Infinity);
  return rows.sort((a, b) => rank(b) - rank(a));
}

/** A line's state after its first `step` actions: what each seat still holds, and the steps taken. */
export interface LineStep {
  hands: string[][];
  done: { seat: number; action: Action | null }[];
}

/** The line after `step` of its actions (0: at the position); the cards played or laid down leave the hands. */
export function lineAt(line: PracticeLine, step: number): LineStep {
  const hands = line.hands.map((hand) => [...hand]);
  const done: LineStep["done"] = [];
  const steps = line.actions; // the steps taken so far are the first `step` of them
  for (const { seat, action } of steps.slice(0, Math.max(0, step))) {
    const gone = action?.kind === "play" ? [action.card] : action?.kind === "discard" ? action.cards : [];
    if (hands[seat]) hands[seat] = hands[seat].filter((card) => !gone.includes(card));
    done.push({ seat, action });
  }
  return { hands, done };
}

/**
 * The question as the table's state for the seat to decide, so the table's own parts draw it: the
 * seats named from `names` (the seat to decide by `ownName`, when the page knows the player's), every
 * other seat as one that is neither away nor reportable.
 */
export function practiceState(question: PracticeQuestion, ownName?: string): StateMessage {
  const pub = question.public;
  return {
    version: 0,
    table: {
      code: "practice",
      settings: {
        preset: pub.rules.name,
        players: pub.players,
        teams: pub.sides.some((side) => side.length > 1),
        target: pub.rules.target,
        turn_timer: 0,
        bot_level: "",
        hints: false,
        shoot_the_moon: pub.rules.shoot_the_moon,
        elimination: pub.rules.elimination !== 0,
        kitty: pub.rules.kitty > 0,
      },
      status: "playing",
      host: null,
      // The seat to decide under the player's own name, as at a table ("You plays" reads wrong).
      seats: question.names.map((name, seat) => ({
        seat,
        name: seat === question.seat && ownName ? ownName : name,
        bot: false,
        open: false,
        connected: true,
      })),
      you: question.seat,
      match_number: 1,
    },
    game: question.you,
    resync: false,
  };
}
