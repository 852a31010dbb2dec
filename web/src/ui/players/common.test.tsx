// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { forgetProfile, saveProfile } from "../../profile";
import { useProfile } from "./common";

function Shown() {
  return <p>{useProfile()?.name ?? "none"}</p>;
}

describe("useProfile", () => {
  const root = document.createElement("div");
  afterEach(() => {
    act(() => render(null, root));
    forgetProfile();
  });

  it("shows a profile made between the first render and the subscription", () => {
    forgetProfile();
    act(() => {
      render(<Shown />, root);
      expect(root.textContent).toBe("none");
      saveProfile({ player: "p1", secret: "s1", name: "Ada" });
    });
    expect(root.textContent).toBe("Ada");
  });

  it("follows a rename and a deletion once shown", () => {
    saveProfile({ player: "p1", secret: "s1", name: "Ada" });
    act(() => render(<Shown />, root));
    expect(root.textContent).toBe("Ada");
    act(() => saveProfile({ player: "p1", secret: "s1", name: "Bo" }));
    expect(root.textContent).toBe("Bo");
    act(() => forgetProfile());
    expect(root.textContent).toBe("none");
  });
});
