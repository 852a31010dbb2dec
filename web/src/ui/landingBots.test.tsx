// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { update } from "../store";
import { FACTS } from "../test/presets";
import { Landing } from "./Landing";

describe("the bots of Play now", () => {
  const root = document.createElement("div");
  beforeEach(() => {
    localStorage.clear();
    update({ presets: { status: "ready", facts: FACTS } });
  });
  afterEach(() => {
    act(() => render(null, root));
    update({ presets: { status: "loading" } });
  });

  it("are chosen beside Play now, outside the folded form, and Play now says the level chosen", () => {
    act(() => render(<Landing />, root));
    const playNow = root.querySelector("form.play-now");
    const select = playNow?.querySelector<HTMLSelectElement>("select#play-bots");
    expect(select).toBeTruthy();
    expect(select?.closest("details")).toBeNull();
    // One choice of bots on the page, for Play now and a created table alike.
    const labels = [...root.querySelectorAll("label")].filter((label) => label.textContent === "Bots");
    expect(labels.map((label) => label.htmlFor)).toEqual(["play-bots"]);
    act(() => {
      if (!select) return;
      select.value = "beginner";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(root.querySelector("#play-now-note")?.textContent).toContain("Bots: Beginner.");
  });
});
