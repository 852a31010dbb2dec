"""Reviewing a record's decisions with the expert's search (smear.review, ``smear review``)."""

from __future__ import annotations

import copy
import json
import math
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from smear import Phase, apply, find_rules, new_match, next_hand, player_view
from smear.actions import parse_action
from smear.bots import make_bot
from smear.bots.expert import ExpertBot
from smear.cli import cli
from smear.record import parse_record, record_of
from smear.review import (
    NOISE_Z,
    REVIEW_COSTLIEST,
    Decision,
    Judgement,
    costliest,
    review_hand,
    review_record,
    verdict,
)

SAMPLES = 16  # enough for the clear-cut positions below, and quick

# house, four players, no teams; Dan deals. Ben bids 4 and leads the Kh (hearts are trump). Cleo
# holds Jh 9h 8h and a queen in each other suit: she plays the 8h under the Kh, then has a single
# card of each suit Ben leads, until his Ah in trick 5. There she throws the Jh under the ace while
# she holds the 9h: the Qh and Kh are gone, so a Jh kept would have been the top trump left, sure
# to take the last trick, and the Jack with it. Every other decision of hers is forced or plain.
MISTAKE: dict[str, Any] = {
    "format": "smear-record/1",
    "rules": "house",
    "players": ["Ana", "Ben", "Cleo", "Dan"],
    "hands": [
        {
            "dealer": 3,
            "deal": [
                ["Tc", "9c", "8c", "Ts", "9s", "Js"],
                ["Ah", "Kh", "Ac", "Ad", "As", "Kd"],
                ["Jh", "9h", "8h", "Qc", "Qd", "Qs"],
                ["Qh", "Kc", "Jc", "Jd", "Ks", "Td"],
            ],
            "out": ["Th", "9d", "8d", "8s", "BJ", "LJ"],
            "actions": [
                *("pass", "bid 4", "pass", "pass"),
                *("Kh", "8h", "Qh", "8c"),
                *("Ac", "Qc", "Jc", "9c"),
                *("Ad", "Qd", "Jd", "Js"),
                *("As", "Qs", "Ks", "9s"),
                *("Ah", "Jh", "Kc", "Tc"),  # action 21: Cleo's Jh
                *("Kd", "9h", "Td", "Ts"),
            ],
        }
    ],
}
CLEO = 2
JACK_THROWN = (0, 21)  # hand, action index


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write(tmp_path: Path, data: Any, name: str = "match.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def where(decision: Decision) -> tuple[int, int]:
    return decision.hand, decision.action_index


# --- the review ---------------------------------------------------------------------------------------


def test_a_jack_thrown_under_the_ace_is_the_costliest_decision() -> None:
    review = review_record(parse_record(MISTAKE), [CLEO], seed=0, samples=SAMPLES)
    assert [where(d) for d in review.decisions] == [
        (0, 2),
        (0, 5),
        (0, 9),
        (0, 13),
        (0, 17),
        (0, 21),
        (0, 25),
    ]
    assert all(d.seat == CLEO for d in review.decisions)
    worst = review.costliest()[0]
    assert where(worst) == JACK_THROWN
    assert (worst.action, worst.best) == ("Jh", "9h")
    assert worst.loss > 0.5
    assert worst.expected_action is not None and worst.expected_best is not None
    assert worst.loss == round(worst.expected_best - worst.expected_action, 2)
    # Her other decisions lose nothing: a single card of the suit led is forced, and searched not.
    others = [d for d in review.decisions if where(d) != JACK_THROWN]
    assert all(d.loss < 0.5 for d in others)
    forced = [d for d in review.decisions if d.forced]
    assert [d.action for d in forced] == ["Qc", "Qd", "Qs", "9h"]
    assert all(d.loss == 0 and d.best == d.action and d.expected_best is None for d in forced)
    assert [(p.seat, p.decisions, p.total_loss) for p in review.players] == [
        (CLEO, 7, round(sum(d.loss for d in review.decisions), 2))
    ]


def test_every_seat_by_default_and_the_same_seed_gives_the_same_review() -> None:
    record = parse_record(MISTAKE)
    review = review_record(record, None, seed=3, samples=4)
    assert len(review.decisions) == 28
    assert [d.seat for d in review.decisions[:4]] == [0, 1, 2, 3]
    assert [p.seat for p in review.players] == [0, 1, 2, 3]
    assert [p.decisions for p in review.players] == [7, 7, 7, 7]
    assert review == review_record(record, [3, 2, 1, 0, 0], seed=3, samples=4)
    cleo = review_record(record, [CLEO], seed=3, samples=4)
    assert cleo.decisions == tuple(d for d in review.decisions if d.seat == CLEO)
    assert review_hand(record, 0, [CLEO], seed=3, samples=4) == list(cleo.decisions)


def test_a_seats_review_ignores_the_cards_it_could_not_see() -> None:
    # The auction and the first two cards: Cleo sees her own six cards and Ben's Kh, nothing else.
    cut = copy.deepcopy(MISTAKE)
    hand = cut["hands"][0]
    hand["actions"] = hand["actions"][:6]
    hidden = [card for seat in (0, 1, 3) for card in hand["deal"][seat] if card != "Kh"] + hand["out"]
    ticks = 0

    def count() -> None:
        nonlocal ticks
        ticks += 1

    original = review_record(parse_record(cut), [CLEO], seed=5, samples=SAMPLES, on_decision=count)
    assert ticks == 2
    assert [(d.action, d.forced) for d in original.decisions] == [("pass", False), ("8h", False)]
    for shuffle_seed in range(3):
        cards = hidden[:]
        random.Random(shuffle_seed).shuffle(cards)
        other = copy.deepcopy(cut)
        deal = other["hands"][0]["deal"]
        deal[0], deal[1], deal[3] = cards[:6], ["Kh", *cards[6:11]], cards[11:17]
        other["hands"][0]["out"] = cards[17:]
        assert other != cut
        redealt = review_record(parse_record(other), [CLEO], seed=5, samples=SAMPLES)
        assert redealt == original
        # Ben's own cards changed, and so does his review: the test can tell reviews apart.
        if shuffle_seed == 0:
            assert review_record(parse_record(other), [1], seed=5, samples=SAMPLES) != review_record(
                parse_record(cut), [1], seed=5, samples=SAMPLES
            )


# --- smear review -------------------------------------------------------------------------------------

DECISION_KEYS = [
    *("hand", "action_index", "seat", "action", "best"),
    *("expected_action", "expected_best", "loss", "verdict", "error"),
]


def test_review_json_lists_every_decision_and_each_players_total(tmp_path: Path) -> None:
    result = run("review", write(tmp_path, MISTAKE), "--json", "--samples", str(SAMPLES))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert list(data) == ["decisions", "players"]
    decisions = data["decisions"]
    assert [(d["hand"], d["action_index"]) for d in decisions] == [(0, i) for i in range(28)]
    for entry in decisions:
        assert list(entry) == DECISION_KEYS
        assert isinstance(entry["action"], str) and isinstance(entry["best"], str)
        for key in ("expected_action", "expected_best", "loss", "error"):
            value = entry[key]
            assert value is None or round(value, 2) == value
        assert entry["verdict"] in ("forced", "best", "equal", "worse")
        assert (entry["loss"] > 0) == (entry["verdict"] == "worse")
        assert (entry["error"] is None) == (entry["verdict"] in ("forced", "best"))
    assert decisions[JACK_THROWN[1]]["seat"] == CLEO
    assert decisions[JACK_THROWN[1]]["action"] == "Jh"
    assert decisions[JACK_THROWN[1]]["best"] == "9h"
    assert decisions[JACK_THROWN[1]]["loss"] > 0.5
    forced = decisions[25]  # Cleo's last card
    assert (forced["expected_action"], forced["expected_best"], forced["loss"]) == (None, None, 0.0)
    assert forced["verdict"] == "forced"
    assert [list(p) for p in data["players"]] == [["seat", "decisions", "total_loss"]] * 4
    assert [(p["seat"], p["decisions"]) for p in data["players"]] == [(0, 7), (1, 7), (2, 7), (3, 7)]
    for player in data["players"]:
        losses = sum(d["loss"] for d in decisions if d["seat"] == player["seat"])
        assert abs(player["total_loss"] - losses) < 0.005


def test_review_json_for_chosen_seats_matches_the_library(tmp_path: Path) -> None:
    path = write(tmp_path, MISTAKE)
    result = run("review", path, "--json", "--samples", "4", "--seed", "9", "--seat", "2", "--seat", "0")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {d["seat"] for d in data["decisions"]} == {0, 2}
    assert [p["seat"] for p in data["players"]] == [0, 2]
    assert data == review_record(parse_record(MISTAKE), [0, 2], seed=9, samples=4).to_json()


def test_review_text_gives_totals_then_the_costliest_decisions_first(tmp_path: Path) -> None:
    result = run("review", write(tmp_path, MISTAKE), "--samples", str(SAMPLES))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("Seat")))
    assert lines[header].split() == ["Seat", "Player", "Decisions", "Total", "loss"]
    totals = [line.split() for line in lines[header + 2 : header + 6]]
    assert [row[:3] for row in totals] == [
        ["0", "Ana", "7"],
        ["1", "Ben", "7"],
        ["2", "Cleo", "7"],
        ["3", "Dan", "7"],
    ]
    start = lines.index(next(line for line in lines if line.startswith("Hand")))
    assert lines[start].split()[-2:] == ["Loss", "Error"]
    rows = [line.split() for line in lines[start + 2 :] if line.strip() and not line.startswith("...")]
    assert rows, result.stdout
    losses = [float(row[-2]) for row in rows]
    errors = [float(row[-1]) for row in rows]
    assert losses == sorted(losses, reverse=True) and all(loss > 0 for loss in losses)
    assert all(loss > error for loss, error in zip(losses, errors, strict=True))
    # Hands and actions count from 1 in the text: Cleo's Jh is action 22 of hand 1.
    assert ["1", "22", "Cleo", "Jh", "9h"] in [row[:5] for row in rows]
    cleo = run("review", write(tmp_path, MISTAKE), "--samples", str(SAMPLES), "--seat", "2")
    cleo_lines = cleo.stdout.splitlines()
    first = cleo_lines[cleo_lines.index(next(line for line in cleo_lines if line.startswith("Hand"))) + 2]
    assert first.split()[:5] == ["1", "22", "Cleo", "Jh", "9h"]


