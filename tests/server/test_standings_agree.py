"""The standings are decided once (smear.standings) and every reader agrees: the match-over state,
the replay API, the places the ratings are given and the profiles' points per hand.

The match is planned with the engine from the very state the table deals (its seed fixed), then
played through a real server by three people with profiles: a hand thrown in (the dealer may pass
here), hands that build seat 0 a lead, and seat 0 shooting the moon and being set while it still
outscores another seat.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, get_json, session, stopped_pace  # noqa: F401  (stopped_pace: a fixture)
from test_players import host_with_profile, new_profile, seat_with_profile

from smear import State, apply, legal_actions, new_match, next_hand, parse_action
from smear.record import parse_record, record_of
from smear.replayview import replay_view
from smear.scoring import MatchEnd
from smear.server.players.playerstats import seat_stats, side_ranks, stats_json
from smear.server.players.ratings import rate_match
from smear.server.tables import table as tables
from smear.server.tables.table import Table, TableSettings
from smear.server.wire.outbound import public_json
from smear.state import Phase

SEED = 11
MOON_SEAT = 0
SETTINGS = {"preset": "house", "players": 3, "teams": False, "shoot_the_moon": True, "target": 52}
PLAN_HANDS = 40  # the most hands the plan looks through for its moon


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


Moves = list[tuple[int, str]]


def play_hand(state: State, bids: dict[int, str]) -> tuple[State, Moves]:
    """The current hand played out, and its actions with their seats: each seat bids as ``bids``
    says (else passes), then everyone plays its first legal card."""
    moves: Moves = []
    while state.public.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
        seat = state.public.to_act
        assert seat is not None
        if state.public.phase is Phase.AUCTION:
            action = parse_action(bids.get(seat, "pass"))
        else:
            action = legal_actions(state)[0]
        moves.append((seat, str(action)))
        state = apply(state, action)
    return state, moves


def moon_set_with_a_lead(state: State) -> bool:
    pub = state.public
    others = [score for side, score in enumerate(pub.scores) if side != MOON_SEAT]
    return pub.results[-1].ended_by is MatchEnd.MOON_SET and pub.scores[MOON_SEAT] > min(others)


def lead(end: tuple[State, Moves]) -> int:
    scores = end[0].public.scores
    return scores[MOON_SEAT] - min(score for side, score in enumerate(scores) if side != MOON_SEAT)


def plan(first: State) -> tuple[State, Moves]:
    """The match from ``first`` and its actions: a hand thrown in, then each hand the bid that best
    widens seat 0's lead over the last seat, until seat 0 can shoot the moon, be set and still
    outscore a seat."""
    rules = first.public.rules
    state, moves = play_hand(first, {})
    assert state.public.results[-1].bidder is None  # thrown in
    for _ in range(PLAN_HANDS):
        state = next_hand(state)
        shot, shot_moves = play_hand(state, {MOON_SEAT: f"bid {rules.top_bid}"})
        if moon_set_with_a_lead(shot):
            return shot, moves + shot_moves
        bids = itertools.product(range(3), range(rules.min_bid, rules.max_bid + 1))
        state, hand_moves = max(
            (play_hand(state, {seat: f"bid {amount}"}) for seat, amount in bids), key=lead
        )
        assert state.public.phase is Phase.HAND_OVER
        moves += hand_moves
    raise AssertionError("no moon to be set with a lead in this match")


def text(action: Any) -> str:
    return action if isinstance(action, str) else str(action["text"])


async def act_as_planned(clients: dict[int, Client], moves: Moves) -> None:
    """Each planned action sent by its seat once its turn comes (after the previous one is in)."""
    after = 0
    for seat, action in moves:
        client = clients[seat]
        state = await client.wait_for(
            lambda st, after=after, action=action: (
                st["version"] >= after
                and bool(st["game"])
                and action in [text(legal) for legal in st["game"]["legal"]]
            ),
            timeout=30,
        )
        reply = await client.send("act", version=state["version"], action=action)
        assert reply["ok"], (seat, action, reply)
        after = reply["version"]


def test_a_finished_state_and_its_replay_carry_the_places_the_ratings_use() -> None:
    rules = TableSettings(**SETTINGS).rules().with_changes(dealer_must_bid=False)
    end, _ = plan(new_match(rules, 3, None, seed=SEED))
    pub = end.public
    shown = public_json(pub)["standings"]
    assert [(row["side"], row["place"], row["out"]) for row in shown] == sorted(
        ((side, place, side == MOON_SEAT) for side, place in enumerate(side_ranks(end))),
        key=lambda row: (row[1], row[0]),
    )
    assert shown[-1]["side"] == MOON_SEAT and pub.scores[MOON_SEAT] > min(pub.scores)
    assert replay_view(parse_record(record_of(end, ["A", "B", "C"])))["standings"] == shown
    for seat in range(3):
        assert (
            stats_json(seat_stats(end, seat))["points_per_hand"] == shown_row(shown, seat)["points_per_hand"]
        )


def shown_row(standings: list[dict[str, Any]], side: int) -> dict[str, Any]:
    return next(row for row in standings if row["side"] == side)


def rated(profiles: list[str], ranks: list[int]) -> dict[str, float]:
    """Each profile's ``mu`` after a first match (everyone new) ranked ``ranks``, as the server stores it."""
    after = rate_match(profiles, {}, [[0], [1], [2]], ranks, {})
    return {player: round(rating.mu, 3) for player, rating in after.items()}


