// The bid advisor's answer (`bid_advice`): each choice in the auction with its chances, as rows to show.

import { currentLang, signedPoints } from "../../i18n";
import { choiceLabel, choiceShort } from "../../i18n/actions";
import { isAction, type Action, type StateMessage } from "../../types";

/** One auction choice as the expert's sampled deals saw it (docs/protocol.md, `bid_advice`). */
export interface BidChoice {
  /** Passing or a bid. */
  action: Action;
  /** The mean change of the seat's side's score this hand (a set bid counts as minus the bid). */
  expected: number;
  /** The share of deals (0..1) in which the side won the auction. */
  win: number;
  /** Of those, the share in which it made the bid; null when it never won. */
  make: number | null;
}

/** The advice for this seat at the table version it was asked for. */
export interface BidAdvice {
  version: number;
  samples: number;
  choices: BidChoice[];
}

/** The id of the advice's table, which the button controls (aria-controls). */
export const BID_ADVICE_ID = "bid-advice";

function share(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : null;
}

/** The advice in an ack of `bid_advice`, or null if the ack does not hold one. */
export function parseBidAdvice(ack: Record<string, unknown>): BidAdvice | null {
  const version = ack.version;
  const samples = ack.samples;
  if (typeof version !== "number" || !Array.isArray(ack.advice)) return null;
  const choices: BidChoice[] = [];
  for (const item of ack.advice as unknown[]) {
    if (!item || typeof item !== "object") return null;
    const entry = item as Record<string, unknown>;
    const win = share(entry.win);
    if (!isAction(entry.action) || typeof entry.expected !== "number" || win === null) return null;
    if (!Number.isFinite(entry.expected)) return null;
    choices.push({ action: entry.action, expected: entry.expected, win, make: share(entry.make) });
  }
  return { version, samples: typeof samples === "number" ? samples : 0, choices };
}

/** The advice for the state on screen, if it was asked for at this version. */
export function currentBidAdvice(advice: BidAdvice | null, state: StateMessage): BidAdvice | null {
  return advice && advice.version === state.version ? advice : null;
}

/** The index of the best choice: the highest expected change, the first of equals; -1 if none. */
export function bestChoice(choices: BidChoice[]): number {
  let best = -1;
  choices.forEach((choice, index) => {
    if (best < 0 || choice.expected > choices[best].expected) best = index;
  });
  return best;
}

/** A share as a whole percentage in the language's own way: "46%", "46 %"; a dash for none. */
export function shareText(value: number | null): string {
  if (value === null) return "–";
  return new Intl.NumberFormat(currentLang(), { style: "percent", maximumFractionDigits: 0 }).format(value);
}

/** One row of the advice's table. */
export interface AdviceRow {
  /** The action's text, a key for the row. */
  action: string;
  label: string;
  /** The label as briefly as the bid buttons put it, where the table is laid out a column per choice. */
  short: string;
  win: string;
  make: string;
  expected: string;
  best: boolean;
  /** How the expected change leans: drawn green, red or plain. */
  sign: "gain" | "loss" | "even";
  /** The bar under the expected change: its length in percent of the largest change shown. */
  bar: number;
}

/** The rows of the table, in the order of the legal actions, the best one marked. */
export function adviceRows(advice: BidAdvice, moonBid: number | null): AdviceRow[] {
  const best = bestChoice(advice.choices);
  const largest = Math.max(0, ...advice.choices.map((choice) => Math.abs(choice.expected)));
  return advice.choices.map((choice, index) => ({
    action: choice.action.text,
    label: choiceLabel(choice.action, moonBid) ?? choice.action.text,
    short: choiceShort(choice.action, moonBid) ?? choice.action.text,
    win: shareText(choice.win),
    make: shareText(choice.make),
    expected: signedPoints(choice.expected),
    best: index === best,
    sign: choice.expected > 0 ? "gain" : choice.expected < 0 ? "loss" : "even",
    bar: largest > 0 ? Math.round((Math.abs(choice.expected) / largest) * 100) : 0,
  }));
}
