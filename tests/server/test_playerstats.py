"""A seat's statistics and the ranking of a match's sides (smear.server.players.playerstats)."""

from __future__ import annotations

import pytest
from helpers import HOUSE, MOON_HANDS, MOON_OUT, MOON_TRICKS, act, play_tricks, rules_named, start, thrown_in

from smear import State
from smear.cli import selfplay_match
from smear.server.players.playerstats import COUNTS, add_stats, seat_stats, side_ranks, stats_json
from smear.standings import hands_played

MOON = HOUSE.with_changes(shoot_the_moon=True)

# Seat 1 (Kemal) bids 3 in spades and wins every trick: High (As), Jack (Js) and Game; seat 3 takes
# Low with the 8s it must play to the first trick. The jokers sleep.
BID_HANDS = [
    "Ah Kh Qh Jh Th 9h",
    "As Ks Qs Js Ts 9s",
    "Ad Kd Qd Jd Td 9d",
    "Ac Kc Qc Jc Tc 8s",
]
BID_OUT = "BJ LJ 8h 8d 9c 8c"
BID_TRICKS = ["As Ad 8s Ah", "Ks Kd Kc Kh", "Qs Qd Qc Qh", "Js Jd Jc Jh", "Ts Td Tc Th", "9s 9d Ac 9h"]


def bid_of_three(teams: bool = False) -> State:
    state = start(HOUSE, BID_HANDS, dealer=0, teams=teams, out=BID_OUT)
    return play_tricks(act(state, "bid 3", "pass", "pass", "pass"), *BID_TRICKS)


def zeros(**counts: int) -> dict[str, int]:
    return {**dict.fromkeys(COUNTS, 0), "matches": 1, **counts}


def test_a_bid_of_three_made() -> None:
    state = bid_of_three()
    result = state.public.results[-1]
    assert result.bidder == 1 and result.bid == 3 and result.made
    assert result.points == {
        "high": 1,
        "low": 3,
        "jack": 1,
        "big_joker": None,
        "little_joker": None,
        "game": 1,
    }
    assert seat_stats(state, 1) == zeros(
        hands=1, points=3, bids_won=1, bids_made=1, bid_total=3, high=1, jack=1, game=1
    )
    assert seat_stats(state, 3) == zeros(hands=1, points=1)
    assert seat_stats(state, 0) == zeros(hands=1)


def test_partners_share_their_side_points_but_not_the_bid() -> None:
    state = bid_of_three(teams=True)  # seats 1 and 3 are partners: they take all four points
    assert seat_stats(state, 3) == zeros(hands=1, points=4, high=1, jack=1, game=1)
    assert seat_stats(state, 1)["bids_won"] == 1 and seat_stats(state, 1)["points"] == 4
    assert seat_stats(state, 2) == zeros(hands=1)


def test_a_moon_made_wins() -> None:
    state = start(MOON, MOON_HANDS, dealer=3, out=MOON_OUT)
    state = play_tricks(act(state, "bid 7", "pass", "pass", "pass"), *MOON_TRICKS)
    assert state.public.winner == 0
    assert seat_stats(state, 0) == zeros(
        wins=1,
        hands=1,
        points=6,
        bids_won=1,
        bids_made=1,
        bid_total=7,
        moons_tried=1,
        moons_made=1,
        high=1,
        jack=1,
        game=1,
    )


def test_a_moon_set_is_a_set() -> None:
    hands = ["Ah Kh Qh Jh BJ 8c", *MOON_HANDS[1:]]
    state = start(MOON, hands, dealer=3, out="8h 9h Th LJ 8d 8s", scores=[20, 4, 9, 9])
    state = act(state, "bid 7", "pass", "pass", "pass")
    state = play_tricks(state, *MOON_TRICKS[:5], "8c 9c 9d 9s")
    stats = seat_stats(state, 0)
    assert (stats["wins"], stats["bids_made"], stats["sets"]) == (0, 0, 1)
    assert (stats["moons_tried"], stats["moons_made"]) == (1, 0)
    assert seat_stats(state, 2)["wins"] == 1
    # Scores 13, 4, 9, 9: seat 2 won the tie, and seat 0, set on the moon, is out of the match: last.
    assert side_ranks(state) == [4, 3, 1, 2]


def test_a_thrown_in_hand_is_not_a_hand_played() -> None:
    assert seat_stats(thrown_in(), 2) == zeros()


@pytest.mark.parametrize(
    ("preset", "players", "teams"),
    [("house", 4, True), ("ten_point", 3, False), ("widow", 3, False), ("house+moon+elimination", 5, False)],
)
def test_a_random_match_adds_up(preset: str, players: int, teams: bool) -> None:
    state = selfplay_match(rules_named(preset), players, teams, seed=6)
    pub = state.public
    stats = [seat_stats(state, seat) for seat in range(players)]
    bids = [result for result in pub.results if result.bidder is not None]
    assert sum(s["bids_won"] or 0 for s in stats) == len(bids)
    assert sum(s["bid_total"] or 0 for s in stats) == sum(result.bid for result in bids)
    assert sum(s["wins"] or 0 for s in stats) == len(pub.sides[pub.winner or 0])
    for seat, one in enumerate(stats):
        side = pub.seat_side[seat]
        assert one["hands"] == hands_played(pub.results)
        assert one["points"] == sum(result.taken[side] for result in pub.results)
        assert one["bids_made"] == sum(r.made for r in bids if r.bidder == seat)
        assert one["bids_won"] == (one["bids_made"] or 0) + (one["sets"] or 0)
        assert (one["wins"] == 1) == (side == pub.winner)
        if "game" not in pub.rules.points:  # the widow game scores the Ten instead
            assert one["game"] == 0
    ranks = side_ranks(state)
    assert ranks[pub.winner or 0] == 1 and ranks.count(1) == 1


def test_add_stats_and_stats_json() -> None:
    state = bid_of_three()
    one = seat_stats(state, 1)
    total = add_stats(add_stats({}, one), zeros(hands=3, points=2, bids_won=1, bid_total=4, sets=1))
    assert total == zeros(
        matches=2, hands=4, points=5, bids_won=2, bids_made=1, bid_total=7, sets=1, high=1, jack=1, game=1
    )
    stats = stats_json(total)
    assert list(stats) == [
        "matches",
        "wins",
        "hands",
        "points",
        "points_per_hand",
        "bids_won",
        "bids_made",
        "average_bid",
        "sets",
        "moons_tried",
        "moons_made",
        "high",
        "jack",
        "game",
    ]
    assert stats["points_per_hand"] == 1.25 and stats["average_bid"] == 3.5
    assert stats_json(seat_stats(state, 0))["average_bid"] is None
    assert stats_json(zeros(hands=3, points=2))["points_per_hand"] == 0.67
    assert stats_json(zeros(bids_won=3, bid_total=10))["average_bid"] == 3.3


def test_side_ranks_share_equal_scores() -> None:
    state = bid_of_three()
    assert state.public.scores == (0, 3, 0, 1) and state.public.winner is None
    assert side_ranks(state) == [3, 1, 3, 2]
    finished = state._replace(public=state.public._replace(scores=(5, 21, 9, 21), winner=3))
    assert side_ranks(finished) == [4, 2, 3, 1]  # the winner first, even on a tie
