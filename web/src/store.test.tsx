// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { getApp, update, useApp } from "./store";

function Conn() {
  return <p>{useApp().conn}</p>;
}

describe("useApp", () => {
  const root = document.createElement("div");
  const first = getApp().conn;
  afterEach(() => {
    act(() => render(null, root));
    update({ conn: first });
  });

  it("shows a change made between the first render and the subscription", () => {
    // A fast answer (the socket's "connect", the presets) can arrive before the component's
    // effects run: it must not be lost, or the page waits forever on a state it already has.
    act(() => {
      render(<Conn />, root);
      expect(root.textContent).toBe(first);
      update({ conn: "connected" });
    });
    expect(root.textContent).toBe("connected");
  });

  it("follows the changes made once it is shown", () => {
    act(() => render(<Conn />, root));
    act(() => update({ conn: "disconnected" }));
    expect(root.textContent).toBe("disconnected");
    act(() => update({ conn: "connected" }));
    expect(root.textContent).toBe("connected");
  });
});
