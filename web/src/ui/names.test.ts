import { describe, expect, it } from "vitest";
import { game, watching } from "../test/states";
import { seatName, sideColor, sideNames } from "./names";

describe("seat and side names", () => {
  const state = watching(game(), ["Ann", null, "Cy", "Di"]);

  it("names a seat by its player, or by its number counted from 1 when it is empty", () => {
    expect(seatName(state, 0)).toBe("Ann");
    expect(seatName(state, 1)).toBe("Seat 2");
    expect(seatName(state, 9)).toBe("Seat 10");
  });

  it("adds the mark the server sends, and works none out itself", () => {
    const twice = watching(game(), ["Sam", "Sam", "Cy", "Di"]);
    twice.table.seats[1] = { ...twice.table.seats[1], mark: "K3QF" };
    expect(seatName(twice, 0)).toBe("Sam");
    expect(seatName(twice, 1)).toBe("Sam #K3QF");
  });

  it("joins a side's names with &", () => {
    expect(sideNames(state, [0, 2])).toBe("Ann & Cy");
    expect(sideNames(state, [3])).toBe("Di");
  });

  it("gives neighbouring sides different colours and comes back round after eight", () => {
    const colours = [0, 1, 2, 3, 4, 5, 6, 7].map(sideColor);
    expect(new Set(colours).size).toBe(8);
    expect(sideColor(8)).toBe(sideColor(0));
  });
});
