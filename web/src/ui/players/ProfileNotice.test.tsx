// @vitest-environment happy-dom
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { t } from "../../i18n";
import {
  dismissProfileMaking,
  ensureProfile,
  loadProfile,
  playAsGuest,
  profileAuth,
  profileMaking,
  stopProfileRetries,
} from "../../profile";
import { errorBody, fakeFetch, fakeStorage, type Reply, type Seen } from "../../test/fakes";
import { ProfileNotice } from "./ProfileNotice";

const MADE: Reply = { status: 201, json: { player: "p1", secret: "s1".padEnd(32, "x"), name: "Sam" } };
const PACED: Reply = { status: 429, json: errorBody("rate_limited"), headers: { "Retry-After": "30" } };

/** A server that answers the profile's requests in turn with `replies` (the last one from then on). */
function server(...replies: Reply[]): Seen[] {
  return fakeFetch(() => (replies.length > 1 ? (replies.shift() as Reply) : replies[0]));
}

/** Let the answers already given reach the page. */
async function settle(): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

describe("a profile the server cannot make now", () => {
  const root = document.createElement("div");
  const notice = () => root.querySelector('[role="status"]') as HTMLElement;

  beforeEach(() => {
    vi.useFakeTimers();
    fakeStorage();
  });

  afterEach(() => {
    act(() => render(null, root));
    stopProfileRetries();
    dismissProfileMaking(); // a profile made here is not news to the next test
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("is said in a status, tried again once the server's Retry-After is over, and taken once made", async () => {
    const seen = server(PACED, MADE);
    act(() => render(<ProfileNotice />, root));
    expect(notice().textContent).toBe("");
    expect(await ensureProfile("Sam")).toBeNull(); // the seat is taken as a guest meanwhile
    await settle();
    expect(notice().textContent).toContain(t("profile.making.busy", { n: 30 }));
    expect(seen).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(29_000);
    });
    expect(seen).toHaveLength(1); // not before the server said
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    await settle();
    expect(seen).toHaveLength(2);
    expect(loadProfile()?.player).toBe("p1");
    expect(profileAuth()).toEqual({ player: "p1", secret: "s1".padEnd(32, "x") }); // the next seat carries it
    expect(notice().textContent).toContain(t("profile.making.made"));
  });

  it("keeps trying with a growing pause when the server does not answer, and a guest may play on", async () => {
    const seen = server("network", "network", "network", MADE);
    act(() => render(<ProfileNotice />, root));
    await ensureProfile("Sam");
    await settle();
    const waiting = profileMaking();
    expect(waiting.kind).toBe("waiting");
    const seconds = waiting.kind === "waiting" ? waiting.seconds : -1;
    expect(notice().textContent).toContain(t("profile.making.offline", { n: seconds }));
    act(() => playAsGuest());
    expect(notice().textContent).toBe(""); // the player knows, and plays on as a guest
    const pauses: number[] = [];
    while (seen.length < 4) {
      const before = seen.length;
      let waited = 0;
      while (seen.length === before) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(500);
        });
        waited += 500;
      }
      pauses.push(waited);
    }
    expect(pauses[1]).toBeGreaterThan(pauses[0]); // each pause longer than the last
    await settle();
    expect(loadProfile()?.player).toBe("p1");
    expect(notice().textContent).toContain(t("profile.making.made"));
  });

  it("is not tried again when the server refuses the name itself", async () => {
    const seen = server({ status: 400, json: errorBody("invalid_message") });
    act(() => render(<ProfileNotice />, root));
    expect(await ensureProfile("Sam")).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600_000);
    });
    expect(seen).toHaveLength(1);
    expect(notice().textContent).toBe("");
  });
});
