"""Each side's place and figures, decided once in the engine (smear.standings)."""

from __future__ import annotations

import pytest
from helpers import HOUSE, MOON_HANDS, MOON_TRICKS, act, play_tricks, rules_named, start

from smear import Deal, State, next_hand
from smear.cli import selfplay_match
from smear.standings import Standing, places, points_per_hand, standings

MOON = HOUSE.with_changes(shoot_the_moon=True)

# Seat 1 bids 3 in spades and wins every trick; seat 3 takes Low with the 8s it must play.
BID_HANDS = ["Ah Kh Qh Jh Th 9h", "As Ks Qs Js Ts 9s", "Ad Kd Qd Jd Td 9d", "Ac Kc Qc Jc Tc 8s"]
BID_OUT = "BJ LJ 8h 8d 9c 8c"
BID_TRICKS = ["As Ad 8s Ah", "Ks Kd Kc Kh", "Qs Qd Qc Qh", "Js Jd Jc Jh", "Ts Td Tc Th", "9s 9d Ac 9h"]


def moon_set() -> State:
    """Seat 0 shoots the moon from 20 and is set (13 after); seats 2 and 3 tie on 9, seat 1 has 4:
    seat 2 wins the tie, and seat 0, out of the match, still outscores seats 1, 2 and 3."""
    hands = ["Ah Kh Qh Jh BJ 8c", *MOON_HANDS[1:]]
    state = start(MOON, hands, dealer=3, out="8h 9h Th LJ 8d 8s", scores=[20, 4, 9, 9])
    state = act(state, "bid 7", "pass", "pass", "pass")
    return play_tricks(state, *MOON_TRICKS[:5], "8c 9c 9d 9s")


def by_side(rows: list[Standing]) -> dict[int, Standing]:
    return {row.side: row for row in rows}


def test_a_side_set_on_the_moon_comes_after_every_side_still_in_whatever_its_score() -> None:
    pub = moon_set().public
    assert pub.scores == (13, 4, 9, 9) and pub.winner == 2
    assert places(pub) == [4, 3, 1, 2]
    rows = standings(pub)
    assert [(row.side, row.place, row.out) for row in rows] == [
        (2, 1, False),
        (3, 2, False),
        (1, 3, False),
        (0, 4, True),
    ]
    assert (rows[-1].bids, rows[-1].made, rows[-1].set) == (1, 0, 1)


def test_an_eliminated_side_comes_last_and_ties_share_a_place() -> None:
    state = moon_set()
    rules = HOUSE.with_changes(elimination=-21)
    over = state.public._replace(rules=rules, scores=(30, -22, 5, 5), winner=0, results=())
    assert places(over) == [1, 4, 2, 2]
    assert [row.out for row in sorted(standings(over))] == [False, True, False, False]


def test_the_winner_is_first_even_on_a_tie_and_equal_scores_share_a_place() -> None:
    state = start(HOUSE, BID_HANDS, dealer=0, out=BID_OUT)
    pub = play_tricks(act(state, "bid 3", "pass", "pass", "pass"), *BID_TRICKS).public
    assert pub.scores == (0, 3, 0, 1) and pub.winner is None
    assert places(pub) == [3, 1, 3, 2]
    assert places(pub._replace(scores=(5, 21, 9, 21), winner=3)) == [4, 2, 3, 1]


def test_points_per_hand_count_the_hands_played_and_not_one_thrown_in() -> None:
    rules = HOUSE.with_changes(dealer_must_bid=False)
    state = act(start(rules, BID_HANDS, dealer=0, out=BID_OUT), "pass", "pass", "pass", "pass")
    assert [row.points_per_hand for row in standings(state.public)] == [None] * 4
    state = next_hand(state, Deal.parse(BID_HANDS, out=BID_OUT))  # seat 1 deals: seat 2 bids first
    state = play_tricks(act(state, "pass", "pass", "pass", "bid 3"), *BID_TRICKS)
    assert len(state.public.results) == 2
    rows = by_side(standings(state.public))
    assert (rows[1].points, rows[1].hands, rows[1].points_per_hand) == (3, 1, 3.0)
    assert (rows[3].points, rows[3].points_per_hand) == (1, 1.0)
    assert (rows[1].bids, rows[1].made, rows[1].set) == (1, 1, 0)
    assert points_per_hand(2, 3) == 0.67 and points_per_hand(5, 0) is None


@pytest.mark.parametrize(
    ("preset", "players", "teams"),
    [("house", 4, True), ("ten_point", 3, False), ("house+moon+elimination", 5, False)],
)
def test_a_random_match_adds_up(preset: str, players: int, teams: bool) -> None:
    pub = selfplay_match(rules_named(preset), players, teams, seed=6).public
    rows = standings(pub)
    assert rows[0].side == pub.winner and [row.place for row in rows].count(1) == 1
    assert sorted(row.side for row in rows) == list(range(len(pub.sides)))
    assert [row.score for row in sorted(rows, key=lambda row: row.side)] == list(pub.scores)
    assert sum(row.bids for row in rows) == sum(result.bidder is not None for result in pub.results)
    still_in = [row.place for row in rows if not row.out]
    assert all(row.place > max(still_in) for row in rows if row.out)
