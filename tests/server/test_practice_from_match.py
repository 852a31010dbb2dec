"""Practice of a profile's own costliest decisions of a finished match (smear.server.players.ownpractice):
POST /api/players/{player}/practice/matches/{match} on a real server after a real match, the positions
each its seat's view at that decision, kept for their owner alone, made once, and never rated."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverkit import Session, get_json, http_json, play_out, session, stopped_pace  # noqa: F401
from test_players import host_with_profile, new_profile

from smear.actions import Action
from smear.cards import CardSet
from smear.record import parse_record, replay
from smear.review import REVIEW_COSTLIEST, costliest, count_decisions, review_record
from smear.server.players.hints import match_review_samples, played_review_seed
from smear.server.wire.outbound import public_json, view_json
from smear.state import State
from smear.views import player_view

# As long as the page waits for its own costliest decisions to be solved (SOLVING_MS in
# web/src/ui/practice/api.ts): the work is seconds of one core, more on a busy machine.
SOLVING_SECONDS = 60


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


def states_before(record: dict[str, Any]) -> dict[tuple[int, int], tuple[State, Action]]:
    """Every decision of the record by (hand, index in the hand): the state just before, the action."""
    found: dict[tuple[int, int], tuple[State, Action]] = {}
    counter = {"hand": -1, "index": 0}

    def observe(before: State, action: Action, after: State) -> None:
        hand = before.public.hand_number - 1
        if hand != counter["hand"]:
            counter["hand"], counter["index"] = hand, 0
        found[(hand, counter["index"])] = (before, action)
        counter["index"] += 1

    replay(parse_record(record), observe)
    return found


def words(data: Any) -> set[str]:
    """Every string in ``data`` (JSON), split at spaces: a card shown anywhere is one of them."""
    if isinstance(data, dict):
        return set().union(*(words(value) | words(key) for key, value in data.items()))
    if isinstance(data, list):
        return set().union(*(words(value) for value in data)) if data else set()
    return set(str(data).split())


def test_a_match_s_costliest_decisions_become_its_owner_s_own_positions(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            match, owner, secret = await owned_match(s)
            record = (await get_json(f"{s.url}/api/matches/{match}"))[1]
            seat = record["players"].index("Ann")
            # Her decisions judged as the match's review judges them (its seed and deals).
            parsed = parse_record(record)
            judged = review_record(
                parsed, [seat], played_review_seed(match), match_review_samples(count_decisions(parsed))
            )
            costly = costliest(judged.decisions, REVIEW_COSTLIEST)
            assert costly, "Ann bids the most she may each time: some of it costs points"
            url = f"{s.url}/api/players/{owner}/practice/matches/{match}"

            status, made = await http_json("POST", url, {}, secret=secret, timeout=SOLVING_SECONDS)
            assert status == 200, made
            assert made["match"] == match
            questions = made["positions"]
            moments = states_before(record)
            # In the review's order (costliest first), each a decision the review named: at most one
            # is left out, a decision the wider search finds offers a single choice (never here).
            assert [q["id"] for q in questions] == list(dict.fromkeys(q["id"] for q in questions))
            assert 0 < len(questions) <= len(costly)
            named = [(d.hand, d.action_index) for d in costly]
            ranks = []
            for question in questions:
                assert "answer" not in question
                assert question["seat"] == seat and question["source"] == f"match:{match}"
                assert question["names"] == [
                    "You" if other == seat else f"Seat {other + 1}" for other in range(3)
                ]
                assert "Ann" not in words(question)
                where = next(
                    key for key in named if view_json(player_view(moments[key][0], seat)) == question["you"]
                )
                ranks.append(named.index(where))
                before, action = moments[where]
                view = player_view(before, seat)
                # Exactly what the engine's view of that seat shows, and no card of another seat's hand.
                assert question["public"] == public_json(view.public)
                assert question["you"] == view_json(view)
                # Past the public part (the last hand's result names cards now in play again), only
                # the seat's own cards: none of another seat's hand.
                private = {key: value for key, value in question.items() if key != "public"}
                shown = words(private | {"you": {k: v for k, v in question["you"].items() if k != "public"}})
                for other in range(3):
                    if other != seat:
                        assert not {str(card) for card in CardSet(before.hands[other])} & shown
                assert str(action) in question["choices"] or question["kind"] == "discard"
            assert ranks == sorted(ranks)

            assert s.server.own_practice.solved == 1
            # Asked again: the same positions, nothing judged or solved again.
            reviews = s.server.background.reviews.started
            assert await http_json("POST", url, {}, secret=secret, timeout=SOLVING_SECONDS) == (200, made)
            assert s.server.background.reviews.started == reviews and s.server.own_practice.solved == 1

            # One owned question by id; its answer only with an attempt, which moves no rating.
            first = questions[0]
            mine = f"{s.url}/api/players/{owner}/practice/mine/{first['id']}"
            assert await http_json("GET", mine, secret=secret) == (200, {"position": first})
            status, tried = await http_json("POST", mine, {"choice": first["choices"][0]}, secret=secret)
            assert status == 200, tried
            answer = tried["answer"]
            assert set(answer["values"]) == set(first["choices"]) and answer["best"] in first["choices"]
            assert answer["played"] == str(moments[named[ranks[0]]][1])
            assert tried["correct"] == (first["choices"][0] == answer["best"])
            assert tried["rating"]["before"] == tried["rating"]["after"]
            assert tried["rating"]["after"]["attempts"] == 0 and tried["streak"] == 0
            status, bad = await http_json("POST", mine, {"choice": "bid 99"}, secret=secret)
            assert status == 400 and bad["error"]["code"] == "bad_practice_choice"

            # Never served to anyone by next, daily or themes.
            bob = await new_profile(s.url, "Bob")
            for who, key in ((owner, secret), (bob["player"], bob["secret"])):
                status, body = await http_json("GET", f"{s.url}/api/players/{who}/practice/next", secret=key)
                assert status == 404 and body["error"]["code"] == "no_practice_positions"
            status, body = await get_json(f"{s.url}/api/practice/daily")
            assert status == 404 and body["error"]["code"] == "no_practice_positions"
            assert await get_json(f"{s.url}/api/practice/themes") == (200, {"themes": []})

            # Another profile: refused, and cannot read or try the owner's positions.
            other = f"{s.url}/api/players/{bob['player']}/practice"
            status, body = await http_json("POST", f"{other}/matches/{match}", {}, secret=bob["secret"])
            assert status == 403 and body["error"]["code"] == "not_your_match"
            for method, body_sent in (("GET", None), ("POST", {"choice": first["choices"][0]})):
                status, body = await http_json(
                    method, f"{other}/mine/{first['id']}", body_sent, secret=bob["secret"]
                )
                assert status == 404 and body["error"]["code"] == "no_such_position"
            status, body = await http_json("POST", url, {}, secret=bob["secret"])
            assert status == 401 and body["error"]["code"] == "bad_secret"
            status, body = await http_json(
                "POST", f"{s.url}/api/players/{owner}/practice/matches/nosuchmatch1", {}, secret=secret
            )
            assert status == 404 and body["error"]["code"] == "no_such_match"
            assert '"answer"' not in json.dumps(made)

    run(scenario)


async def owned_match(s: Session) -> tuple[str, str, str]:
    """A finished match Ann played with two bots: its id, Ann's profile id and its secret."""
    status, ann = await http_json("POST", f"{s.url}/api/players", {"name": "Ann"})
    assert status == 201
    match, player = await finished_match_of(s, ann)
    return match, player, ann["secret"]


async def finished_match_of(s: Session, ann: dict[str, str]) -> tuple[str, str]:
    host = await host_with_profile(s, "Ann", ann, players=3, target=11)
    for seat in (1, 2):
        assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
    assert (await host.send("start"))["ok"]
    await play_out([host], top_bid=True)  # bids she cannot make: some of them cost points
    history = (await get_json(f"{s.url}/api/players/{ann['player']}/matches"))[1]["matches"]
    return str(history[0]["match"]), ann["player"]
