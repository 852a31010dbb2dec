import { describe, expect, it } from "vitest";
import { acts } from "../test/fakes";
import { hintText } from "./actions";
import { errorText } from "./index";
import type { Phase, ServerError } from "../types";

const NAMES = ["Ann", "Ben", "Cy", "Di"];
const name = (seat: number) => NAMES[seat];

function refusal(code: string, args: Record<string, string | number>, message = "the English message"): ServerError {
  return { code, args, message };
}

describe("errorText", () => {
  it("names the suit led from its code", () => {
    const args = { reason_code: "must_follow", led_suit: "h", action: "Ks" };
    expect(errorText(refusal("illegal_action", args), name)).toBe(
      "You must follow suit: hearts were led and you hold one.",
    );
    const trump = { reason_code: "must_follow_trump", led_suit: "s", action: "Kh" };
    expect(errorText(refusal("illegal_action", trump), name)).toBe(
      "Trump was led (spades) and you hold a trump: you must play one.",
    );
  });

  it("says what the phase asks for, from the phase's code", () => {
    const said = (phase: Phase) =>
      errorText(refusal("illegal_action", { reason_code: "wrong_phase", phase, action: "Ah" }), name);
    expect(said("auction")).toBe("Now is the time to bid or pass.");
    expect(said("widow")).toBe("Now is the time to take the widow.");
    expect(said("trump")).toBe("Now is the time to name trump.");
    expect(said("discard")).toBe("Now is the time to discard.");
    expect(said("play")).toBe("Now is the time to play a card.");
  });

  it("names the seat to act and the cards in words", () => {
    expect(errorText(refusal("illegal_action", { reason_code: "not_your_turn", to_act: 2 }), name)).toBe(
      "It is Cy's turn.",
    );
    expect(errorText(refusal("illegal_action", { reason_code: "not_in_hand", card: "Th" }), name)).toBe(
      "You do not hold the ten of hearts.",
    );
  });

  it("explains refused settings and moves from their codes, never from English words", () => {
    const players = { reason_code: "players_with_teams", preset: "house", players: 5, allowed: "4, 6, 8" };
    expect(errorText(refusal("rules_refused", players), name)).toBe(
      "House (6 points) in teams is played by 4, 6, 8 players, not 5.",
    );
    expect(errorText(refusal("rules_refused", { reason_code: "rules" }), name)).toBe(
      "These settings do not make a game under this preset’s rules.",
    );
    expect(errorText(refusal("bad_action", { reason_code: "not_an_action" }), name)).toBe(
      "The server does not recognise that move.",
    );
  });

  it("falls back on the code's own text, then on the server's message", () => {
    expect(errorText(refusal("rules_refused", { reason_code: "new_reason" }), name)).toBe(
      "The rules do not allow these settings.",
    );
    expect(errorText(refusal("seat_taken", { seat: 2 }), name)).toBe("Seat 3 is already taken.");
    expect(errorText(refusal("brand_new_code", {}, "something new"), name)).toBe("something new");
  });
});

describe("hintText", () => {
  it("names the server's moon bid as the moon, and no other bid", () => {
    expect(hintText(acts.bid(7), null, false, 7)).toBe("Suggested: shoot the moon (7)");
    expect(hintText(acts.bid(7), null, false, null)).toBe("Suggested: bid 7");
    expect(hintText(acts.bid(8), null, false, 7)).toBe("Suggested: bid 8");
  });
});