def test_review_top_limits_the_list(tmp_path: Path) -> None:
    result = run("review", write(tmp_path, MISTAKE), "--samples", "4", "--top", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("Hand")))
    assert len([line for line in lines[start + 2 :] if line.strip()]) == 2  # one row, then "... and N more"
    assert lines[-1].startswith("... and ")


def test_review_refuses_a_seat_the_record_does_not_have(tmp_path: Path) -> None:
    for seat in ("4", "-1"):
        result = run("review", write(tmp_path, MISTAKE), "--seat", seat)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr == f"--seat: no seat {seat}: the record has 4 seats, 0 to 3\n"


def test_review_refuses_a_bad_file(tmp_path: Path) -> None:
    missing = run("review", str(tmp_path / "nowhere.json"))
    assert missing.exit_code == 2
    assert missing.stdout == ""
    assert missing.stderr.startswith("invalid record: cannot read ")
    assert missing.stderr.count("\n") == 1
    garbled = run("review", write(tmp_path, "{not json"))
    assert garbled.exit_code == 2
    assert garbled.stderr.startswith("invalid record: not valid JSON: ")
    wrong = run("review", write(tmp_path, {**MISTAKE, "format": "pgn"}))
    assert (wrong.exit_code, wrong.stderr) == (
        2,
        'invalid record: "format" must be "smear-record/1", not "pgn"\n',
    )


