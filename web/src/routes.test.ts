import { describe, expect, it } from "vitest";
import { codeFrom, isTableCode, routeOf } from "./routes";

describe("isTableCode", () => {
  it("takes 8 to 32 letters, digits, dashes and underscores", () => {
    expect(isTableCode("abcd_123")).toBe(true);
    expect(isTableCode("a".repeat(32))).toBe(true);
    expect(isTableCode("abc1234")).toBe(false);
    expect(isTableCode("a".repeat(33))).toBe(false);
    expect(isTableCode("abcd 1234")).toBe(false);
  });
});

describe("routeOf", () => {
  it("reads a table's page, with or without a trailing slash", () => {
    expect(routeOf("/t/abcd1234", "")).toEqual({ kind: "table", code: "abcd1234", watch: false });
    expect(routeOf("/t/abcd1234/", "")).toEqual({ kind: "table", code: "abcd1234", watch: false });
  });

  it("follows the table as a spectator only with watch=1", () => {
    expect(routeOf("/t/abcd1234", "?watch=1")).toEqual({ kind: "table", code: "abcd1234", watch: true });
    expect(routeOf("/t/abcd1234", "?watch=yes")).toEqual({ kind: "table", code: "abcd1234", watch: false });
  });

  it("shows the landing page for any other address", () => {
    expect(routeOf("/", "")).toEqual({ kind: "landing" });
    expect(routeOf("/t/short", "")).toEqual({ kind: "landing" });
    expect(routeOf("/t/abcd1234/more", "")).toEqual({ kind: "landing" });
    expect(routeOf("/t/abcd%201234", "")).toEqual({ kind: "landing" });
  });
});

describe("codeFrom", () => {
  it("takes a typed code, spaces around it trimmed", () => {
    expect(codeFrom("  abcd1234 ")).toBe("abcd1234");
  });

  it("takes the code out of an invite or watch link", () => {
    expect(codeFrom("https://smear.example/t/abcd1234")).toBe("abcd1234");
    expect(codeFrom("https://smear.example/t/abcd1234?watch=1")).toBe("abcd1234");
    expect(codeFrom("smear.example/t/abcd1234/")).toBe("abcd1234");
  });

  it("gives null when there is no code", () => {
    expect(codeFrom("")).toBeNull();
    expect(codeFrom("hello")).toBeNull();
    expect(codeFrom("https://smear.example/t/abc")).toBeNull();
    expect(codeFrom("https://smear.example/t/abcd1234x!")).toBeNull();
  });
});
