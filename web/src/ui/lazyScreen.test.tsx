// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lazyScreen } from "./lazyScreen";

function Arrived() {
  return <p class="arrived">arrived</p>;
}

describe("a screen in a chunk of its own", () => {
  const root = document.createElement("div");
  afterEach(() => {
    act(() => render(null, root));
  });

  it("is shown when its preloaded chunk arrives after the Loading… was drawn but before its effect ran", async () => {
    let arrive: (screen: typeof Arrived) => void = () => undefined;
    const Screen = lazyScreen<object>(() => new Promise((resolve) => (arrive = resolve)));
    Screen.preload(); // as main.tsx does at the start, alongside the language's catalog
    render(<Screen />, root); // drawn (Loading…), its effect not yet run
    expect(root.querySelector(".loading")).not.toBeNull();
    arrive(Arrived);
    await Promise.resolve(); // the chunk is here before the effect runs
    await vi.waitFor(() => expect(root.querySelector(".arrived")).not.toBeNull());
  });
});
