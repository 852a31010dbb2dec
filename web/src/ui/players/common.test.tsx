// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { t } from "../../i18n";
import { botLabel } from "../../playersView";
import { forgetProfile, saveProfile } from "../../profile";
import { PlayerName, useProfile } from "./common";

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

describe("PlayerName", () => {
  const root = document.createElement("div");
  afterEach(() => act(() => render(null, root)));

  const tags = () => Array.from(root.querySelectorAll(".bot-tag")).map((tag) => tag.textContent);

  it("marks a bot's seat name with its level from the server: Ada, Expert bot", () => {
    act(() => render(<PlayerName name="Ada" player="bot-expert" bot botLevel="expert" />, root));
    expect(root.querySelector(".name-text")?.textContent).toBe("Ada");
    expect(tags()).toEqual([botLabel("expert")]);
    // A bot seated before bots had profiles, or a replay's seat the summary says is a bot's.
    act(() => render(<PlayerName name="Ada" player={null} bot />, root));
    expect(tags()).toEqual([t("players.bot")]);
  });

  it("never marks a person, however like a bot the name looks", () => {
    for (const name of ["Ada", "Expert bot", `Beginner ${t("players.bot")}`, "Ada 🤖"]) {
      act(() => render(<PlayerName name={name} player="p1" />, root));
      expect(root.querySelector(".name-text")?.textContent).toBe(name);
      expect(tags()).toEqual([]);
      act(() => render(<PlayerName name={name} player={null} />, root));
      expect(tags()).toEqual([]);
    }
  });
});