def test_review_refuses_a_record_that_breaks_the_rules(tmp_path: Path) -> None:
    data = copy.deepcopy(MISTAKE)
    data["hands"][0]["actions"][5] = "Qc"  # Cleo must follow the Kh with a heart
    result = run("review", write(tmp_path, data))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert (
        result.stderr
        == "hand 1, action 6: Cleo cannot play Qc: trump (hearts) was led and Cleo holds a trump\n"
    )


def test_costliest_keeps_the_decisions_that_lost_points_costliest_first_equal_losses_in_order() -> None:
    def decision(action_index: int, loss: float) -> Decision:
        return Decision(0, action_index, 0, "Ah", "Kh", 1.0, 1.0 + loss, loss)

    losses = [0, 0.2, 1.5, 0.2, 0.05, 0.9, 0.01, 0]
    decisions = [decision(index, loss) for index, loss in enumerate(losses)]
    assert [d.action_index for d in costliest(decisions)] == [2, 5, 1, 3, 4, 6]
    assert [d.action_index for d in costliest(decisions, REVIEW_COSTLIEST)] == [2, 5, 1, 3, 4]
    assert [d.action_index for d in costliest(decisions, 2)] == [2, 5]
    assert costliest([decision(0, 0), decision(1, 0)]) == []


