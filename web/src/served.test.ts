import { afterEach, describe, expect, it } from "vitest";
import { fitsShape, servedFacts, servedLimits, textLength, withinLength } from "./served";
import { update } from "./store";
import { FACTS } from "./test/presets";

const TABLE_CODE = FACTS.shapes.table_code;

afterEach(() => update({ presets: { status: "loading" } }));

describe("textLength", () => {
  it("counts as the server does: code points of the NFC form", () => {
    expect(textLength("Ann")).toBe(3);
    expect(textLength("😀".repeat(13))).toBe(13); // 26 UTF-16 units
    expect(textLength("e\u0301")).toBe(1); // an accent typed apart is composed first
  });
});

describe("withinLength", () => {
  it("trims, and holds back an empty text and one past the limit", () => {
    expect(withinLength("  Ann ", 24)).toBe("Ann");
    expect(withinLength("   ", 24)).toBeNull();
    expect(withinLength("x".repeat(25), 24)).toBeNull();
    expect(withinLength(` ${"😀".repeat(24)} `, 24)).toBe("😀".repeat(24));
  });

  it("holds back only an empty text while the limit is not known", () => {
    expect(withinLength("x".repeat(500), null)).toBe("x".repeat(500));
    expect(withinLength(" ", null)).toBeNull();
  });
});

describe("fitsShape", () => {
  it("takes the served pattern and lengths", () => {
    expect(fitsShape("a".repeat(TABLE_CODE.min_length), TABLE_CODE)).toBe(true);
    expect(fitsShape("a".repeat(TABLE_CODE.min_length - 1), TABLE_CODE)).toBe(false);
    expect(fitsShape("a".repeat(TABLE_CODE.max_length + 1), TABLE_CODE)).toBe(false);
    expect(fitsShape("abcd 1234", TABLE_CODE)).toBe(false);
  });

  it("passes one segment on while no shape has come", () => {
    expect(fitsShape("short", null)).toBe(true);
    expect(fitsShape("", null)).toBe(false);
    expect(fitsShape("a/b", null)).toBe(false);
    expect(fitsShape("a b", null)).toBe(false);
  });
});

describe("servedFacts", () => {
  it("is the facts once they are here, and nothing before", () => {
    expect(servedFacts()).toBeNull();
    expect(servedLimits()).toBeNull();
    update({ presets: { status: "ready", facts: FACTS } });
    expect(servedLimits()).toEqual(FACTS.limits);
  });
});
