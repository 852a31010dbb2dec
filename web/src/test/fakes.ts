// Stand-ins for the browser's localStorage and the server's HTTP answers, for the unit tests of the
// players' modules (the tests run in Node).

import { vi } from "vitest";
import type { Action, SuitLetter } from "../types";

/** A localStorage kept in a Map, installed as the global one. */
export function fakeStorage(): Map<string, string> {
  const items = new Map<string, string>();
  vi.stubGlobal("localStorage", {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  });
  return items;
}

/** A request as the fake server saw it. */
export interface Seen {
  method: string;
  url: string;
  body: unknown;
  auth: string | null;
}

/** An answer of the fake server: JSON with a status, or a thrown network failure. */
export type Reply = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> } | "network";

/**
 * A fetch that answers with `reply` (called with each request), installed as the global one;
 * returns what it saw.
 */
export function fakeFetch(reply: (seen: Seen) => Reply): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      const request: Seen = {
        method: init.method ?? "GET",
        url,
        body: typeof init.body === "string" ? JSON.parse(init.body) : null,
        auth: headers.Authorization ?? null,
      };
      seen.push(request);
      const answer = reply(request);
      if (answer === "network") throw new TypeError("Failed to fetch");
      const body = answer.text ?? JSON.stringify(answer.json ?? null);
      return new Response(body, {
        status: answer.status ?? 200,
        headers: { "Content-Type": "application/json", ...answer.headers },
      });
    }),
  );
  return seen;
}

/** The server's error body. */
export function errorBody(code: string, args: Record<string, unknown> = {}): { error: unknown } {
  return { error: { code, args, message: code.replace(/_/g, " ") } };
}

/** Actions as the server sends them (smear.actionjson), for the tests of the modules that show them. */
export const acts = {
  pass: (): Action => ({ text: "pass", kind: "pass" }),
  widow: (): Action => ({ text: "widow", kind: "widow" }),
  bid: (amount: number): Action => ({ text: `bid ${amount}`, kind: "bid", amount }),
  trump: (suit: SuitLetter): Action => ({ text: `trump ${suit}`, kind: "trump", suit }),
  discard: (...cards: string[]): Action => ({ text: ["discard", ...cards].join(" "), kind: "discard", cards }),
  play: (card: string): Action => ({ text: card, kind: "play", card }),
};

/** The action as the server sends it, from its text: a shorthand for the tests' answers. */
export function actOf(text: string): Action {
  const [word, ...rest] = text.split(" ");
  if (word === "pass") return acts.pass();
  if (word === "widow") return acts.widow();
  if (word === "bid") return acts.bid(Number(rest[0]));
  if (word === "trump") return acts.trump(rest[0] as SuitLetter);
  if (word === "discard") return acts.discard(...rest);
  return acts.play(text);
}
