// The score chart's geometry: every side's score after each hand, scaled into the chart's box.

import type { PublicGame } from "../types";

export const CHART_WIDTH = 600;
export const CHART_HEIGHT = 260;
export const CHART_PAD = { left: 36, right: 12, top: 12, bottom: 28 };

export interface ScoreChartPlot {
  /** Each side's score at the start and after every hand. */
  series: number[][];
  hands: number;
  /** The highest and lowest scores the chart shows: the target and 0 at least. */
  top: number;
  bottom: number;
  /** With elimination, its score is drawn once some side is below zero. */
  showElimination: boolean;
  /** The hands numbered under the axis: about a dozen, and always the last. */
  ticks: number[];
  /** The x of a hand and the y of a score in the chart's box. */
  x: (hand: number) => number;
  y: (score: number) => number;
}

export function scoreChartPlot(pub: PublicGame): ScoreChartPlot {
  const series = pub.sides.map((_, side) => [pub.start_scores[side], ...pub.results.map((r) => r.scores[side])]);
  const hands = pub.results.length;
  const values = series.flat();
  const top = Math.max(pub.rules.target, ...values);
  const elimination = pub.rules.elimination;
  const showElimination = elimination < 0 && Math.min(...values) < 0;
  const bottom = Math.min(0, ...values, showElimination ? elimination : 0);
  const pad = CHART_PAD;
  const x = (i: number) => pad.left + (hands === 0 ? 0 : (i * (CHART_WIDTH - pad.left - pad.right)) / hands);
  const y = (v: number) => pad.top + ((top - v) * (CHART_HEIGHT - pad.top - pad.bottom)) / (top - bottom || 1);
  const every = Math.max(1, Math.ceil(hands / 12));
  const ticks = Array.from({ length: hands + 1 }, (_, i) => i).filter((i) => i % every === 0 || i === hands);
  return { series, hands, top, bottom, showElimination, ticks, x, y };
}
