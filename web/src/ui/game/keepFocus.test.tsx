// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Hand } from "../Hand";
import { focusHome, useKeptFocus } from "./keepFocus";

interface TableProps {
  /** The cards in the hand (none between two hands). */
  cards: string[];
  /** The bids offered on this seat's turn, when it bids. */
  bids?: number[];
  /** The key of this seat's turn, when it can be taken. */
  turn?: string | null;
}

/** The parts of the table that the focus moves between: its title, the bid buttons, the hand. */
function Table({ cards, bids = [], turn = null }: TableProps) {
  useKeptFocus(turn);
  return (
    <div class="game">
      <h1 tabIndex={-1}>Hand</h1>
      {bids.length > 0 && (
        <div class="action-panel mine">
          <div class="bid-buttons">
            {bids.map((bid) => (
              <button key={bid} type="button">
                {bid}
              </button>
            ))}
          </div>
        </div>
      )}
      <div class="hand">
        {cards.map((card, index) => (
          <button key={card} type="button" class="hand-card" tabIndex={index === 0 ? 0 : -1}>
            {card}
          </button>
        ))}
      </div>
      <input aria-label="Chat" />
    </div>
  );
}

function focused(): string {
  const active = document.activeElement;
  return active === document.body || active === null ? "body" : (active.textContent ?? "");
}

const root = document.createElement("div");
beforeEach(() => document.body.append(root));
afterEach(() => {
  act(() => render(null, root));
  root.remove();
});

describe("useKeptFocus", () => {
  it("puts the focus of a table shown with it nowhere on the turn's choices, else the hand, else the title", () => {
    act(() => render(<Table cards={["AS", "KD"]} bids={[2, 3]} turn="1/auction" />, root));
    expect(focused()).toBe("2");
    act(() => render(null, root));
    act(() => render(<Table cards={["AS", "KD"]} />, root));
    expect(focused()).toBe("AS");
    act(() => render(null, root));
    act(() => render(<Table cards={[]} />, root));
    expect(focused()).toBe("Hand");
    expect(focusHome()?.tagName).toBe("H1");
  });

  it("moves the focus from a card played to the hand's tab stop, and from the last card to the title", () => {
    act(() => render(<Table cards={["AS", "KD", "QH"]} />, root));
    (root.querySelectorAll<HTMLElement>(".hand-card")[1]).focus();
    act(() => render(<Table cards={["AS", "QH"]} />, root));
    expect(focused()).toBe("AS");
    act(() => render(<Table cards={[]} />, root));
    expect(focused()).toBe("Hand");
  });

  it("takes the focus from the title to the next hand as soon as it is dealt, before this seat's turn", () => {
    act(() => render(<Table cards={[]} />, root));
    expect(focused()).toBe("Hand");
    act(() => render(<Table cards={["JC", "10H"]} />, root));
    expect(focused()).toBe("JC");
    act(() => render(<Table cards={["JC", "10H"]} bids={[2]} turn="2/auction" />, root));
    expect(focused()).toBe("2");
  });

  it("brings the focus from the hand to the bids when the turn to bid starts", () => {
    act(() => render(<Table cards={["JC", "10H"]} />, root));
    expect(focused()).toBe("JC");
    act(() => render(<Table cards={["JC", "10H"]} bids={[2, 3]} turn="1/auction" />, root));
    expect(focused()).toBe("2");
  });

  it("leaves the focus the player put elsewhere, or on the page with a click, where it is", () => {
    act(() => render(<Table cards={["JC", "10H"]} />, root));
    root.querySelector<HTMLElement>("input")?.focus();
    act(() => render(<Table cards={["JC", "10H"]} bids={[2]} turn="1/auction" />, root));
    expect(focused()).toBe("");
    expect(document.activeElement?.tagName).toBe("INPUT");
    (document.activeElement as HTMLElement).blur();
    act(() => render(<Table cards={["JC", "10H"]} bids={[2]} turn="1/auction" />, root));
    expect(focused()).toBe("body");
  });
});

describe("Hand", () => {
  it("keeps the focus on a card that moves when the hand is sorted anew (trump named)", () => {
    const hand = (cards: string[]) => (
      <Hand cards={cards} playable={new Set()} myTurn={false} onActivate={() => undefined} />
    );
    act(() => render(<div class="game">{hand(["AS", "KS", "QH", "JH"])}</div>, root));
    act(() => root.querySelector<HTMLElement>(".hand-card")?.focus());
    expect(focused()).toBe("AS");
    act(() => render(<div class="game">{hand(["QH", "JH", "AS", "KS"])}</div>, root));
    expect(document.activeElement).toBe(root.querySelectorAll(".hand-card")[2]);
  });
});
