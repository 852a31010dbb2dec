import { afterEach, describe, expect, it, vi } from "vitest";
import { setLang } from "../i18n";
import { actionShown, kindTitle } from "../i18n/actions";
import { actOf } from "../test/fakes";
import {
  expectedText,
  lossClass,
  lossText,
  parseHandReview,
  parseMatchReview,
} from "./review";

const HAND_ACK = {
  ok: true,
  hand: 2,
  total_loss: 0.38,
  decisions: [
    { action_index: 0, action: actOf("bid 2"), best: actOf("bid 3"), expected_action: 4.21, expected_best: 4.25, loss: 0.04, verdict: "worse", error: 0.03 },
    { action_index: 4, action: actOf("Ad"), best: actOf("Ad"), expected_action: 4.65, expected_best: 4.65, loss: 0.0 },
    { action_index: 18, action: actOf("LJ"), best: actOf("8c"), expected_action: 4.81, expected_best: 5.0, loss: 0.19 },
    { action_index: 20, action: actOf("8c"), best: actOf("Kh"), expected_action: 4.85, expected_best: 5.0, loss: 0.15 },
    { action_index: 25, action: actOf("Kh"), best: actOf("Kh"), expected_action: null, expected_best: null, loss: 0.0 },
  ],
  costliest: [
    { action_index: 18, action: actOf("LJ"), best: actOf("8c"), expected_action: 4.81, expected_best: 5.0, loss: 0.19 },
    { action_index: 20, action: actOf("8c"), best: actOf("Kh"), expected_action: 4.85, expected_best: 5.0, loss: 0.15 },
  ],
};

/** Switch the interface's language (setLang remembers it and names the page's: both stubbed here). */
function speak(lang: "en" | "fr"): void {
  vi.stubGlobal("localStorage", { setItem: () => undefined, getItem: () => null });
  vi.stubGlobal("document", { documentElement: { lang } });
  setLang(lang);
}

afterEach(() => {
  speak("en");
  vi.unstubAllGlobals();
  vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
});

describe("parseHandReview", () => {
  it("keeps every decision in the server's order, the forced ones without expected points", () => {
    const review = parseHandReview(HAND_ACK);
    expect(review).not.toBeNull();
    expect(review?.hand).toBe(2);
    expect(review?.totalLoss).toBe(0.38);
    expect(review?.decisions.map((d) => d.actionIndex)).toEqual([0, 4, 18, 20, 25]);
    expect(review?.decisions[0]).toEqual({
      hand: null,
      actionIndex: 0,
      action: actOf("bid 2"),
      best: actOf("bid 3"),
      expectedAction: 4.21,
      expectedBest: 4.25,
      loss: 0.04,
      error: 0.03,
    });
    expect(review?.decisions[4].expectedAction).toBeNull();
    expect(review?.decisions[4].expectedBest).toBeNull();
  });

  it("shows the server's costliest decisions as sent, picking none of its own", () => {
    expect(parseHandReview(HAND_ACK)?.costliest.map((d) => d.actionIndex)).toEqual([18, 20]);
    // Whatever the server lists (here a single one, and not the costliest of the hand) is what is shown.
    const one = parseHandReview({ ...HAND_ACK, costliest: [HAND_ACK.decisions[0]] });
    expect(one?.costliest.map((d) => d.actionIndex)).toEqual([0]);
    expect(parseHandReview({ ...HAND_ACK, costliest: [] })?.costliest).toEqual([]);
  });

  it("refuses an ack without a review", () => {
    expect(parseHandReview({ ok: true })).toBeNull();
    expect(parseHandReview({ ok: true, hand: 0, decisions: [{ action: actOf("Ah") }] })).toBeNull();
    expect(parseHandReview({ ok: true, hand: -1, decisions: [] })).toBeNull();
    const { costliest: _, ...withoutCostliest } = HAND_ACK;
    expect(parseHandReview(withoutCostliest)).toBeNull();
  });

  it("sums the losses when the total is missing", () => {
    const { total_loss: _, ...rest } = HAND_ACK;
    expect(parseHandReview(rest)?.totalLoss).toBeCloseTo(0.38);
  });
});

