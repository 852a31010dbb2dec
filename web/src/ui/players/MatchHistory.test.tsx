// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { t } from "../../i18n";
import { forgetProfile, saveProfile } from "../../profile";
import { update } from "../../store";
import { fakeFetch, type Seen } from "../../test/fakes";
import { FACTS } from "../../test/presets";
import { MatchHistory } from "./MatchHistory";

const ME = { player: "me0000000000", secret: "s".repeat(32), name: "Sam" };
const MATCH = {
  match: "Qw3eRt5yUi8o",
  preset: "house",
  finished_at: 1764680000.0,
  players: [
    { seat: 0, name: "Sam", player: ME.player, bot: false },
    { seat: 1, name: "Bot", player: "bot-heuristic", bot: true, bot_level: "heuristic" },
    { seat: 2, name: "Ada", player: null, bot: false },
    { seat: 3, name: "Cy", player: "cy0000000000", bot: false },
  ],
  sides: [[0, 2], [1, 3]],
  scores: [21, 14],
  winner: 0,
  seat: 0,
  won: true,
};

function serve(): Seen[] {
  return fakeFetch((seen) =>
    seen.method === "POST" ? { status: 201, json: { ok: true } } : { json: { matches: [MATCH], more: false } },
  );
}

const buttons = (root: HTMLElement) => Array.from(root.querySelectorAll<HTMLButtonElement>(".report-button"));

describe("reporting from a match history", () => {
  const root = document.createElement("div");
  document.body.append(root);
  beforeEach(() => {
    saveProfile(ME);
    update({ presets: { status: "ready", facts: FACTS } });
  });
  afterEach(() => {
    act(() => render(null, root));
    forgetProfile();
    vi.unstubAllGlobals();
    vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
  });

  it("puts a Report button beside each other person's name in one's own history, none beside a bot", async () => {
    serve();
    act(() => render(<MatchHistory player={ME.player} own />, root));
    await vi.waitFor(() => expect(buttons(root).length).toBe(2));
    expect(buttons(root).map((b) => b.getAttribute("aria-label"))).toEqual([
      t("report.action", { name: "Ada" }),
      t("report.action", { name: "Cy" }),
    ]);
  });

  it("has none in another player's history", async () => {
    const seen = serve();
    act(() => render(<MatchHistory player="cy0000000000" />, root));
    await vi.waitFor(() => expect(root.querySelector(".history-item")).not.toBeNull());
    expect(seen.length).toBe(1);
    expect(buttons(root)).toEqual([]);
  });

  it("sends the report of a finished match over HTTP with the profile's secret, then thanks", async () => {
    const seen = serve();
    act(() => render(<MatchHistory player={ME.player} own />, root));
    await vi.waitFor(() => expect(buttons(root).length).toBe(2));
    act(() => buttons(root)[1].click());
    const dialog = await vi.waitFor(() => {
      const found = root.querySelector<HTMLDialogElement>("dialog.report-dialog");
      expect(found?.querySelector("input[type=radio]")).toBeTruthy();
      return found as HTMLDialogElement;
    });
    const reason = dialog.querySelector<HTMLInputElement>("input[value=abusive_chat]");
    act(() => reason?.click());
    const line = dialog.querySelector<HTMLInputElement>(".report-text input");
    act(() => {
      if (line) line.value = "insults";
      line?.dispatchEvent(new Event("input", { bubbles: true }));
    });
    act(() => dialog.querySelector("form")?.requestSubmit());
    await vi.waitFor(() => expect(dialog.querySelector("[role=status]")).not.toBeNull());
    const posted = seen.filter((request) => request.method === "POST");
    expect(posted).toEqual([
      {
        method: "POST",
        url: `/api/players/${ME.player}/reports`,
        body: { match: MATCH.match, seat: 3, reason: "abusive_chat", text: "insults" },
        auth: `Bearer ${ME.secret}`,
      },
    ]);
  });
});
