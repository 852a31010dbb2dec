import { describe, expect, it } from "vitest";
import { acts } from "../../test/fakes";
import { game, seat } from "../../test/states";
import { readAttempt, readQuestion, type PracticeAnswer, type PracticeQuestion } from "./api";
import {
  answerRows,
  discardPicked,
  discardableCards,
  lineAt,
  playableCards,
  practiceState,
  togglePicked,
} from "./practice";
import { loadPracticeWords, pwn, themeName } from "./words";

function question(overrides: Partial<PracticeQuestion> = {}): PracticeQuestion {
  const pub = game({ to_act: 2 });
  return {
    id: "3f2a9c0d11e4b7a2",
    preset: "house",
    players: 4,
    seat: 2,
    kind: "bid",
    public: pub,
    you: seat(pub, 2, ["As", "Kd", "5h", "Jc", "2s", "9h"], { legal: [acts.pass(), acts.bid(2), acts.bid(3)] }),
    names: ["Expert", "Normal", "You", "Normal"],
    choices: ["pass", "bid 2", "bid 3"],
    actions: [acts.pass(), acts.bid(2), acts.bid(3)],
    themes: ["bid_the_hand"],
    difficulty: 0.42,
    rating: 1500,
    ...overrides,
  };
}

const ANSWER: PracticeAnswer = {
  best: "bid 3",
  values: { pass: -0.42, "bid 2": 0.31, "bid 3": 1.05 },
  margin: 0.74,
  error: 0.21,
  deals: 400,
  lines: [
    {
      hands: [["2c", "3c"], ["4d", "5d"], ["As", "Kd"], ["6h", "7h"]],
      actions: [
        { seat: 2, action: acts.bid(3) },
        { seat: 3, action: acts.pass() },
        { seat: 2, action: acts.play("As") },
        { seat: 3, action: acts.play("6h") },
      ],
    },
  ],
};

describe("reading the server's answers", () => {
  it("takes a question and refuses one that carries its answer", () => {
    const sent = { ...question(), you: { ...question().you, public: undefined } };
    const read = readQuestion(JSON.parse(JSON.stringify(sent)));
    expect(read?.choices).toEqual(["pass", "bid 2", "bid 3"]);
    expect(read?.you.public.to_act).toBe(2); // the seat's view takes the question's public state
    expect(readQuestion({ ...JSON.parse(JSON.stringify(sent)), answer: ANSWER })).toBeNull();
    expect(readQuestion({ id: "x" })).toBeNull();
  });

  it("takes an attempt's answer, rating and streak", () => {
    const rating = (r: number) => ({ rating: r, mu: 25, sigma: 8, attempts: 1 });
    const read = readAttempt({ correct: true, choice: "bid 3", answer: ANSWER, rating: { before: rating(1500), after: rating(1512.3) }, streak: 2 });
    expect(read?.correct).toBe(true);
    expect(read?.rating.after.rating).toBe(1512.3);
    expect(read?.answer.lines[0].actions).toHaveLength(4);
    expect(readAttempt({ correct: true, choice: "bid 3", rating: {} })).toBeNull();
  });
});

describe("the choices", () => {
  it("takes each choice's action from the server, and nothing of a kind it does not know", () => {
    const sent = JSON.parse(JSON.stringify({ ...question(), actions: [acts.pass(), { text: "jump 3", kind: "jump" }, acts.bid(3)] }));
    const read = readQuestion(sent);
    expect(read?.actions).toEqual([acts.pass(), null, acts.bid(3)]);
    expect(readQuestion({ ...sent, actions: undefined })?.actions).toEqual([null, null, null]);
  });

  it("offers the cards the choices play, and only those", () => {
    const q = question({ kind: "card", choices: ["As", "Kd"], actions: [acts.play("As"), acts.play("Kd")] });
    expect([...playableCards(q)]).toEqual(["As", "Kd"]);
  });

  it("confirms a discard only when the cards picked are one of the discards offered", () => {
    const q = question({
      kind: "discard",
      choices: ["discard 2s 5h", "discard 2s 9h"],
      actions: [acts.discard("2s", "5h"), acts.discard("2s", "9h")],
    });
    expect([...discardableCards(q)].sort()).toEqual(["2s", "5h", "9h"]);
    let picked = togglePicked(q, new Set(), "9h");
    expect(discardPicked(q, picked)).toBeNull();
    picked = togglePicked(q, picked, "2s");
    expect(discardPicked(q, picked)).toBe("discard 2s 9h");
    expect(togglePicked(q, picked, "5h")).toBe(picked); // no more cards than a discard lays down
    expect(discardPicked(q, togglePicked(q, picked, "9h"))).toBeNull();
  });
});

describe("the answer", () => {
  it("lists every choice with the server's value, the best first and marked, the one chosen marked", () => {
    const rows = answerRows(question(), ANSWER, "bid 2");
    expect(rows.map((row) => [row.choice, row.value, row.best, row.chosen])).toEqual([
      ["bid 3", 1.05, true, false],
      ["bid 2", 0.31, false, true],
      ["pass", -0.42, false, false],
    ]);
  });

  it("steps through a line, taking the cards played out of the hands", () => {
    const line = ANSWER.lines[0];
    expect(lineAt(line, 0).done).toEqual([]);
    const after = lineAt(line, 4);
    expect(after.done.map((step) => step.action?.kind)).toEqual(["bid", "pass", "play", "play"]);
    expect(after.hands[2]).toEqual(["Kd"]);
    expect(after.hands[3]).toEqual(["7h"]);
    expect(line.hands[2]).toEqual(["As", "Kd"]); // the line itself is left as the server sent it
  });

  it("draws the question as the table's state of the seat to decide, named from the question", () => {
    const state = practiceState(question());
    expect(state.table.you).toBe(2);
    expect(state.table.seats.map((s) => s.name)).toEqual(["Expert", "Normal", "You", "Normal"]);
    expect(state.game).toEqual(question().you);
    // The seat to decide under the player's own name where the page knows it.
    expect(practiceState(question(), "Sam").table.seats.map((s) => s.name)).toEqual(["Expert", "Normal", "Sam", "Normal"]);
  });
});

describe("the page's texts", () => {
  it("has every English key in every language, and names a theme by its id", async () => {
    const { en } = await import("./words/en");
    for (const lang of ["es", "fr", "it", "pt"] as const) {
      const words = (await import(`./words/${lang}.ts`)) as Record<string, Record<string, string>>;
      expect(Object.keys(words[lang]).sort()).toEqual(Object.keys(en).sort());
    }
    await loadPracticeWords("en");
    expect(themeName("save_the_jack")).toBe("Saving the Jack");
    expect(themeName("not_a_theme")).toBe("not_a_theme");
    expect(pwn("practice.streak", 3)).toBe("streak 3");
  });
});
