"""The server's output the browser client's unit tests read, written by ``scripts/make-fixtures``.

``web/src/test/presets.json`` is the answer to ``GET /api/presets`` (checked by
tests/server/test_facts.py). ``web/src/replay/engineHands.ts`` holds two hands as the engine lays
them out for the replay viewer (:func:`smear.replayview.replay_view`), each with every action of the
hand and the seat that took it; tests/test_web_fixtures.py makes it again in memory and fails when
the committed file differs, so the viewer's tests never run on a shape the server no longer sends.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from smear import Bid, Phase, apply, find_rules, legal_actions, new_match
from smear.record import parse_record, record_of
from smear.replayview import replay_view
from smear.server.facts import presets_json

ROOT = Path(__file__).resolve().parents[1]
ENGINE_HANDS = ROOT / "web" / "src" / "replay" / "engineHands.ts"
PRESETS_JSON = ROOT / "web" / "src" / "test" / "presets.json"
COMMAND = "scripts/make-fixtures"

# The matches the hands come from: a widow hand (the widow taken, trump named, then every seat
# discards, not starting with the bidder) and a nine_card hand (discards, then tricks where the seats
# out of trumps play no more).
HANDS = {"WIDOW_HAND": "widow", "NINE_CARD_HAND": "nine_card"}
PLAYERS = 3
DEAL_SEED = 11
ACTION_SEED = 4

HEADER = f"""\
// Written by {COMMAND} (tests/webfixtures.py): do not edit it, run that again.
// tests/test_web_fixtures.py fails when this file differs from what the engine makes now.
//
// Two hands as the engine lays them out (smear.replayview.replay_view of a record made by
// smear.record.record_of), each with every action of the hand in the record's order and the seat that
// took it (smear.record.replay): a widow hand (the widow taken, trump named, then every seat discards,
// not starting with the bidder) and a nine_card hand (discards, then tricks where the seats out of
// trumps play no more). Made from new_match(find_rules(preset), players={PLAYERS}, seed={DEAL_SEED}),
// random legal actions (random.Random({ACTION_SEED})) with a bid wherever one is allowed.

import type {{ ReplayAction, ReplayHand }} from "./types";

export interface EngineHand {{
  hand: ReplayHand;
  /** Every action of the hand, in the record's order (`action_index` is the place in this list). */
  actions: ReplayAction[];
}}
"""


def engine_hand(preset: str) -> dict[str, Any]:
    """The first hand of a match of ``preset`` played with random legal actions (a bid wherever one
    is allowed), as the replay view shows it, and every action taken in it with its seat."""
    state = new_match(find_rules(preset), players=PLAYERS, seed=DEAL_SEED)
    rng = random.Random(ACTION_SEED)
    actions: list[dict[str, Any]] = []
    while state.public.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
        legal = legal_actions(state)
        bids = [action for action in legal if isinstance(action, Bid)]
        action = rng.choice(bids or legal)
        actions.append({"seat": state.public.to_act, "action": str(action)})
        state = apply(state, action)
    names = [f"P{seat}" for seat in range(PLAYERS)]
    view = replay_view(parse_record(record_of(state, names)))
    return {"hand": view["hands"][0], "actions": actions}


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WIDTH = 110  # the longest line an object is kept on (a list of cards is always kept on one)


def _key(key: str) -> str:
    return key if _KEY.fullmatch(key) else json.dumps(key)


def _inline(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(key)}: {_inline(item)}" for key, item in value.items()) + " }"
    return json.dumps(value)


def _flat(value: Any) -> bool:
    """Whether ``value`` is a scalar or a list of scalars."""
    items = value if isinstance(value, list) else [value]
    return not any(isinstance(item, dict | list) for item in items)


def _literal(value: Any, indent: str = "") -> str:
    """``value`` as a TypeScript literal: a list of scalars on one line, an object on one line when
    it fits, the rest one entry a line."""
    inner = indent + "  "
    if isinstance(value, list):
        if _flat(value):
            return _inline(value)
        return "[\n" + ",\n".join(inner + _literal(item, inner) for item in value) + "\n" + indent + "]"
    if isinstance(value, dict):
        flat = all(_flat(item) for item in value.values())
        if flat and len(indent) + len(_inline(value)) <= WIDTH:
            return _inline(value)
        lines = [f"{inner}{_key(key)}: {_literal(item, inner)}" for key, item in value.items()]
        return "{\n" + ",\n".join(lines) + "\n" + indent + "}"
    return json.dumps(value)


def engine_hands_ts() -> str:
    """The text of ``web/src/replay/engineHands.ts``."""
    parts = [HEADER]
    for name, preset in HANDS.items():
        parts.append(f"export const {name}: EngineHand = {_literal(engine_hand(preset))};\n")
    return "\n".join(parts)


def presets_fixture() -> str:
    """The text of ``web/src/test/presets.json``: the server's facts with the default limits."""
    return json.dumps(presets_json(), indent=1) + "\n"


def main() -> int:
    for path, text in ((ENGINE_HANDS, engine_hands_ts()), (PRESETS_JSON, presets_fixture())):
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
