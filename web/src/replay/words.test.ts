// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../i18n";
import { update } from "../store";
import { FACTS } from "../test/presets";
import {
  actionLine,
  discardedCards,
  positionText,
  presetLabel,
  sideLabel,
  sizeText,
  stepTitle,
  tooLargeText,
  verdictText,
} from "../ui/replay/words";
import { acts } from "../test/fakes";
import type { Action } from "../types";
import { fixtureView } from "./fixture";

const view = fixtureView();
const [first, second] = view.hands;

describe("the viewer's words", () => {
  it("names the step and where the viewer is", () => {
    expect(stepTitle(first, 0)).toBe("Auction");
    expect(stepTitle(first, 2)).toBe("Trick 2 of 6");
    expect(stepTitle(first, 7)).toBe("Result");
    expect(positionText(view, { hand: 1, step: 1 })).toBe("Hand 2 of 2, step 2 of 3: Trick 1 of 2");
  });

  it("says the auction's actions with who took them", () => {
    const entry = (seat: number, act: Action) => ({ seat, action: act.text, act });
    expect(actionLine(view, entry(0, acts.pass()), null)).toBe("Ana passes");
    expect(actionLine(view, entry(2, acts.bid(3)), null)).toBe("Cleo bids 3");
    expect(actionLine(view, entry(2, acts.bid(7)), 7)).toMatch(/^Cleo shoots the moon \(7\)/);
    expect(actionLine(view, entry(1, acts.trump("h")), null)).toBe("Ben names trump: hearts");
    expect(actionLine(view, entry(1, acts.discard("2c", "3d")), null)).toBe("Ben discards 2 cards");
    expect(actionLine(view, entry(1, acts.widow()), null)).toBe("Ben: take the widow");
    expect(discardedCards(entry(1, acts.discard("2c", "3d")))).toEqual(["2c", "3d"]);
    expect(discardedCards(entry(0, acts.pass()))).toEqual([]);
  });

  it("shows an entry the server did not say the kind of as its text, unread", () => {
    expect(actionLine(view, { seat: 0, action: "bid 3" }, null)).toBe("Ana: bid 3");
    expect(discardedCards({ seat: 1, action: "discard 2c 3d" })).toEqual([]);
  });

  it("says what became of the bid", () => {
    expect(verdictText(view, first, null)).toBe("Cleo bid 3 and was set.");
    expect(verdictText(view, second, null)).toBeNull();
    const thrown = { ...first, bidder: null, bid: null, result: { ...first.result!, made: null } };
    expect(verdictText(view, thrown, null)).toBe("Everyone passed: the hand was thrown in.");
  });

  it("names sides and the game", () => {
    expect(sideLabel({ ...view, players: ["A", "B", "C", "D"], sides: [[0, 2], [1, 3]] }, 1)).toBe("B & D");
    expect(presetLabel(view)).toBe("House (6 points)");
    expect(presetLabel({ ...view, rules: "unknown_game" })).toBe("unknown_game");
  });
});

describe("a record too large", () => {
  afterEach(() => {
    update({ presets: { status: "loading" } });
    setLang("en");
  });

  it("says this server's limit once its facts have come, and no number before", () => {
    expect(tooLargeText()).toBe("The file is too large for this server.");
    update({ presets: { status: "ready", facts: { ...FACTS, limits: { ...FACTS.limits, record_bytes: 2_500_000 } } } });
    expect(tooLargeText()).toBe("The file is too large: a match record may be at most 2.5 MB.");
  });

  it("words a size in the current language", () => {
    expect(sizeText(FACTS.limits.record_bytes)).toBe("1 MB");
    expect(sizeText(64_000)).toBe("64 kB");
    setLang("fr");
    expect(sizeText(2_500_000)).toBe("2,5\u202fMo"); // French puts a narrow space before the unit
  });
});