# --- what the review can be trusted with ---------------------------------------------------------------

TRUST_SAMPLES = 24


def played_hands(lineup: tuple[str, ...], seed: int, hands: int) -> dict[str, Any]:
    """The record of the first ``hands`` hands of a seeded house match of four single seats, the
    experts deciding on ``TRUST_SAMPLES`` deals with no time limit (so the same on every machine)."""
    bots = {name: make_bot(name) for name in set(lineup) - {"expert"}}
    bots["expert"] = ExpertBot(samples=TRUST_SAMPLES, play_samples=TRUST_SAMPLES, seconds=math.inf)
    rng = random.Random(seed)
    state = new_match(find_rules("house"), 4, False, seed=seed)
    while state.public.hand_number <= hands and state.public.phase is not Phase.MATCH_OVER:
        if state.public.phase is Phase.HAND_OVER:
            if state.public.hand_number == hands:
                break
            state = next_hand(state)
            continue
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, bots[lineup[seat]].choose(player_view(state, seat), rng), seat)
    return record_of(state, [f"{name} {seat}" for seat, name in enumerate(lineup)])


def test_the_expert_s_own_decisions_judged_with_its_own_budget_cost_nothing() -> None:
    # Judged the way it decides (its candidates, its value, its sampling, its solver), on other deals.
    record = parse_record(played_hands(("expert", "heuristic", "expert", "random"), seed=11, hands=2))
    review = review_record(record, [0, 2], seed=1, samples=TRUST_SAMPLES)
    judged = [d for d in review.decisions if not d.forced]
    assert len(judged) > 10
    assert [d for d in judged if d.verdict == "worse"] == []
    bids = [d for d in judged if d.action == "pass" or d.action.startswith("bid")]
    assert bids and all(d.loss == 0 for d in bids)


def test_a_player_who_always_passes_and_plays_its_first_card_loses_more_than_the_expert() -> None:
    record = parse_record(played_hands(("naive", "expert", "expert", "expert"), seed=5, hands=3))
    review = review_record(record, None, seed=2, samples=TRUST_SAMPLES)
    naive, *experts = (player.total_loss for player in review.players)
    assert naive > 1 and naive > max(experts)
    assert any(d.seat == 0 and d.verdict == "worse" for d in review.decisions)


def test_a_lead_within_the_margin_of_error_is_called_equal_and_loses_nothing() -> None:
    ace, king = parse_action("Ah"), parse_action("Kh")
    assert verdict(Judgement(ace, 1.0, 1.5, 0.3, 24)) == ("equal", 0.0, 0.6)
    assert verdict(Judgement(ace, 1.0, 1.5, 0.2, 24)) == ("worse", 0.5, 0.4)
    # Compared as shown, to two decimals: a lead of 0.53 is within an error of 0.5269 (shown 0.53).
    assert verdict(Judgement(ace, 3.34, 3.87, 0.26345, 24)) == ("equal", 0.0, 0.53)
    assert verdict(Judgement(ace, 3.34, 3.87, 0.2612, 24)) == ("worse", 0.53, 0.52)
    assert verdict(Judgement(king, 1.0, 1.0, None, 24)) == ("best", 0.0, None)
    assert verdict(Judgement(king, None, None, None, 0)) == ("forced", 0.0, None)
    assert NOISE_Z == 2.0
