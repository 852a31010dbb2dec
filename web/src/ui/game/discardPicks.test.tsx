// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { useDiscardPicks } from "./discard";

// Every render's picks, in order, and the setter of the latest render.
let seen: string[][] = [];
let pick: (cards: Set<string>) => void = () => undefined;

function Picks({ choiceKey }: { choiceKey: string }) {
  const [picked, setPicked] = useDiscardPicks(choiceKey);
  seen.push([...picked]);
  pick = setPicked;
  return <p>{[...picked].join(" ")}</p>;
}

describe("useDiscardPicks", () => {
  const root = document.createElement("div");
  afterEach(() => {
    act(() => render(null, root));
    seen = [];
  });

  it("keeps the picks while the choice stays the same", () => {
    act(() => render(<Picks choiceKey="3|2|AS|KD QD" />, root));
    act(() => pick(new Set(["KD"])));
    act(() => render(<Picks choiceKey="3|2|AS|KD QD" />, root));
    expect(seen).toEqual([[], ["KD"], ["KD"]]);
    expect(root.textContent).toBe("KD");
  });

  it("drops the picks in the very render where the choice changes", () => {
    // The next choice may offer the same cards: not one render may count the old picks in it.
    act(() => render(<Picks choiceKey="3|2|AS|KD QD" />, root));
    act(() => pick(new Set(["KD"])));
    act(() => render(<Picks choiceKey="4|2|JS|KD QD" />, root));
    expect(seen).toEqual([[], ["KD"], []]);
    expect(root.textContent).toBe("");
    act(() => pick(new Set(["QD"])));
    expect(seen.at(-1)).toEqual(["QD"]);
  });

  it("has nothing picked for no choice at all", () => {
    act(() => render(<Picks choiceKey="" />, root));
    expect(seen).toEqual([[]]);
  });
});
