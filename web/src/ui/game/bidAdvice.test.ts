import { describe, expect, it } from "vitest";
import { choiceLabel, choiceShort } from "../../i18n/actions";
import { actOf } from "../../test/fakes";
import { game, watching } from "../../test/states";
import {
  adviceRows,
  bestChoice,
  currentBidAdvice,
  parseBidAdvice,
  shareText,
  type BidAdvice,
} from "./bidAdvice";

const ACK = {
  ok: true,
  version: 7,
  samples: 96,
  advice: [
    { action: actOf("pass"), expected: -0.4, win: 0.31, make: 0.62 },
    { action: actOf("bid 3"), expected: 1.2, win: 0.9, make: 0.71 },
    { action: actOf("bid 4"), expected: 1.2, win: 1.0, make: 0.5 },
    { action: actOf("bid 7"), expected: -5.5, win: 1.0, make: 0.04 },
  ],
};

function advice(): BidAdvice {
  const parsed = parseBidAdvice(ACK);
  if (!parsed) throw new Error("the example ack should parse");
  return parsed;
}

describe("parseBidAdvice", () => {
  it("keeps every choice in the order the server listed them", () => {
    const parsed = advice();
    expect(parsed.version).toBe(7);
    expect(parsed.samples).toBe(96);
    expect(parsed.choices.map((choice) => choice.action.text)).toEqual(["pass", "bid 3", "bid 4", "bid 7"]);
    expect(parsed.choices[0]).toEqual({ action: actOf("pass"), expected: -0.4, win: 0.31, make: 0.62 });
  });

  it("reads a side that never won the bid as no chance to make it", () => {
    const parsed = parseBidAdvice({ ...ACK, advice: [{ action: actOf("pass"), expected: 0, win: 0, make: null }] });
    expect(parsed?.choices[0].make).toBeNull();
  });

  it("refuses an answer that is not advice", () => {
    expect(parseBidAdvice({ ok: true, version: 7 })).toBeNull();
    expect(parseBidAdvice({ ...ACK, version: "7" })).toBeNull();
    expect(parseBidAdvice({ ...ACK, advice: [{ action: actOf("pass"), expected: "1", win: 0.5, make: null }] })).toBeNull();
    expect(parseBidAdvice({ ...ACK, advice: [{ action: 3, expected: 1, win: 0.5, make: null }] })).toBeNull();
    expect(parseBidAdvice({ ...ACK, advice: [null] })).toBeNull();
  });
});

describe("currentBidAdvice", () => {
  const state = watching(game()); // at version 7

  it("keeps advice asked for at the version on screen and drops it once the turn passes", () => {
    expect(currentBidAdvice(advice(), state)).not.toBeNull();
    expect(currentBidAdvice({ ...advice(), version: 6 }, state)).toBeNull();
    expect(currentBidAdvice(null, state)).toBeNull();
  });
});

describe("bestChoice", () => {
  it("is the highest expected change, the first of equals", () => {
    expect(bestChoice(advice().choices)).toBe(1);
    expect(bestChoice([])).toBe(-1);
  });
});

describe("shareText", () => {
  it("gives a whole percentage, and a dash when there is none", () => {
    expect(shareText(0.456)).toBe("46%");
    expect(shareText(1)).toBe("100%");
    expect(shareText(0)).toBe("0%");
    expect(shareText(null)).toBe("–");
  });
});

describe("choiceLabel", () => {
  it("names a choice as the bid buttons do, the moon as the moon", () => {
    expect(choiceLabel(actOf("pass"), 7)).toBe("Pass");
    expect(choiceLabel(actOf("bid 3"), 7)).toBe("Bid 3");
    expect(choiceLabel(actOf("bid 7"), 7)).toBe("Moon (7)");
    expect(choiceLabel(actOf("bid 7"), null)).toBe("Bid 7");
  });
});

describe("choiceShort", () => {
  it("puts a choice as briefly as the bid buttons do", () => {
    expect(choiceShort(actOf("pass"), 7)).toBe("Pass");
    expect(choiceShort(actOf("bid 3"), 7)).toBe("3");
    expect(choiceShort(actOf("bid 7"), 7)).toBe("☾ 7");
  });
});

describe("adviceRows", () => {
  it("gives each choice its texts, marks the best and scales the bars to the largest change", () => {
    const rows = adviceRows(advice(), 7);
    expect(rows.map((row) => row.label)).toEqual(["Pass", "Bid 3", "Bid 4", "Moon (7)"]);
    expect(rows.map((row) => row.short)).toEqual(["Pass", "3", "4", "☾ 7"]);
    expect(rows.map((row) => row.best)).toEqual([false, true, false, false]);
    expect(rows[0]).toMatchObject({ win: "31%", make: "62%", expected: "-0.4", sign: "loss", bar: 7 });
    expect(rows[1]).toMatchObject({ win: "90%", make: "71%", expected: "+1.2", sign: "gain", bar: 22 });
    expect(rows[3]).toMatchObject({ expected: "-5.5", bar: 100 });
  });

  it("draws no bar when nothing is expected either way", () => {
    const even = { version: 7, samples: 4, choices: [{ action: actOf("pass"), expected: 0, win: 0, make: null }] };
    expect(adviceRows(even, null)[0]).toMatchObject({ expected: "0.0", sign: "even", bar: 0, make: "–", best: true });
  });
});
