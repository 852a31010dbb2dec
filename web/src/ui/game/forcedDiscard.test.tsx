// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { game, seat, seated, TEN_POINT_RULES } from "../../test/states";
import type { DiscardInfo } from "../../types";
import { ActionPanel } from "./ActionPanel";
import { discardChoice } from "./discard";

const HAND = ["2c", "3d", "Ah", "Kh", "5s"];
const NO_REFILL = { draws: 0, holds: 3, stock_short: false };

function panel(info: DiscardInfo, root: HTMLElement): void {
  const pub = game({ rules: TEN_POINT_RULES, phase: "discard", to_act: 0, bidder: 0 });
  const state = seated(seat(pub, 0, HAND, { discard: info }));
  const withHints = { ...state, table: { ...state.table, settings: { ...state.table.settings, hints: true } } };
  const choice = discardChoice(HAND, info, new Set());
  act(() =>
    render(<ActionPanel state={withHints} pub={pub} choice={choice} onPick={() => undefined} pickedMarked={false} />, root),
  );
}

describe("a discard the rules decide", () => {
  const root = document.createElement("div");
  afterEach(() => act(() => render(null, root)));

  it("is worded as forced and offers no hint", () => {
    panel({ count: 2, required: ["2c", "3d"], choosable: [], ...NO_REFILL }, root);
    expect(root.querySelector("h2")?.textContent).toBe("Discard these 2 cards");
    expect(root.textContent).toContain("The rules decide every card");
    expect(root.querySelector(".hint-btn")).toBeNull();
  });

  it("while a discard with a choice asks to choose and offers the hint", () => {
    panel({ count: 2, required: ["2c"], choosable: ["3d", "5s"], ...NO_REFILL }, root);
    expect(root.querySelector("h2")?.textContent).toBe("Choose 2 cards to discard");
    expect(root.querySelector(".hint-btn")).not.toBeNull();
  });
});
