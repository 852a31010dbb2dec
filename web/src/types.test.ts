import { describe, expect, it } from "vitest";
import { acts } from "./test/fakes";
import { game, seat, watching } from "./test/states";
import { canAct, publicGame, seatView, trickPlays } from "./types";

describe("trickPlays", () => {
  it("pairs each card with the seat the server names", () => {
    const trick = { leader: 2, cards: ["Ah", "Kh", "Qh"], winner: 2, winning_card: "Ah", seats: [2, 2, 0] };
    expect(trickPlays(trick, 4)).toEqual([
      [2, "Ah"],
      [2, "Kh"],
      [0, "Qh"],
    ]);
  });

  it("without seats, counts one card a seat clockwise from the leader", () => {
    const trick = { leader: 3, cards: ["Ah", "Kh", "Qh", "Jh"], winner: 3, winning_card: "Ah" };
    expect(trickPlays(trick, 4).map(([who]) => who)).toEqual([3, 0, 1, 2]);
  });
});

describe("seatView and publicGame", () => {
  it("tell a seat's view from a spectator's", () => {
    const pub = game();
    const view = seat(pub, 1, ["Ah"]);
    expect(seatView(watching(pub))).toBeNull();
    expect(publicGame(watching(pub))).toBe(pub);
    expect(seatView({ ...watching(pub), game: view })).toBe(view);
    expect(publicGame({ ...watching(pub), game: view })).toBe(pub);
  });

  it("find no game in the lobby", () => {
    const lobby = { ...watching(game()), game: null };
    expect(seatView(lobby)).toBeNull();
    expect(publicGame(lobby)).toBeNull();
  });
});

describe("canAct", () => {
  it("is true on this seat's turn with an action listed", () => {
    expect(canAct(seat(game({ to_act: 1 }), 1, ["Ah"], { legal: [acts.pass(), acts.bid(2)] }))).toBe(true);
  });

  it("is true on a discard too big to list", () => {
    const discard = { count: 8, required: [], choosable: ["Ah"], draws: 0, holds: 1, stock_short: false };
    expect(canAct(seat(game({ phase: "discard", to_act: 1 }), 1, ["Ah"], { discard }))).toBe(true);
  });

  it("is false on another seat's turn, or with nothing to do", () => {
    expect(canAct(seat(game({ to_act: 2 }), 1, ["Ah"], { legal: [acts.pass()] }))).toBe(false);
    expect(canAct(seat(game({ to_act: 1 }), 1, ["Ah"]))).toBe(false);
  });
});
