import { afterEach, describe, expect, it, vi } from "vitest";
import { loadMatchReplay, loadMatchReview, overRecordLimit, parseReplayReview, replayRecord } from "./api";
import { update } from "../store";
import { actOf } from "../test/fakes";
import { FACTS } from "../test/presets";
import { fixtureView } from "./fixture";
import { looksLikeView, presetOf } from "./types";

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

const summary = {
  match: "Qw3eRt5yUi8o",
  preset: "house",
  finished_at: 1764680000,
  players: [
    { seat: 0, name: "Ana", player: "k3J_x9QaZ0bd", bot: false },
    { seat: 1, name: "Ben", player: null, bot: false },
    { seat: 2, name: "Cleo", player: "bot-expert", bot: true },
  ],
  sides: [[0], [1], [2]],
  scores: [2, 2, -3],
  winner: null,
};

describe("loadMatchReplay", () => {
  it("asks for the match's replay and gives its view and summary", async () => {
    const get = vi.fn(async () => reply(200, { match: summary, record: {}, view: fixtureView() }));
    const load = await loadMatchReplay("Qw3eRt5yUi8o", get as unknown as typeof fetch);
    expect(get).toHaveBeenCalledWith("/api/matches/Qw3eRt5yUi8o/replay", expect.anything());
    expect(load).toEqual({ ok: true, view: fixtureView(), match: summary });
  });

  it("says when there is no such match", async () => {
    const get = async () => reply(404, { error: { code: "no_such_match", args: {}, message: "no such match" } });
    expect(await loadMatchReplay("nope1234", get as unknown as typeof fetch)).toEqual({ ok: false, problem: "not_found" });
  });

  it("fails on an answer that is not a replay, or no answer", async () => {
    const odd = async () => reply(200, { view: { players: "x" } });
    expect(await loadMatchReplay("abcd1234", odd as unknown as typeof fetch)).toEqual({
      ok: false,
      problem: "failed",
      error: null,
    });
    const down = async () => {
      throw new TypeError("network");
    };
    expect(await loadMatchReplay("abcd1234", down as unknown as typeof fetch)).toMatchObject({ ok: false, problem: "failed" });
  });

  it("keeps a server error for the page to show", async () => {
    const busy = async () => reply(503, { error: { code: "not_stored", args: {}, message: "not stored" } });
    expect(await loadMatchReplay("abcd1234", busy as unknown as typeof fetch)).toEqual({
      ok: false,
      problem: "failed",
      error: { code: "not_stored", args: {}, message: "not stored" },
    });
  });
});

describe("replayRecord", () => {
  it("posts the file's text as it is and gives the view", async () => {
    const post = vi.fn(async () => reply(200, { record: {}, view: fixtureView() }));
    const text = '{"format": "smear-record/1"}';
    const load = await replayRecord(text, post as unknown as typeof fetch);
    expect(load).toEqual({ ok: true, view: fixtureView(), match: null });
    const [url, init] = post.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/replay");
    expect(init.method).toBe("POST");
    expect(init.body).toBe(text);
  });

  it("gives the server's message for a record it refuses", async () => {
    const message = "hand 2, action 5 (Qs): Ben must follow suit";
    const post = async () => reply(400, { error: { code: "bad_record", args: {}, message } });
    expect(await replayRecord("{}", post as unknown as typeof fetch)).toEqual({ ok: false, problem: "bad_record", message });
  });

  afterEach(() => update({ presets: { status: "loading" } }));

  it("does not send a record over the server's limit, and reads a refusal for size", async () => {
    update({ presets: { status: "ready", facts: FACTS } });
    const post = vi.fn(async () => reply(200, {}));
    expect(await replayRecord("x".repeat(FACTS.limits.record_bytes + 1), post as unknown as typeof fetch)).toEqual({
      ok: false,
      problem: "too_large",
    });
    expect(post).not.toHaveBeenCalled();
    const refused = async () => new Response("too large", { status: 413 });
    expect(await replayRecord("{}", refused as unknown as typeof fetch)).toEqual({ ok: false, problem: "too_large" });
  });
});

describe("the record limit", () => {
  afterEach(() => update({ presets: { status: "loading" } }));

  it("is the one this server published, counted in bytes", async () => {
    update({ presets: { status: "ready", facts: { ...FACTS, limits: { ...FACTS.limits, record_bytes: 10 } } } });
    expect(overRecordLimit(10)).toBe(false);
    expect(overRecordLimit(11)).toBe(true);
    const post = vi.fn(async () => reply(200, { record: {}, view: fixtureView() }));
    // Five two-byte letters are ten bytes: sent; one more byte is not.
    expect((await replayRecord("ééééé", post as unknown as typeof fetch)).ok).toBe(true);
    expect(await replayRecord("ééééé!", post as unknown as typeof fetch)).toEqual({ ok: false, problem: "too_large" });
    expect(post).toHaveBeenCalledTimes(1);
  });

  it("holds nothing back before the server's facts have come: the server judges", async () => {
    expect(overRecordLimit(FACTS.limits.record_bytes * 4)).toBe(false);
    const post = vi.fn(async () => new Response("too large", { status: 413 }));
    expect(await replayRecord("x".repeat(2000), post as unknown as typeof fetch)).toEqual({ ok: false, problem: "too_large" });
    expect(post).toHaveBeenCalledTimes(1);
  });
});

