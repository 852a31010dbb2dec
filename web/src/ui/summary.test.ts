import { describe, expect, it } from "vitest";
import { game, HOUSE_RULES, handResult, watching } from "../test/states";
import type { HandResult, PublicGame } from "../types";
import { aboveTargetNotes, matchEndReason, outcomeClass, verdictText } from "./summary";

function verdict(result: Partial<HandResult>, scoresBefore = [0, 0, 0, 0]): string {
  const pub = game({ phase: "hand_over", start_scores: scoresBefore, results: [handResult(result)] });
  return verdictText(watching(pub), pub, 0);
}

describe("verdictText", () => {
  it("says what the server's outcome says", () => {
    expect(verdict({})).toBe("Ben bid 3 and made it.");
    expect(verdict({ made: false, outcome: "set" })).toBe("Ben bid 3 and was set.");
    expect(verdict({ bid: 7, outcome: "moon_made" })).toBe(
      "Ben shot the moon (7) and took every point: the match is won.",
    );
    expect(verdict({ bid: 7, made: false, outcome: "moon_set" })).toBe(
      "Ben shot the moon (7) and fell short: the match is lost.",
    );
    expect(verdict({ bidder: null, bid: null, made: null, outcome: "thrown_in" })).toBe(
      "Everyone passed: the hand was thrown in.",
    );
  });

  it("takes the reset of a moon from the server, whatever the scores it sees", () => {
    // The client does not work out that the bidder was below zero: the outcome says it.
    expect(verdict({ bid: 7, outcome: "moon_reset" }, [0, 5, 0, 0])).toMatch(/only goes back to 0/);
    expect(verdict({ bid: 7, outcome: "moon_made" }, [0, -5, 0, 0])).toMatch(/the match is won/);
  });

  it("falls back on made or set for an outcome it does not know", () => {
    expect(verdict({ outcome: "doubled" as HandResult["outcome"] })).toBe("Ben bid 3 and made it.");
  });
});

describe("outcomeClass", () => {
  it("marks a set bid and a moon", () => {
    expect(outcomeClass("made")).toBe("made");
    expect(outcomeClass("set")).toBe("set");
    expect(outcomeClass("moon_made")).toBe("made moon");
    expect(outcomeClass("moon_reset")).toBe("made moon");
    expect(outcomeClass("moon_set")).toBe("set moon");
    expect(outcomeClass("thrown_in")).toBe("made");
  });
});

describe("aboveTargetNotes", () => {
  function notes(above: HandResult["above_target"]): string[] {
    const pub = game({ phase: "hand_over", results: [handResult({ above_target: above })] });
    return aboveTargetNotes(watching(pub), pub, 0);
  }

  it("says nothing when the server lists no side", () => {
    expect(notes([])).toEqual([]);
  });

  it("words each reason the server gives, the sides of one reason together", () => {
    expect(notes([{ side: 1, why: "bidder_only" }])).toEqual([
      "At or above the target without winning: Ben. Only the bidding side takes the match, in a hand where it makes its bid.",
    ]);
    expect(
      notes([
        { side: 0, why: "set" },
        { side: 2, why: "tie" },
        { side: 3, why: "tie" },
      ]),
    ).toEqual([
      "At or above the target without winning: Ann. A side that is set does not win with that hand.",
      "At or above the target without winning: Cy; Di. The best scores are tied: another hand is played.",
    ]);
    expect(notes([{ side: 2, why: "beaten" }])[0]).toMatch(/Cy\. Another side took the match in this hand\.$/);
    expect(notes([{ side: 2, why: "thrown_in" }])[0]).toMatch(/A hand thrown in settles nothing\.$/);
  });

  it("reads the list, not the scores or the target", () => {
    // Ben is far above the target, but the server does not list him: nothing is said.
    const pub = game({ phase: "hand_over", results: [handResult({ scores: [0, 40, 0, 0] })] });
    expect(aboveTargetNotes(watching(pub), pub, 0)).toEqual([]);
  });

  it("leaves a reason this client does not know unsaid", () => {
    expect(notes([{ side: 1, why: "doubled" as "tie" }])).toEqual(["At or above the target without winning: Ben."]);
  });
});

describe("matchEndReason", () => {
  function ended(overrides: Partial<PublicGame>, result: Partial<HandResult> = {}): string | null {
    const pub = game({ phase: "match_over", winner: 1, results: [handResult(result)], ...overrides });
    return matchEndReason(watching(pub), pub);
  }

  it("gives the moon's verdict when the server says a moon ended the match", () => {
    const moon = { bid: 7, outcome: "moon_made" as const, ended_by: "moon_made" as const };
    expect(ended({ ended_by: "moon_made" }, moon)).toBe(
      "Ben shot the moon (7) and took every point: the match is won.",
    );
    // A moon reset in the last hand did not end the match: the target did.
    expect(ended({ ended_by: "target" }, { ...moon, outcome: "moon_reset", ended_by: "target" })).toBeNull();
  });

  it("names the sides the server says are eliminated, at the table's elimination score", () => {
    const rules = { ...HOUSE_RULES, elimination: -21 };
    expect(ended({ rules, ended_by: "elimination", eliminated: [0, 2], scores: [-22, 5, -25, 3] })).toBe(
      "Ann: −21 or below, out of the match. Cy: −21 or below, out of the match.",
    );
    // Scores below the elimination score with no side listed say nothing: the server decides.
    expect(ended({ rules, ended_by: "target", scores: [-30, 21, 0, 0] })).toBeNull();
  });
});
