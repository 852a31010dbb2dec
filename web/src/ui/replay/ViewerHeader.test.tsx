// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { t } from "../../i18n";
import { forgetProfile, saveProfile } from "../../profile";
import { fixtureView } from "../../replay/fixture";
import type { MatchInfo } from "../../replay/types";
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

  const MATCH: MatchInfo = {
    match: "Qw3eRt5yUi8o",
    preset: "house",
    finished_at: 1764680000.0,
    players: [
      { seat: 0, name: "Ana", player: "ana000000000", bot: false },
      { seat: 1, name: "Ben", player: null, bot: false },
      { seat: 2, name: "Cleo", player: "bot-expert", bot: true, bot_level: "expert" },
    ],
    sides: [[0], [1], [2]],
    scores: [21, 14, 9],
    winner: 0,
  };
  const reportLabels = () =>
    Array.from(root.querySelectorAll(".report-button")).map((button) => button.getAttribute("aria-label"));

  it("lets a player of the match report another person, not a bot nor themselves", () => {
    saveProfile({ player: "ana000000000", secret: "s".repeat(32), name: "Ana" });
    try {
      act(() => render(<ViewerHeader view={fixtureView()} match={MATCH} />, root));
      expect(reportLabels()).toEqual([t("report.action", { name: "Ben" })]);
    } finally {
      forgetProfile();
    }
  });

  it("has no Report button for someone who did not play the match, nor for an uploaded record", () => {
    saveProfile({ player: "zed000000000", secret: "s".repeat(32), name: "Zed" });
    try {
      act(() => render(<ViewerHeader view={fixtureView()} match={MATCH} />, root));
      expect(reportLabels()).toEqual([]);
      act(() => render(<ViewerHeader view={fixtureView()} match={null} />, root));
      expect(reportLabels()).toEqual([]);
    } finally {
      forgetProfile();
    }
  });
});