describe("the view's shape", () => {
  it("takes the fixture and refuses what is not a view", () => {
    expect(looksLikeView(fixtureView())).toBe(true);
    expect(looksLikeView(null)).toBe(false);
    expect(looksLikeView({ ...fixtureView(), hands: [] })).toBe(false);
    expect(looksLikeView({ ...fixtureView(), hands: [{ number: 1 }] })).toBe(false);
  });

  it("reads the preset from either form of the rules", () => {
    expect(presetOf(fixtureView())).toBe("house");
    expect(presetOf({ ...fixtureView(), rules: { preset: "ten_point", target: 11 } })).toBe("ten_point");
  });
});

describe("loadMatchReview", () => {
  const answer = {
    decisions: [
      {
        hand: 0,
        action_index: 7,
        seat: 0,
        action: actOf("Ts"),
        best: actOf("Th"),
        expected_action: -1.5,
        expected_best: 0.75,
        loss: 2.25,
        verdict: "worse",
        error: 0.8,
      },
      {
        hand: 1,
        action_index: 0,
        seat: 1,
        action: actOf("bid 2"),
        best: actOf("pass"),
        expected_action: null,
        expected_best: 1,
        loss: 1,
      },
    ],
    players: [
      { seat: 0, decisions: 9, total_loss: 2.25 },
      { seat: 1, decisions: 10, total_loss: 1 },
      { seat: 2, decisions: 9, total_loss: 0 },
    ],
    samples: 16,
  };

  it("asks for the match's review and gives its decisions, costliest first as sent", async () => {
    const get = vi.fn(async () => reply(200, answer));
    const load = await loadMatchReview("Qw3eRt5yUi8o", get as unknown as typeof fetch);
    expect(get).toHaveBeenCalledWith("/api/matches/Qw3eRt5yUi8o/review", expect.anything());
    expect(load).toEqual({
      ok: true,
      review: {
        decisions: [
          {
            hand: 0,
            actionIndex: 7,
            seat: 0,
            action: "Ts",
            best: "Th",
            acts: { action: actOf("Ts"), best: actOf("Th") },
            expectedAction: -1.5,
            expectedBest: 0.75,
            loss: 2.25,
            error: 0.8,
          },
          {
            hand: 1,
            actionIndex: 0,
            seat: 1,
            action: "bid 2",
            best: "pass",
            acts: { action: actOf("bid 2"), best: actOf("pass") },
            expectedAction: null,
            expectedBest: 1,
            loss: 1,
            error: null,
          },
        ],
        players: [
          { seat: 0, decisions: 9, totalLoss: 2.25 },
          { seat: 1, decisions: 10, totalLoss: 1 },
          { seat: 2, decisions: 9, totalLoss: 0 },
        ],
        samples: 16,
      },
    });
  });

  it("tells a busy expert, a pace spent, an unknown match and a failure apart", async () => {
    const refused = (status: number, code: string) => async () =>
      reply(status, { error: { code, args: {}, message: code } });
    const said = async (get: () => Promise<Response>) => loadMatchReview("abcd1234", get as unknown as typeof fetch);
    expect(await said(refused(503, "server_busy"))).toEqual({ ok: false, problem: "busy" });
    expect(await said(refused(429, "rate_limited"))).toEqual({ ok: false, problem: "rate_limited" });
    expect(await said(refused(404, "no_such_match"))).toEqual({ ok: false, problem: "not_found" });
    expect(await said(refused(500, "internal_error"))).toEqual({ ok: false, problem: "failed" });
    const down = async () => {
      throw new TypeError("network");
    };
    expect(await said(down)).toEqual({ ok: false, problem: "failed" });
    expect(await said(async () => reply(200, { decisions: "none" }))).toEqual({ ok: false, problem: "failed" });
  });

  it("takes no decision without its hand, place, seat or loss", () => {
    expect(parseReplayReview(answer)?.decisions).toHaveLength(2);
    for (const key of ["hand", "action_index", "seat", "action", "best", "loss"]) {
      const wrong = key === "action" || key === "best" ? 3 : key === "loss" ? "2.25" : -1;
      const broken = { ...answer.decisions[0], [key]: wrong };
      expect(parseReplayReview({ ...answer, decisions: [broken] }), key).toBeNull();
    }
    expect(parseReplayReview({ ...answer, players: [{ seat: 0 }] })).toBeNull();
    expect(parseReplayReview({ ...answer, samples: "16" })).toBeNull();
    expect(parseReplayReview(null)).toBeNull();
  });
});
