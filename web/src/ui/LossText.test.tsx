// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { LossText } from "./Review";

describe("LossText", () => {
  const root = document.createElement("div");
  afterEach(() => act(() => render(null, root)));

  it("shows a loss with the margin of error the server sent", () => {
    act(() => render(<LossText loss={1.25} error={0.4} />, root));
    expect(root.textContent).toBe("Loss 1.25 ± 0.40");
  });

  it("shows the loss alone when the server sent no margin", () => {
    act(() => render(<LossText loss={0.5} error={null} />, root));
    expect(root.textContent).toBe("Loss 0.50");
  });
});