describe("parseMatchReview", () => {
  it("reads every seat's figures and the costliest decisions with their hands", () => {
    const review = parseMatchReview({
      ok: true,
      players: [
        { seat: 0, decisions: 31, total_loss: 2.5 },
        { seat: 1, decisions: 29, total_loss: 0 },
      ],
      costliest: [
        { hand: 3, action_index: 7, action: actOf("trump h"), best: actOf("trump s"), expected_action: 1, expected_best: 2.5, loss: 1.5 },
        { hand: 0, action_index: 2, action: actOf("pass"), best: actOf("bid 3"), expected_action: 0, expected_best: 1, loss: 1 },
      ],
    });
    expect(review?.players).toEqual([
      { seat: 0, decisions: 31, totalLoss: 2.5 },
      { seat: 1, decisions: 29, totalLoss: 0 },
    ]);
    expect(review?.costliest.map((d) => [d.hand, d.actionIndex, d.loss])).toEqual([
      [3, 7, 1.5],
      [0, 2, 1],
    ]);
  });

  it("keeps the server's list as sent: its order, its length, a loss of 0 too", () => {
    const sent = [0.5, 2, 0, 1, 3, 4].map((loss, index) => ({
      hand: 0,
      action_index: index,
      action: actOf("Ah"),
      best: actOf("Kh"),
      expected_action: 1,
      expected_best: 1 + loss,
      loss,
    }));
    const review = parseMatchReview({ ok: true, players: [], costliest: sent });
    expect(review?.costliest.map((d) => d.actionIndex)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("refuses a decision without its hand, or a seat without figures", () => {
    const costly = { action_index: 7, action: actOf("Ah"), best: actOf("Kh"), expected_action: 1, expected_best: 2, loss: 1 };
    expect(parseMatchReview({ ok: true, players: [], costliest: [costly] })).toBeNull();
    expect(parseMatchReview({ ok: true, players: [{ seat: 0 }], costliest: [] })).toBeNull();
    expect(parseMatchReview({ ok: true, costliest: [] })).toBeNull();
  });
});

describe("actionShown", () => {
  it("shows a card played as the card alone and a discard as its cards", () => {
    expect(actionShown(actOf("Ah"))).toEqual({ words: "", cards: ["Ah"] });
    expect(actionShown(actOf("LJ"))).toEqual({ words: "", cards: ["LJ"] });
    expect(actionShown(actOf("discard 4c 7d"))).toEqual({ words: "Discard", cards: ["4c", "7d"] });
  });

  it("names the other actions with the table's words", () => {
    expect(actionShown(actOf("pass"))).toEqual({ words: "Pass", cards: [] });
    expect(actionShown(actOf("bid 3"), 7)).toEqual({ words: "Bid 3", cards: [] });
    expect(actionShown(actOf("bid 7"), 7)).toEqual({ words: "Moon (7)", cards: [] });
    expect(actionShown(actOf("trump h"))).toEqual({ words: "Trump: ♥ hearts", cards: [] });
    expect(actionShown(actOf("widow"))).toEqual({ words: "Take the widow", cards: [] });
  });
});

describe("kindTitle", () => {
  it("heads each decision by the kind of its action", () => {
    expect(["pass", "bid 4", "widow", "trump c", "discard 2c", "Qs"].map((text) => kindTitle(actOf(text)))).toEqual([
      "Bidding",
      "Bidding",
      "The widow",
      "Naming trump",
      "Discarding",
      "Playing a card",
    ]);
  });
});

describe("figures", () => {
  it("writes expected points signed with two decimals, and losses with two decimals", () => {
    expect(expectedText(4.2)).toBe("+4.20");
    expect(expectedText(-0.5)).toBe("\u22120.50");
    expect(expectedText(0)).toBe("0.00");
    expect(lossText(0.19)).toBe("0.19");
    expect(lossText(-0.01)).toBe("0.00");
  });

  it("writes them the language's way", () => {
    speak("fr");
    expect(expectedText(-1.25)).toBe("\u22121,25");
    expect(lossText(12.5)).toBe("12,50");
    expect(actionShown(actOf("pass")).words).toBe("Passer");
  });

  it("grades a total loss", () => {
    expect([0, 0.4, 1, 3.2].map(lossClass)).toEqual(["none", "some", "much", "much"]);
  });
});
