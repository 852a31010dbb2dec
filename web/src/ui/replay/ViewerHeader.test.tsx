// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureView } from "../../replay/fixture";
import { ViewerHeader } from "./ViewerHeader";

describe("ViewerHeader", () => {
  const root = document.createElement("div");
  afterEach(() => act(() => render(null, root)));

  const places = () =>
    Array.from(root.querySelectorAll("table.standings tbody tr")).map((tr) => [
      tr.querySelector(".place")?.textContent,
      tr.querySelector("th")?.textContent,
    ]);

  it("shows a finished match's standings in the places the server sent", () => {
    const view = { ...fixtureView(), winner: 1, complete: true };
    view.standings = [view.standings[1], { ...view.standings[0], place: 2 }, view.standings[2]];
    act(() => render(<ViewerHeader view={view} match={null} />, root));
    const names = view.players;
    expect(places()).toEqual([
      ["1st", names[1]],
      ["2nd", names[0]],
      ["3rd", names[2]],
    ]);
  });

  it("shows no standings while the record has no winner", () => {
    act(() => render(<ViewerHeader view={fixtureView()} match={null} />, root));
    expect(root.querySelector("table.standings")).toBeNull();
  });
});
