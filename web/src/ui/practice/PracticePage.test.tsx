// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { t } from "../../i18n";
import { forgetProfile, saveProfile } from "../../profile";
import { errorBody, fakeFetch, acts, type Seen } from "../../test/fakes";
import { game, seat } from "../../test/states";
import { PracticePage, preparePractice } from "./PracticePage";
import { pw } from "./words";

await preparePractice("en");

const ME = { player: "me0000000000", secret: "s".repeat(32), name: "Sam" };
const PUB = game({ to_act: 2 });
const QUESTION = {
  id: "3f2a9c0d11e4b7a2",
  preset: "house",
  players: 4,
  seat: 2,
  kind: "bid",
  public: PUB,
  you: { ...seat(PUB, 2, ["As", "Kd", "5h", "Jc", "2s", "9h"], { legal: [acts.pass(), acts.bid(2), acts.bid(3)] }), public: PUB },
  names: ["Expert", "Normal", "You", "Normal"],
  choices: ["pass", "bid 2", "bid 3"],
  actions: [acts.pass(), acts.bid(2), acts.bid(3)],
  themes: ["bid_the_hand"],
  difficulty: 0.4,
  rating: 1500,
  source: "selfplay",
};
const RATING = (rating: number) => ({ rating, mu: 25, sigma: 8, attempts: 3 });
const ANSWER = { best: "bid 3", values: { pass: -0.42, "bid 2": 0.31, "bid 3": 1.05 }, margin: 0.74, error: 0.21, deals: 400, lines: [] };

function serve(): Seen[] {
  return fakeFetch((seen) => {
    if (seen.url === "/api/practice/themes") return { json: { themes: [{ id: "bid_the_hand", positions: 3 }] } };
    if (seen.url === "/api/practice/daily") return { json: { position: { ...QUESTION, id: "dddddddddddddddd" }, date: "2026-12-06" } };
    if (seen.url.includes("/practice/next?theme=nope")) return { status: 400, json: errorBody("no_such_theme") };
    if (seen.url.includes("/practice/next")) return { json: { position: QUESTION, rating: RATING(1500), streak: 1 } };
    const choice = (seen.body as { choice: string }).choice;
    return {
      json: { correct: choice === "bid 3", choice, answer: ANSWER, rating: { before: RATING(1500), after: RATING(choice === "bid 3" ? 1512.3 : 1490.1) }, streak: choice === "bid 3" ? 2 : 0 },
    };
  });
}

const button = (root: HTMLElement, name: string) =>
  Array.from(root.querySelectorAll<HTMLButtonElement>("button")).find((b) => (b.getAttribute("aria-label") ?? b.textContent)?.trim() === name);

describe("the Practice page", () => {
  const root = document.createElement("div");
  document.body.append(root);
  beforeEach(() => saveProfile(ME));
  afterEach(() => {
    act(() => render(null, root));
    forgetProfile();
    vi.unstubAllGlobals();
    vi.stubGlobal("navigator", { language: "en", languages: ["en"] });
  });

  it("asks for the profile's next position, sends the choice, and shows every choice's value with the best marked", async () => {
    const seen = serve();
    act(() => render(<PracticePage />, root));
    await vi.waitFor(() => expect(button(root, t("act.bid_n", { n: 3 }))).toBeTruthy());
    const next = seen.find((s) => s.url.includes("/next"));
    expect(next?.auth).toBe(`Bearer ${ME.secret}`);
    expect(root.textContent).toContain(pw("theme.bid_the_hand"));
    expect(root.textContent).not.toContain("1.05"); // no answer before the attempt
    act(() => button(root, t("act.bid_n", { n: 2 }))?.click());
    await vi.waitFor(() => expect(root.querySelector(".practice-answer")).not.toBeNull());
    const post = seen.find((s) => s.method === "POST");
    expect(post?.url).toBe(`/api/players/${ME.player}/practice/${QUESTION.id}`);
    expect(post?.body).toEqual({ choice: "bid 2" });
    expect(root.querySelector("#practice-verdict")?.textContent).toBe(pw("practice.wrong"));
    const rows = Array.from(root.querySelectorAll(".practice-values tbody tr"));
    expect(rows.map((row) => row.querySelector("td")?.textContent)).toEqual(["+1.1", "+0.3", "-0.4"]);
    expect(rows[0].classList.contains("best")).toBe(true);
    expect(rows[1].classList.contains("chosen")).toBe(true);
    expect(root.textContent).toContain(pw("practice.rating_change", { before: "1,500.0", after: "1,490.1" }));
    expect(root.textContent).toContain("streak 0");
    act(() => button(root, pw("practice.next"))?.click());
    await vi.waitFor(() => expect(seen.filter((s) => s.url.includes("/next")).length).toBe(2));
    // The keyboard starts the next position at what to decide.
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("practice-decide"));
  });

  it("shows the daily position, and asks for the positions of the theme picked", async () => {
    const seen = serve();
    act(() => render(<PracticePage />, root));
    await vi.waitFor(() => expect(button(root, pw("practice.daily"))).toBeTruthy());
    act(() => button(root, pw("practice.daily"))?.click());
    await vi.waitFor(() => expect(root.querySelector("h1")?.textContent).toBe(pw("practice.daily_title", { date: "2026-12-06" })));
    expect(seen.some((s) => s.url === "/api/practice/daily")).toBe(true);
    const select = root.querySelector<HTMLSelectElement>(".practice-theme select") as HTMLSelectElement;
    await vi.waitFor(() => expect(select.options.length).toBe(2));
    act(() => {
      select.value = "bid_the_hand";
      select.dispatchEvent(new Event("change"));
    });
    await vi.waitFor(() => expect(seen.some((s) => s.url.endsWith("/next?theme=bid_the_hand"))).toBe(true));
  });
});
