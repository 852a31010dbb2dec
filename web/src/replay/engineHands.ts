// Written by scripts/make-fixtures (tests/webfixtures.py): do not edit it, run that again.
// tests/test_web_fixtures.py fails when this file differs from what the engine makes now.
//
// Two hands as the engine lays them out (smear.replayview.replay_view of a record made by
// smear.record.record_of), each with every action of the hand in the record's order and the seat that
// took it (smear.record.replay): a widow hand (the widow taken, trump named, then every seat discards,
// not starting with the bidder) and a nine_card hand (discards, then tricks where the seats out of
// trumps play no more). Made from new_match(find_rules(preset), players=3, seed=11),
// random legal actions (random.Random(4)) with a bid wherever one is allowed.

import type { ReplayAction, ReplayHand } from "./types";

export interface EngineHand {
  hand: ReplayHand;
  /** Every action of the hand, in the record's order (`action_index` is the place in this list). */
  actions: ReplayAction[];
}

export const WIDOW_HAND: EngineHand = {
  hand: {
    number: 1,
    dealer: 1,
    deal: [
      ["Tc", "9c", "3d", "Ah", "Kh", "Qh", "2h", "9s", "6s"],
      ["Kc", "7c", "Kd", "8d", "6d", "Th", "8h", "3s", "LJ"],
      ["6c", "5c", "2c", "Jh", "9h", "3h", "Qs", "4s", "BJ"]
    ],
    out: ["5s", "7d", "As", "Js", "Td", "8c", "4h", "Jd", "5h", "3c", "Ks", "6h", "Ts", "5d", "Ac", "2d", "Ad", "7s", "Jc", "8s", "4d", "2s", "4c", "7h", "Qc", "9d", "Qd"],
    auction: [
      {
        seat: 2,
        action: "bid 5",
        act: { text: "bid 5", kind: "bid", amount: 5 }
      },
      {
        seat: 0,
        action: "bid 8",
        act: { text: "bid 8", kind: "bid", amount: 8 }
      },
      {
        seat: 1,
        action: "bid 9",
        act: { text: "bid 9", kind: "bid", amount: 9 }
      }
    ],
    bidder: 1,
    bid: 9,
    trump: "s",
    before_play: [
      {
        seat: 1,
        action: "widow",
        act: { text: "widow", kind: "widow" }
      },
      {
        seat: 1,
        action: "trump s",
        act: { text: "trump s", kind: "trump", suit: "s" }
      },
      {
        seat: 2,
        action: "discard 2c 5c 6c 3h 9h Jh",
        act: { text: "discard 2c 5c 6c 3h 9h Jh", kind: "discard", cards: ["2c", "5c", "6c", "3h", "9h", "Jh"] }
      },
      {
        seat: 0,
        action: "discard 9c Tc 3d 2h Qh Kh Ah",
        act: {
          text: "discard 9c Tc 3d 2h Qh Kh Ah",
          kind: "discard",
          cards: ["9c", "Tc", "3d", "2h", "Qh", "Kh", "Ah"]
        }
      },
      {
        seat: 1,
        action: "discard 4c 7c Jc Qc Kc Ac 2d 4d 5d 6d 7d 8d 9d Qd Kd Ad 6h 7h 8h Th 5s 7s 8s",
        act: {
          text: "discard 4c 7c Jc Qc Kc Ac 2d 4d 5d 6d 7d 8d 9d Qd Kd Ad 6h 7h 8h Th 5s 7s 8s",
          kind: "discard",
          cards: ["4c", "7c", "Jc", "Qc", "Kc", "Ac", "2d", "4d", "5d", "6d", "7d", "8d", "9d", "Qd", "Kd", "Ad", "6h", "7h", "8h", "Th", "5s", "7s", "8s"]
        }
      }
    ],
    held: [
      ["Ks", "9s", "6s", "3c", "Jd", "5h"],
      ["As", "Js", "LJ", "Ts", "3s", "2s"],
      ["Qs", "BJ", "4s", "8c", "Td", "4h"]
    ],
    tricks: [
      {
        leader: 1,
        plays: [
          { seat: 1, card: "2s" },
          { seat: 2, card: "Qs" },
          { seat: 0, card: "Ks" }
        ],
        winner: 0
      },
      {
        leader: 0,
        plays: [
          { seat: 0, card: "5h" },
          { seat: 1, card: "3s" },
          { seat: 2, card: "4h" }
        ],
        winner: 1
      },
      {
        leader: 1,
        plays: [
          { seat: 1, card: "As" },
          { seat: 2, card: "BJ" },
          { seat: 0, card: "6s" }
        ],
        winner: 1
      },
      {
        leader: 1,
        plays: [
          { seat: 1, card: "Ts" },
          { seat: 2, card: "4s" },
          { seat: 0, card: "9s" }
        ],
        winner: 1
      },
      {
        leader: 1,
        plays: [
          { seat: 1, card: "Js" },
          { seat: 2, card: "Td" },
          { seat: 0, card: "Jd" }
        ],
        winner: 1
      },
      {
        leader: 1,
        plays: [
          { seat: 1, card: "LJ" },
          { seat: 2, card: "8c" },
          { seat: 0, card: "3c" }
        ],
        winner: 1
      }
    ],
    result: {
      points: { high: 1, two: 1, jack: 1, jick: null, big_joker: 1, little_joker: 1, ten: 1, trey: 1 },
      game_points: [5, 26, 0],
      taken: [0, 9, 0],
      made: true,
      scores: [0, 9, 0]
    },
    scores_before: [0, 0, 0],
    cards: [
      ["Tc", "9c", "3d", "Ah", "Kh", "Qh", "2h", "9s", "6s", "Ks", "3c", "Jd", "5h"],
      ["Kc", "7c", "Kd", "8d", "6d", "Th", "8h", "3s", "LJ", "As", "Js", "Ts", "2s"],
      ["6c", "5c", "2c", "Jh", "9h", "3h", "Qs", "4s", "BJ", "8c", "Td", "4h"]
    ],
    steps: [
      {
        kind: "auction",
        held: [
          [0, 1, 2, 3, 4, 5, 6, 7, 8],
          [0, 1, 2, 3, 4, 5, 6, 7, 8],
          [0, 1, 2, 3, 4, 5, 6, 7, 8]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 0,
        actions: 8
      },
      {
        kind: "trick",
        held: [
          [9, 7, 8, 10, 11, 12],
          [9, 10, 8, 11, 7, 12],
          [6, 8, 7, 9, 10, 11]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 8,
        actions: 3,
        trick: 0,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [7, 8, 10, 11, 12],
          [9, 10, 8, 11, 7],
          [8, 7, 9, 10, 11]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 11,
        actions: 3,
        trick: 1,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [7, 8, 10, 11],
          [9, 10, 8, 11],
          [8, 7, 9, 10]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 14,
        actions: 3,
        trick: 2,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [7, 10, 11],
          [10, 8, 11],
          [7, 9, 10]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 17,
        actions: 3,
        trick: 3,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [10, 11],
          [10, 8],
          [9, 10]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 20,
        actions: 3,
        trick: 4,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [10],
          [8],
          [9]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 23,
        actions: 3,
        trick: 5,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "result",
        held: [
          [],
          [],
          []
        ],
        scores: [0, 9, 0],
        after: true,
        first_action: 26,
        actions: 0
      }
    ]
  },
  actions: [
    { seat: 2, action: "bid 5" },
    { seat: 0, action: "bid 8" },
    { seat: 1, action: "bid 9" },
    { seat: 1, action: "widow" },
    { seat: 1, action: "trump s" },
    { seat: 2, action: "discard 2c 5c 6c 3h 9h Jh" },
    { seat: 0, action: "discard 9c Tc 3d 2h Qh Kh Ah" },
    { seat: 1, action: "discard 4c 7c Jc Qc Kc Ac 2d 4d 5d 6d 7d 8d 9d Qd Kd Ad 6h 7h 8h Th 5s 7s 8s" },
    { seat: 1, action: "2s" },
    { seat: 2, action: "Qs" },
    { seat: 0, action: "Ks" },
    { seat: 0, action: "5h" },
    { seat: 1, action: "3s" },
    { seat: 2, action: "4h" },
    { seat: 1, action: "As" },
    { seat: 2, action: "BJ" },
    { seat: 0, action: "6s" },
    { seat: 1, action: "Ts" },
    { seat: 2, action: "4s" },
    { seat: 0, action: "9s" },
    { seat: 1, action: "Js" },
    { seat: 2, action: "Td" },
    { seat: 0, action: "Jd" },
    { seat: 1, action: "LJ" },
    { seat: 2, action: "8c" },
    { seat: 0, action: "3c" }
  ]
};

export const NINE_CARD_HAND: EngineHand = {
  hand: {
    number: 1,
    dealer: 1,
    deal: [
      ["Tc", "9c", "3d", "Ah", "Kh", "Qh", "2h", "9s", "6s"],
      ["Kc", "7c", "Kd", "8d", "6d", "Th", "8h", "3s", "LJ"],
      ["6c", "5c", "2c", "Jh", "9h", "3h", "Qs", "4s", "BJ"]
    ],
    out: ["5s", "7d", "As", "Js", "Td", "8c", "4h", "Jd", "5h", "3c", "Ks", "6h", "Ts", "5d", "Ac", "2d", "Ad", "7s", "Jc", "8s", "4d", "2s", "4c", "7h", "Qc", "9d", "Qd"],
    auction: [
      {
        seat: 2,
        action: "bid 5",
        act: { text: "bid 5", kind: "bid", amount: 5 }
      },
      {
        seat: 0,
        action: "bid 8",
        act: { text: "bid 8", kind: "bid", amount: 8 }
      },
      {
        seat: 1,
        action: "bid 9",
        act: { text: "bid 9", kind: "bid", amount: 9 }
      }
    ],
    bidder: 1,
    bid: 9,
    trump: "s",
    before_play: [
      {
        seat: 1,
        action: "trump s",
        act: { text: "trump s", kind: "trump", suit: "s" }
      },
      {
        seat: 1,
        action: "discard 7c Kc 6d 8d Kd 8h Th",
        act: {
          text: "discard 7c Kc 6d 8d Kd 8h Th",
          kind: "discard",
          cards: ["7c", "Kc", "6d", "8d", "Kd", "8h", "Th"]
        }
      },
      {
        seat: 2,
        action: "discard 2c 5c 6c 3h 9h Jh",
        act: { text: "discard 2c 5c 6c 3h 9h Jh", kind: "discard", cards: ["2c", "5c", "6c", "3h", "9h", "Jh"] }
      },
      {
        seat: 0,
        action: "discard 9c Tc 3d 2h Qh Kh Ah",
        act: {
          text: "discard 9c Tc 3d 2h Qh Kh Ah",
          kind: "discard",
          cards: ["9c", "Tc", "3d", "2h", "Qh", "Kh", "Ah"]
        }
      }
    ],
    held: [
      ["Ks", "9s", "6s", "3c", "Jd", "5h"],
      ["As", "Js", "LJ", "5s", "3s", "7d"],
      ["Qs", "BJ", "4s", "8c", "Td", "4h"]
    ],
    tricks: [
      {
        leader: 1,
        plays: [
          { seat: 1, card: "3s" },
          { seat: 2, card: "4s" },
          { seat: 0, card: "9s" }
        ],
        winner: 0
      },
      {
        leader: 0,
        plays: [
          { seat: 0, card: "Ks" },
          { seat: 1, card: "5s" },
          { seat: 2, card: "Qs" }
        ],
        winner: 0
      },
      {
        leader: 0,
        plays: [
          { seat: 0, card: "6s" },
          { seat: 1, card: "As" },
          { seat: 2, card: "BJ" }
        ],
        winner: 1
      },
      {
        leader: 1,
        plays: [
          { seat: 1, card: "Js" }
        ],
        winner: 1
      },
      {
        leader: 1,
        plays: [
          { seat: 1, card: "LJ" }
        ],
        winner: 1
      }
    ],
    result: {
      points: { high: 1, low: 0, jack: 1, jick: null, big_joker: 2, little_joker: 1, game: null, trey: 0 },
      game_points: [5, 5, 0],
      taken: [4, 3, 1],
      made: false,
      scores: [4, -9, 1]
    },
    scores_before: [0, 0, 0],
    cards: [
      ["Tc", "9c", "3d", "Ah", "Kh", "Qh", "2h", "9s", "6s", "Ks", "3c", "Jd", "5h"],
      ["Kc", "7c", "Kd", "8d", "6d", "Th", "8h", "3s", "LJ", "As", "Js", "5s", "7d"],
      ["6c", "5c", "2c", "Jh", "9h", "3h", "Qs", "4s", "BJ", "8c", "Td", "4h"]
    ],
    steps: [
      {
        kind: "auction",
        held: [
          [0, 1, 2, 3, 4, 5, 6, 7, 8],
          [0, 1, 2, 3, 4, 5, 6, 7, 8],
          [0, 1, 2, 3, 4, 5, 6, 7, 8]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 0,
        actions: 7
      },
      {
        kind: "trick",
        held: [
          [9, 7, 8, 10, 11, 12],
          [9, 10, 8, 11, 7, 12],
          [6, 8, 7, 9, 10, 11]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 7,
        actions: 3,
        trick: 0,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [9, 8, 10, 11, 12],
          [9, 10, 8, 11, 12],
          [6, 8, 9, 10, 11]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 10,
        actions: 3,
        trick: 1,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [8, 10, 11, 12],
          [9, 10, 8, 12],
          [8, 9, 10, 11]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 13,
        actions: 3,
        trick: 2,
        by_seat: [
          [0],
          [1],
          [2]
        ]
      },
      {
        kind: "trick",
        held: [
          [10, 11, 12],
          [10, 8, 12],
          [9, 10, 11]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 16,
        actions: 1,
        trick: 3,
        by_seat: [
          [0]
        ]
      },
      {
        kind: "trick",
        held: [
          [10, 11, 12],
          [8, 12],
          [9, 10, 11]
        ],
        scores: [0, 0, 0],
        after: false,
        first_action: 17,
        actions: 1,
        trick: 4,
        by_seat: [
          [0]
        ]
      },
      {
        kind: "result",
        held: [
          [10, 11, 12],
          [12],
          [9, 10, 11]
        ],
        scores: [4, -9, 1],
        after: true,
        first_action: 18,
        actions: 0
      }
    ]
  },
  actions: [
    { seat: 2, action: "bid 5" },
    { seat: 0, action: "bid 8" },
    { seat: 1, action: "bid 9" },
    { seat: 1, action: "trump s" },
    { seat: 1, action: "discard 7c Kc 6d 8d Kd 8h Th" },
    { seat: 2, action: "discard 2c 5c 6c 3h 9h Jh" },
    { seat: 0, action: "discard 9c Tc 3d 2h Qh Kh Ah" },
    { seat: 1, action: "3s" },
    { seat: 2, action: "4s" },
    { seat: 0, action: "9s" },
    { seat: 0, action: "Ks" },
    { seat: 1, action: "5s" },
    { seat: 2, action: "Qs" },
    { seat: 0, action: "6s" },
    { seat: 1, action: "As" },
    { seat: 2, action: "BJ" },
    { seat: 1, action: "Js" },
    { seat: 1, action: "LJ" }
  ]
};
