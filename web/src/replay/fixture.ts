// A hand-written ReplayView for the tests: the house example of docs/record.md (three players, no
// teams, the bidder set), then a second hand the record stops in, in the middle of its second trick.
// Each hand's `steps` are written out as the server sends them (smear.replayview).

import type { ReplayStep, ReplayView } from "./types";

/** Every card of a seat's six, as places in the hand's `cards`. */
const ALL = [0, 1, 2, 3, 4, 5];

/** A step of a three-card trick each seat plays one card to, before the hand's result. */
function trickStep(trick: number, held: number[][], scores: number[], firstAction: number): ReplayStep {
  return { kind: "trick", trick, by_seat: [[0], [1], [2]], held, scores, after: false, first_action: firstAction, actions: 3 };
}

export function fixtureView(): ReplayView {
  return {
    rules: "house",
    players: ["Ana", "Ben", "Cleo"],
    sides: [[0], [1], [2]],
    target: 21,
    hands: [
      {
        number: 1,
        dealer: 2,
        deal: [
          ["LJ", "Ts", "Th", "Ac", "Qc", "Ad"],
          ["Js", "Qs", "Jh", "Jc", "Qd", "Kd"],
          ["Ks", "BJ", "Ah", "Kh", "Tc", "Jd"],
        ],
        out: ["Kc", "Td", "Qh", "As"],
        auction: [
          { seat: 0, action: "pass" },
          { seat: 1, action: "pass" },
          { seat: 2, action: "bid 3" },
        ],
        bidder: 2,
        bid: 3,
        trump: "s",
        before_play: [],
        held: [
          ["LJ", "Ts", "Th", "Ac", "Qc", "Ad"],
          ["Js", "Qs", "Jh", "Jc", "Qd", "Kd"],
          ["Ks", "BJ", "Ah", "Kh", "Tc", "Jd"],
        ],
        tricks: [
          { leader: 2, plays: [{ seat: 2, card: "Ks" }, { seat: 0, card: "LJ" }, { seat: 1, card: "Qs" }], winner: 2 },
          { leader: 2, plays: [{ seat: 2, card: "BJ" }, { seat: 0, card: "Ts" }, { seat: 1, card: "Js" }], winner: 1 },
          { leader: 1, plays: [{ seat: 1, card: "Kd" }, { seat: 2, card: "Jd" }, { seat: 0, card: "Ad" }], winner: 0 },
          { leader: 0, plays: [{ seat: 0, card: "Qc" }, { seat: 1, card: "Jc" }, { seat: 2, card: "Tc" }], winner: 0 },
          { leader: 0, plays: [{ seat: 0, card: "Ac" }, { seat: 1, card: "Qd" }, { seat: 2, card: "Kh" }], winner: 0 },
          { leader: 0, plays: [{ seat: 0, card: "Th" }, { seat: 1, card: "Jh" }, { seat: 2, card: "Ah" }], winner: 2 },
        ],
        result: {
          points: { high: 2, low: 0, jack: 1, big_joker: 1, little_joker: 2, game: 0 },
          game_points: [30, 11, 20],
          taken: [2, 2, 2],
          made: false,
          scores: [2, 2, -3],
        },
        scores_before: [0, 0, 0],
        cards: [
          ["LJ", "Ts", "Th", "Ac", "Qc", "Ad"],
          ["Js", "Qs", "Jh", "Jc", "Qd", "Kd"],
          ["Ks", "BJ", "Ah", "Kh", "Tc", "Jd"],
        ],
        steps: [
          { kind: "auction", held: [ALL, ALL, ALL], scores: [0, 0, 0], after: false, first_action: 0, actions: 3 },
          trickStep(0, [ALL, ALL, ALL], [0, 0, 0], 3),
          trickStep(1, [[1, 2, 3, 4, 5], [0, 2, 3, 4, 5], [1, 2, 3, 4, 5]], [0, 0, 0], 6),
          trickStep(2, [[2, 3, 4, 5], [2, 3, 4, 5], [2, 3, 4, 5]], [0, 0, 0], 9),
          trickStep(3, [[2, 3, 4], [2, 3, 4], [2, 3, 4]], [0, 0, 0], 12),
          trickStep(4, [[2, 3], [2, 4], [2, 3]], [0, 0, 0], 15),
          trickStep(5, [[2], [2], [2]], [0, 0, 0], 18),
          { kind: "result", held: [[], [], []], scores: [2, 2, -3], after: true, first_action: 21, actions: 0 },
        ],
      },
      {
        number: 2,
        dealer: 0,
        deal: [
          ["Kh", "Js", "Ac", "Td", "Qd", "LJ"],
          ["Ah", "Qs", "Jc", "Kd", "Tc", "Ks"],
          ["Th", "As", "BJ", "Jd", "Qc", "Ad"],
        ],
        out: ["Qh", "Jh", "Ts", "Kc"],
        auction: [
          { seat: 1, action: "bid 2" },
          { seat: 2, action: "pass" },
          { seat: 0, action: "pass" },
        ],
        bidder: 1,
        bid: 2,
        trump: "h",
        before_play: [],
        held: [
          ["Kh", "Js", "Ac", "Td", "Qd", "LJ"],
          ["Ah", "Qs", "Jc", "Kd", "Tc", "Ks"],
          ["Th", "As", "BJ", "Jd", "Qc", "Ad"],
        ],
        tricks: [
          { leader: 1, plays: [{ seat: 1, card: "Ah" }, { seat: 2, card: "Th" }, { seat: 0, card: "Kh" }], winner: 1 },
          { leader: 1, plays: [{ seat: 1, card: "Qs" }], winner: null },
        ],
        result: null,
        scores_before: [2, 2, -3],
        cards: [
          ["Kh", "Js", "Ac", "Td", "Qd", "LJ"],
          ["Ah", "Qs", "Jc", "Kd", "Tc", "Ks"],
          ["Th", "As", "BJ", "Jd", "Qc", "Ad"],
        ],
        steps: [
          { kind: "auction", held: [ALL, ALL, ALL], scores: [2, 2, -3], after: false, first_action: 0, actions: 3 },
          trickStep(0, [ALL, ALL, ALL], [2, 2, -3], 3),
          // The trick the record stops in: Ben's card alone.
          {
            kind: "trick",
            trick: 1,
            by_seat: [[0]],
            held: [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]],
            scores: [2, 2, -3],
            after: false,
            first_action: 6,
            actions: 1,
          },
        ],
      },
    ],
    scores: [2, 2, -3],
    winner: null,
    complete: false,
    standings: [
      { side: 0, place: 1, score: 2, out: false, bids: 0, made: 0, set: 0, points: 2, hands: 1, points_per_hand: 2 },
      { side: 1, place: 1, score: 2, out: false, bids: 0, made: 0, set: 0, points: 2, hands: 1, points_per_hand: 2 },
      { side: 2, place: 3, score: -3, out: false, bids: 1, made: 0, set: 1, points: 2, hands: 1, points_per_hand: 2 },
    ],
  };
}
