// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { game, handResult, watching } from "../../test/states";
import type { Standing } from "../../types";
import { MatchEnd } from "./MatchEnd";

function row(side: number, place: number, score: number, more: Partial<Standing> = {}): Standing {
  return { side, place, score, out: false, bids: 0, made: 0, set: 0, points: 0, hands: 1, points_per_hand: 0, ...more };
}

describe("MatchEnd", () => {
  const root = document.createElement("div");
  afterEach(() => act(() => render(null, root)));

  it("shows each side's place and figures as the server sent them, in its order", () => {
    // Ann shot the moon from 20 and was set: she outscores Ben, Cy and Di, and the server puts her last.
    const scores = [13, 4, 9, 9];
    const moon = handResult({ bidder: 0, bid: 7, made: false, outcome: "moon_set", ended_by: "moon_set", scores });
    const standings = [
      row(2, 1, 9, { points_per_hand: 2.5 }),
      row(3, 2, 9),
      row(1, 3, 4, { bids: 2, made: 2, points_per_hand: 1.25 }),
      row(0, 4, 13, { out: true, bids: 1, set: 1 }),
    ];
    const pub = game({ phase: "match_over", results: [moon], scores, winner: 2, ended_by: "moon_set", standings });
    act(() => render(<MatchEnd state={watching(pub)} pub={pub} />, root));
    const rows = Array.from(root.querySelectorAll("table.standings tbody tr")).map((tr) =>
      Array.from(tr.querySelectorAll("th, td")).map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ["1st", "Cy", "9", "0", "0", "2.5"],
      ["2nd", "Di", "9", "0", "0", "0.0"],
      ["3rd", "Ben", "4", "2", "0", "1.3"],
      ["4th", "Ann", "13", "0", "1", "0.0"],
    ]);
  });

  it("shows no standings the server has not sent", () => {
    const pub = game({ phase: "match_over", results: [handResult()], winner: 1 });
    act(() => render(<MatchEnd state={watching(pub)} pub={pub} />, root));
    expect(root.querySelector("table.standings")).toBeNull();
  });
});
