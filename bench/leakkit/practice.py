"""The practice routes in the leak audit: positions made from real moments of matches of every kind
of decision, stored, then asked for as a profile would, before and after the attempt.

What is checked: a position is sent as exactly its seat's view at that moment (``public`` and
``you`` equal to what the engine and the table's outbound views make for that seat), it names no
card that view does not (none of the other seats' cards, which its answer's searched deals hold),
and nothing of its answer (no value, no best choice, no deal) comes before the attempt; the attempt's
answer then carries it whole. The daily position is checked the same way.

The answers are made up (the last choice best): the audit is of what is sent, not of the search.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any, Final

from leakkit.audit import Leak, cards_in
from smear import apply, find_rules, legal_actions, new_match, player_view
from smear.practice.record import PracticePosition, position_id, served_answer
from smear.server.wire.outbound import public_json, view_json
from smear.state import State

ANSWER_WORDS: Final = ('"answer"', '"values"', '"best"', '"margin"', '"lines"', '"deals"')
KINDS: Final = {"pass": "bid", "bid": "bid", "widow": "widow", "trump": "trump", "discard": "discard"}
PRESETS: Final = ("house", "ten_point", "five_point")


def made_positions(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` positions at random moments of random matches (bids, trumps, discards and cards),
    each with a made-up answer whose one searched deal holds every seat's cards."""
    rng = random.Random(seed)
    positions: dict[str, dict[str, Any]] = {}
    while len(positions) < count:
        record = _one_position(rng)
        if record is not None:
            positions[record["id"]] = record
    return list(positions.values())


def _one_position(rng: random.Random) -> dict[str, Any] | None:
    preset = rng.choice(PRESETS)
    rules = find_rules(preset)
    state = new_match(rules, 4, teams=not rules.allows(4, False), seed=rng.randrange(2**31))
    for _ in range(rng.randrange(30)):
        actions = legal_actions(state)
        if not actions:
            return None
        state = apply(state, rng.choice(actions))
    seat = state.public.to_act
    actions = legal_actions(state)
    if seat is None or len(actions) < 2:
        return None
    choices = list(dict.fromkeys(str(action) for action in actions))[:12]
    return position_record(state, preset, choices, KINDS.get(choices[0].split()[0], "card"), best=-1)


def position_record(
    state: State, preset: str, choices: list[str], kind: str, *, best: int, theme: str = "lead"
) -> dict[str, Any]:
    """The position record of the decision of the seat to act in ``state`` (a four-seat match of
    ``preset``), with a made-up answer: ``choices[best]`` is the best, each other choice worth half a
    point less a place away from it; its one searched deal holds every seat's cards."""
    seat = state.public.to_act
    assert seat is not None
    fields: dict[str, Any] = {
        "preset": preset,
        "players": 4,
        "seat": seat,
        "public": public_json(state.public),
        "you": view_json(player_view(state, seat)),
        "choices": choices,
    }
    fields = json.loads(json.dumps(fields))
    hands = [view_json(player_view(state, other))["hand"] for other in range(4)]
    top = best % len(choices)
    return {
        "id": position_id(fields),
        **fields,
        "kind": kind,
        "names": ["You" if other == seat else ("Expert", "Normal")[other % 2] for other in range(4)],
        "themes": [theme],
        "difficulty": 0.5,
        "rating": 1500.0,
        "source": "selfplay",
        "answer": {
            "best": choices[top],
            "values": {choice: 1.0 - abs(index - top) * 0.5 for index, choice in enumerate(choices)},
            "margin": 0.5,
            "error": 0.25,
            "deals": 100,
            "lines": [{"hands": hands, "actions": [{"seat": seat, "action": choices[top]}]}],
        },
    }


def check_question(body: bytes, expected: dict[str, Any], where: str) -> list[Leak]:
    """The leaks in a served question: its seat's view not as the engine made it, a card that view
    does not name, or anything of its answer."""
    leaks = []
    text = body.decode()
    found = [word for word in ANSWER_WORDS if word in text]
    if found:
        leaks.append(Leak(f"the answer's {', '.join(found)} sent before the attempt", (), where, text[:400]))
    position = json.loads(text)["position"]
    if position.get("public") != expected["public"] or position.get("you") != expected["you"]:
        leaks.append(Leak("a position is not exactly its seat's view", (), where, text[:400]))
    question = {key: value for key, value in expected.items() if key != "answer"}
    extra = cards_in(position) - cards_in(question)
    if extra:
        leaks.append(Leak("a position names cards its seat does not see", extra, where, text[:400]))
    return leaks


async def audit_practice(http: Any, url: str, storage: Any, count: int, seed: int) -> tuple[int, list[Leak]]:
    """Stores ``count`` positions on the server, then asks for each as a profile (and for the daily
    position); returns how many answers were checked and the leaks found."""
    records = made_positions(count, seed)
    by_id = {record["id"]: record for record in records}
    positions = [PracticePosition.model_validate(record) for record in records]
    await asyncio.to_thread(storage.practice.import_positions, positions, 0.0)
    async with http.post(f"{url}/api/players", json={"name": "Audit"}) as response:
        profile = await response.json()
    auth = {"Authorization": f"Bearer {profile['secret']}"}
    mine = f"{url}/api/players/{profile['player']}/practice"
    leaks: list[Leak] = []
    checked = 0
    for _ in range(count):
        async with http.get(f"{mine}/next", headers=auth) as response:
            body = await response.read()
        if response.status != 200:
            leaks.append(Leak(f"GET practice/next answered {response.status}", (), "practice", body[:200]))
            break
        served = json.loads(body)["position"]
        expected = by_id[served["id"]]
        leaks += check_question(body, expected, f"GET practice/next ({expected['kind']})")
        choice = {"choice": served["choices"][0]}
        async with http.post(f"{mine}/{served['id']}", json=choice, headers=auth) as response:
            answer = await response.json()
        if response.status != 200 or answer.get("answer") != served_answer(expected["answer"]):
            leaks.append(Leak("the attempt's answer is not the position's", (), "POST practice", answer))
        checked += 2
    async with http.get(f"{url}/api/practice/daily") as response:
        body = await response.read()
    leaks += check_question(body, by_id[json.loads(body)["position"]["id"]], "GET practice/daily")
    return checked + 1, leaks
