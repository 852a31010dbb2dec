import { describe, expect, it } from "vitest";
import { iconWithDot, TurnSignal, type Tab } from "./turnTitle";

const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32'/%3E%3C/svg%3E";
const YOUR_TURN = "● Your turn · Smear";

function tab(hidden = false): Tab & { hidden: boolean } {
  return { hidden, title: "Smear", icon: ICON };
}

function signalOn(page: Tab, text = () => YOUR_TURN): TurnSignal {
  return new TurnSignal(page, text);
}

describe("TurnSignal", () => {
  it("changes nothing while the page is in sight, turn or not", () => {
    const page = tab();
    const signal = signalOn(page);
    signal.turn(true);
    signal.turn(false);
    expect(page).toEqual(tab());
  });

  it("says it is your turn in a hidden page, and gives title and icon back when the turn passes", () => {
    const page = tab(true);
    const signal = signalOn(page);
    signal.turn(false);
    expect(page.title).toBe("Smear");
    signal.turn(true);
    expect(page.title).toBe(YOUR_TURN);
    expect(page.icon).toBe(iconWithDot(ICON));
    signal.turn(false);
    expect(page).toEqual(tab(true));
  });

  it("gives title and icon back when the page is shown again", () => {
    const page = tab();
    const signal = signalOn(page);
    signal.turn(true);
    page.hidden = true;
    signal.apply();
    expect(page.title).toBe(YOUR_TURN);
    page.hidden = false;
    signal.apply();
    expect(page).toEqual(tab());
  });

  it("gives back the title the page wrote last, and keeps one the page wrote after the turn", () => {
    const page = tab(true);
    const signal = signalOn(page);
    page.title = "● Smear";
    signal.turn(true);
    expect(page.title).toBe(YOUR_TURN);
    page.title = "● Smear (2)";
    signal.turn(true);
    page.hidden = false;
    signal.apply();
    expect(page.title).toBe("● Smear (2)");

    page.hidden = true;
    signal.apply();
    page.title = "Smear";
    signal.turn(false);
    expect(page.title).toBe("Smear");
    expect(page.icon).toBe(ICON);
  });

  it("reads its text each time it shows it, so the language switched meanwhile is used", () => {
    const page = tab(true);
    let text = YOUR_TURN;
    const signal = signalOn(page, () => text);
    signal.turn(true);
    text = "● Te toca · Smear";
    signal.turn(true);
    expect(page.title).toBe(text);
    signal.turn(false);
    expect(page.title).toBe("Smear");
  });

  it("leaves a page without an icon without one", () => {
    const page = { ...tab(true), icon: null };
    const signal = signalOn(page);
    signal.turn(true);
    expect(page.icon).toBeNull();
    expect(page.title).toBe(YOUR_TURN);
  });
});

describe("iconWithDot", () => {
  it("draws the dot over an SVG icon, keeping its drawing", () => {
    const svg = decodeURIComponent(iconWithDot(ICON).slice("data:image/svg+xml,".length));
    expect(svg).toMatch(/^<svg [^>]*><rect width='32' height='32'\/><circle [^>]*\/><\/svg>$/);
  });

  it("makes an icon of the dot alone from any other icon", () => {
    const svg = decodeURIComponent(iconWithDot("/favicon.png").slice("data:image/svg+xml,".length));
    expect(svg).toMatch(/^<svg xmlns='http:\/\/www.w3.org\/2000\/svg' viewBox='0 0 32 32'><circle [^>]*\/><\/svg>$/);
  });
});
