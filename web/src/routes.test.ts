import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codeFrom, isTableCode, routeOf } from "./routes";
import { update } from "./store";
import { FACTS } from "./test/presets";

const SHAPE = FACTS.shapes.table_code;

/** With the server's facts here (the addresses read once the app has them). */
function withFacts(): void {
  beforeEach(() => update({ presets: { status: "ready", facts: FACTS } }));
  afterEach(() => update({ presets: { status: "loading" } }));
}

describe("isTableCode", () => {
  it("takes the served shape: its characters and lengths", () => {
    expect(isTableCode("abcd_123", SHAPE)).toBe(true);
    expect(isTableCode("a".repeat(SHAPE.max_length), SHAPE)).toBe(true);
    expect(isTableCode("a".repeat(SHAPE.min_length - 1), SHAPE)).toBe(false);
    expect(isTableCode("a".repeat(SHAPE.max_length + 1), SHAPE)).toBe(false);
    expect(isTableCode("abcd 1234", SHAPE)).toBe(false);
  });

  it("passes any one segment on while no shape has come", () => {
    expect(isTableCode("short", null)).toBe(true);
    expect(isTableCode("abcd 1234", null)).toBe(false);
  });
});

describe("routeOf", () => {
  withFacts();

  it("reads a table's page, with or without a trailing slash", () => {
    expect(routeOf("/t/abcd1234", "")).toEqual({ kind: "table", code: "abcd1234", watch: false });
    expect(routeOf("/t/abcd1234/", "")).toEqual({ kind: "table", code: "abcd1234", watch: false });
  });

  it("reads the practice page, and nothing under it", () => {
    expect(routeOf("/practice", "")).toEqual({ kind: "practice" });
    expect(routeOf("/practice/", "?theme=moon")).toEqual({ kind: "practice" });
    expect(routeOf("/practice/x", "")).toEqual({ kind: "not_found" });
  });

  it("follows the table as a spectator only with watch=1", () => {
    expect(routeOf("/t/abcd1234", "?watch=1")).toEqual({ kind: "table", code: "abcd1234", watch: true });
    expect(routeOf("/t/abcd1234", "?watch=yes")).toEqual({ kind: "table", code: "abcd1234", watch: false });
  });

  it("shows the landing page at / and the not-found screen at any other address", () => {
    expect(routeOf("/", "")).toEqual({ kind: "landing" });
    expect(routeOf("/t/short", "")).toEqual({ kind: "not_found" });
    expect(routeOf("/t/abcd1234/more", "")).toEqual({ kind: "not_found" });
    expect(routeOf("/t/abcd%201234", "")).toEqual({ kind: "not_found" });
    expect(routeOf("/nowhere", "")).toEqual({ kind: "not_found" });
  });
});

describe("routeOf at start, before the facts arrive", () => {
  it("opens the table's page for the server to say whether the code is one", () => {
    expect(routeOf("/t/short", "")).toEqual({ kind: "table", code: "short", watch: false });
    expect(routeOf("/t/abcd%201234", "")).toEqual({ kind: "not_found" });
  });
});

describe("codeFrom", () => {
  it("takes a typed code, spaces around it trimmed", () => {
    expect(codeFrom("  abcd1234 ", SHAPE)).toBe("abcd1234");
  });

  it("takes the code out of an invite or watch link", () => {
    expect(codeFrom("https://smear.example/t/abcd1234", SHAPE)).toBe("abcd1234");
    expect(codeFrom("https://smear.example/t/abcd1234?watch=1", SHAPE)).toBe("abcd1234");
    expect(codeFrom("smear.example/t/abcd1234/", SHAPE)).toBe("abcd1234");
  });

  it("gives null when there is no code", () => {
    expect(codeFrom("", SHAPE)).toBeNull();
    expect(codeFrom("hello", SHAPE)).toBeNull();
    expect(codeFrom("https://smear.example/t/abc", SHAPE)).toBeNull();
    expect(codeFrom("https://smear.example/t/abcd1234x!", SHAPE)).toBeNull();
  });

  it("passes what was typed on before the shape is known", () => {
    expect(codeFrom("hello", null)).toBe("hello");
    expect(codeFrom("https://smear.example/t/abc", null)).toBe("abc");
  });
});
