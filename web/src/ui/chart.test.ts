import { describe, expect, it } from "vitest";
import { game, HOUSE_RULES } from "../test/states";
import type { HandResult } from "../types";
import { CHART_HEIGHT, CHART_PAD, CHART_WIDTH, scoreChartPlot } from "./chart";

/** Hands that ended with these scores, two sides. */
function after(...scores: number[][]) {
  const results = scores.map(
    (sides, i): HandResult => ({
      number: i + 1,
      dealer: 0,
      bidder: 0,
      bid: 2,
      trump: "h",
      points: {},
      game_points: [0, 0],
      taken: [0, 0],
      made: true,
      outcome: "made",
      scores: sides,
      out: [],
      discards: [[], []],
      ended_by: null,
      above_target: [],
    }),
  );
  const last = scores[scores.length - 1] ?? [0, 0];
  return { sides: [[0, 2], [1, 3]], seat_side: [0, 1, 0, 1], scores: last, start_scores: [0, 0], results };
}

describe("scoreChartPlot", () => {
  it("draws each side from its start score through every hand", () => {
    expect(scoreChartPlot(game(after([3, -2], [8, 1]))).series).toEqual([
      [0, 3, 8],
      [0, -2, 1],
    ]);
  });

  it("spans the hands across the box, and the target down to the lowest score", () => {
    const plot = scoreChartPlot(game(after([3, -2], [8, 1])));
    expect([plot.top, plot.bottom]).toEqual([21, -2]);
    expect(plot.x(0)).toBe(CHART_PAD.left);
    expect(plot.x(2)).toBe(CHART_WIDTH - CHART_PAD.right);
    expect(plot.y(21)).toBe(CHART_PAD.top);
    expect(plot.y(-2)).toBe(CHART_HEIGHT - CHART_PAD.bottom);
  });

  it("rises above the target when a score passes it", () => {
    expect(scoreChartPlot(game(after([25, 4]))).top).toBe(25);
  });

  it("shows the elimination score once a side is below zero", () => {
    const rules = { ...HOUSE_RULES, elimination: -21 };
    const below = scoreChartPlot(game({ rules, ...after([-3, 4]) }));
    expect([below.showElimination, below.bottom]).toEqual([true, -21]);
    const above = scoreChartPlot(game({ rules, ...after([3, 4]) }));
    expect([above.showElimination, above.bottom]).toEqual([false, 0]);
  });

  it("numbers about a dozen hands under the axis, always the last", () => {
    const scores = (n: number) => Array.from({ length: n }, () => [1, 1]);
    expect(scoreChartPlot(game(after(...scores(3)))).ticks).toEqual([0, 1, 2, 3]);
    expect(scoreChartPlot(game(after(...scores(25)))).ticks).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 25]);
  });

  it("puts the start at the left edge before any hand", () => {
    const plot = scoreChartPlot(game(after()));
    expect(plot.ticks).toEqual([0]);
    expect(plot.x(0)).toBe(CHART_PAD.left);
    expect(plot.series).toEqual([[0], [0]]);
  });
});
