import { describe, expect, it } from "vitest";
import { noteHand, resumeFrom, type Session } from "./session";

const SEAT: Session = { table: "abcdefgh", token: "t".repeat(20), seat: 1, version: 50, seen: 0 };

describe("noteHand", () => {
  it("keeps the version a hand was dealt at", () => {
    const dealt = noteHand(SEAT, 50, 3, 50);
    expect(dealt).toMatchObject({ hand: 3, handFrom: 50 });
    // Later states of the same hand leave it as it is.
    expect(noteHand({ ...dealt, version: 58 }, 58, 3, null)).toMatchObject({ hand: 3, handFrom: 50 });
  });

  it("takes the first state seen of a hand when its deal is not known", () => {
    expect(noteHand({ ...SEAT, hand: 2, handFrom: 30 }, 50, 3, null)).toMatchObject({ hand: 3, handFrom: 50 });
    expect(noteHand(SEAT, 50, 1, null)).toMatchObject({ hand: 1, handFrom: 50 });
  });

  it("notes nothing outside a match", () => {
    expect(noteHand(SEAT, 50, null, null)).toBe(SEAT);
  });
});

describe("resumeFrom", () => {
  it("resumes from just before the hand's deal, so that the server replays the hand", () => {
    expect(resumeFrom({ ...SEAT, hand: 3, handFrom: 40 })).toBe(39);
  });

  it("resumes from the last version seen when no hand is noted, or the note is not sensible", () => {
    expect(resumeFrom(SEAT)).toBe(50);
    expect(resumeFrom({ ...SEAT, hand: 3, handFrom: 0 })).toBe(50);
    expect(resumeFrom({ ...SEAT, hand: 3, handFrom: 51 })).toBe(50);
  });
});
