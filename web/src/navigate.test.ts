// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { navigate } from "./net";
import { getApp } from "./store";

describe("navigate", () => {
  it("puts the new address in place of the current one with replace, so Back skips it", () => {
    history.replaceState(null, "", "/claim?code=ABCD-EFGH");
    const before = history.length;
    navigate("/p/abc", { replace: true });
    expect(location.pathname + location.search).toBe("/p/abc");
    expect(history.length).toBe(before);
    expect(getApp().route).toEqual({ kind: "profile", player: "abc" });
    navigate("/", { replace: true });
    expect(location.pathname).toBe("/");
    expect(history.length).toBe(before);
    expect(getApp().route).toEqual({ kind: "landing" });
  });
});