def test_the_match_over_state_the_replay_api_the_ratings_and_the_statistics_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_of = TableSettings.rules
    # No preset lets the dealer pass; here it may, so that a hand is thrown in.
    monkeypatch.setattr(
        TableSettings, "rules", lambda self: rules_of(self).with_changes(dealer_must_bid=False)
    )
    start = Table.start
    monkeypatch.setattr(Table, "start", lambda self, token, seed=None: start(self, token, SEED))
    dealt: list[State] = []
    deal_match = tables.new_match

    def keep_deal(*args: Any, **kwargs: Any) -> State:
        dealt.append(deal_match(*args, **kwargs))
        return dealt[-1]

    monkeypatch.setattr(tables, "new_match", keep_deal)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            profiles = [await new_profile(s.url, name) for name in ("Ann", "Ben", "Cy")]
            host = await host_with_profile(s, "Ann", profiles[0], **SETTINGS)
            assert host.table is not None
            clients = {0: host}
            for seat, name in ((1, "Ben"), (2, "Cy")):
                clients[seat] = await seat_with_profile(s, host.table, name, profiles[seat])
                assert clients[seat].seat == seat
            assert (await host.send("start"))["ok"]
            end, moves = plan(dealt[-1])
            await act_as_planned(clients, moves)
            over = await host.wait_for(lambda st: st["table"]["status"] == "finished", timeout=30)
            public = over["game"]["public"]
            assert public["scores"] == list(end.public.scores)
            standings = public["standings"]
            ids = [profile["player"] for profile in profiles]

            # Seat 0 was set on the moon: last, although it outscores another seat.
            moon = shown_row(standings, MOON_SEAT)
            assert moon["out"] and moon["place"] == 3
            assert moon["score"] > min(row["score"] for row in standings)
            assert any(result["outcome"] == "thrown_in" for result in public["results"])

            history = (await get_json(f"{s.url}/api/players/{ids[0]}/matches"))[1]["matches"]
            status, replay = await get_json(f"{s.url}/api/matches/{history[0]['match']}/replay")
            assert status == 200, replay
            assert replay["view"]["standings"] == standings

            places_by_side = [shown_row(standings, side)["place"] for side in range(3)]
            keys = [(side == public["winner"], score) for side, score in enumerate(public["scores"])]
            by_score = [1 + sum(other > key for other in keys) for key in keys]  # the winner, then by score
            assert rated(ids, places_by_side) != rated(ids, by_score)  # the places matter here
            for seat, player in enumerate(ids):
                shown = (await get_json(f"{s.url}/api/players/{player}"))[1]
                assert shown["ratings"]["house"]["mu"] == rated(ids, places_by_side)[player]
                stats = shown["stats"]["house"]
                row = shown_row(standings, seat)
                assert (stats["hands"], stats["points"]) == (row["hands"], row["points"])
                assert stats["points_per_hand"] == row["points_per_hand"]
                assert row["hands"] == len(public["results"]) - 1  # the hand thrown in is not played

    run(scenario)
