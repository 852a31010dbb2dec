"""Reviews over the network: ``review_hand`` judges the asking seat's decisions in a hand that is over,
``review_match`` every seat's once the match is over, under the table's hints setting, from each
seat's own view and naming no card the asking seat could not know."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, Session, play_out, session
from tablechecks import PATIENT, TOKEN_OF_NOBODY, cards_in, nothing_changes, people_table, refused

from smear.actionjson import record_action_json
from smear.record import parse_record, record_of
from smear.review import REVIEW_COSTLIEST, positions
from smear.server.players.hints import HintService, match_review_samples
from smear.server.tables.table import TableError

HAND_0: Any = ["hand 0"]  # what the stand-in review gives
FINE: Any = ["fine"]
# Seconds the browser waits for a review's answer (web/src/net.ts): a hand's review, like a match's,
# is seconds of the expert's search on the hints' thread, not the 10 s of a move.
REVIEW_WAIT = 30.0
DECISION_KEYS = {"action_index", "action", "best", "expected_action", "expected_best", "loss"}
DECISION_KEYS |= {"verdict", "error"}


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def play_until_hands_over(clients: list[Client], hands: int) -> None:
    """Each seat plays its first legal action on its turn until ``hands`` hands are over and the next
    one is dealt."""

    def done(state: dict[str, Any]) -> bool:
        if state["game"] is None:
            return False
        public = state["game"]["public"]
        return len(public["results"]) >= hands and public["phase"] not in ("hand_over", "match_over")

    await play_out(clients, until=done)


def record_at(s: Session, code: str) -> Any:
    """The match at the table so far, as the server holds it."""
    table = s.server.live.tables[code]
    assert table.state is not None
    return parse_record(record_of(table.state, [f"P{seat}" for seat in range(len(table.seats))]))


def known_cards(record: Any, hand: int, seat: int) -> set[str]:
    """The cards ``seat`` held in ``hand`` (dealt, or picked up) and the cards played in it."""
    dealt = {str(card) for card in record.hands[hand].deal[seat]}
    found: set[str] = set()
    for text in record.hands[hand].actions:
        found |= cards_in(text.split())
    return dealt | found


def check_decision(decision: dict[str, Any], keys: set[str] = DECISION_KEYS) -> None:
    assert set(decision) == keys, decision
    for key in ("action", "best"):  # structured, as the legal actions are
        assert decision[key] == record_action_json(decision[key]["text"]), decision
    assert isinstance(decision["loss"], float | int) and decision["loss"] >= 0, decision
    if decision["expected_action"] is None:  # forced: nothing was searched
        assert decision["expected_best"] is None and decision["loss"] == 0, decision
        assert decision["best"] == decision["action"], decision
        assert (decision["verdict"], decision["error"]) == ("forced", None), decision
        return
    assert isinstance(decision["expected_best"], float | int), decision
    assert decision["expected_best"] >= decision["expected_action"], decision
    gap = round(decision["expected_best"] - decision["expected_action"], 2)
    if decision["verdict"] == "worse":  # ahead by more than the margin of error
        assert decision["loss"] == gap > decision["error"], decision
    elif decision["verdict"] == "equal":  # within it: nothing lost
        assert decision["loss"] == 0 and gap <= decision["error"], decision
    else:
        assert decision["verdict"] == "best" and decision["error"] is None, decision
        assert decision["loss"] == 0 and decision["best"] == decision["action"], decision


def test_a_hand_over_is_reviewed_for_the_asking_seat_only(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            clients = await people_table(s)
            code = clients[0].table
            assert code is not None
            refused(await clients[0].send("review_hand", hand=0), "hand_not_over")  # the first hand is on
            await play_until_hands_over(clients, 1)
            spectator = await s.watch(code)
            record = record_at(s, code)
            assert len(record.hands) == 2  # the first hand is over, the second under way
            async with nothing_changes(s.server, code, [*clients, spectator]):
                for client in clients:
                    seat = client.seat_now
                    assert seat is not None
                    reply = await client.send("review_hand", hand=0, timeout=REVIEW_WAIT)
                    assert reply["ok"], reply
                    assert set(reply) == {"ok", "hand", "decisions", "costliest", "total_loss"}
                    assert reply["hand"] == 0
                    # This seat's decisions of that hand, forced ones too, in record order.
                    mine = [(p.action_index, str(p.action)) for p in positions(record, {seat}, {0})]
                    assert mine
                    assert [(d["action_index"], d["action"]["text"]) for d in reply["decisions"]] == mine
                    for decision in reply["decisions"]:
                        check_decision(decision)
                    # The list to show: those that lost points, costliest first, at most the server's count.
                    lost = [d for d in reply["decisions"] if d["loss"] > 0]
                    costly = sorted(lost, key=lambda d: -d["loss"])
                    assert reply["costliest"] == costly[:REVIEW_COSTLIEST]
                    total = round(sum(d["loss"] for d in reply["decisions"]), 2)
                    assert reply["total_loss"] == total
                    # Only cards this seat held in that hand or that were played in it: nothing of
                    # the hand under way, nothing of another seat's hand.
                    assert cards_in(reply) <= known_cards(record, 0, seat), reply
                    assert cards_in(reply) <= {str(card) for card in record.hands[0].deal[seat]}
                    assert await client.send("review_hand", hand=0) == reply  # worked out once
                # The hand under way and a hand never dealt are not over.
                refused(await clients[0].send("review_hand", hand=1), "hand_not_over")
                refused(await clients[0].send("review_hand", hand=40), "hand_not_over")
                refused(await clients[0].send("review_match"), "match_not_over")
                # A spectator holds no token to ask with, and a made-up one is no seat's.
                refused(await spectator.call("review_hand", {"table": code, "hand": 0}), "invalid_message")
                fake = {"table": code, "token": TOKEN_OF_NOBODY, "hand": 0}
                refused(await spectator.call("review_hand", fake), "bad_token")
                refused(await clients[0].send("review_hand", hand=-1), "invalid_message")
            assert s.server.hints.working == 0

    run(scenario)


def test_a_table_without_hints_reviews_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            clients = await people_table(s, hints=False)
            await play_until_hands_over(clients, 1)
            for client in clients:
                refused(await client.send("review_hand", hand=0), "hints_off")
                refused(await client.send("review_match"), "hints_off")

    run(scenario)


def test_the_match_is_reviewed_once_it_is_over(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.with_bots(players=4, teams=True)
            code = host.table
            assert code is not None
            refused(await host.send("review_match"), "match_not_over")  # the lobby
            reply = await host.send("start")
            assert reply["ok"], reply
            refused(await host.send("review_match"), "match_not_over")  # under way
            await play_out([host])
            table = s.server.live.tables[code]
            assert table.status == "finished"
            seat = host.seat_now
            assert seat is not None
            record = record_at(s, code)
            # A match's review is seconds of work on the hints' thread: the client waits for it as
            # long as the browser does (web/src/net.ts), not the 10 s of a move.
            reply = await host.send("review_match", timeout=REVIEW_WAIT)
            assert reply["ok"], reply
            assert set(reply) == {"ok", "players", "costliest"}
            # One entry per seat: each seat's decisions, forced ones too, and its total loss.
            assert [player["seat"] for player in reply["players"]] == [0, 1, 2, 3]
            for player in reply["players"]:
                assert player["decisions"] == len(positions(record, {player["seat"]}))
                assert player["total_loss"] >= 0
            # The asking seat's costliest decisions, at most the count, costliest first, each in its hand.
            costliest = reply["costliest"]
            assert len(costliest) <= REVIEW_COSTLIEST
            assert [d["loss"] for d in costliest] == sorted((d["loss"] for d in costliest), reverse=True)
            mine = {(p.hand, p.action_index): str(p.action) for p in positions(record, {seat})}
            for decision in costliest:
                check_decision(decision, DECISION_KEYS | {"hand"})
                assert decision["loss"] > 0
                assert mine[(decision["hand"], decision["action_index"])] == decision["action"]["text"]
                assert cards_in(decision) <= known_cards(record, decision["hand"], seat)
            assert sum(d["loss"] for d in costliest) <= reply["players"][seat]["total_loss"] + 1e-9
            assert await host.send("review_match") == reply  # worked out once
            # The hands of a match that is over are reviewed too, the last one included.
            last = len(record.hands) - 1
            hand = await host.send("review_hand", hand=last)
            assert hand["ok"] and hand["hand"] == last, hand
            assert s.server.hints.working == 0

    run(scenario)


def test_the_match_review_takes_fewer_samples_in_a_very_long_match() -> None:
    assert match_review_samples(200) == 8
    assert match_review_samples(300) == 6
    assert match_review_samples(400) == 5
    assert match_review_samples(5_000) == 4


def test_reviews_are_kept_per_match_hand_and_seat_and_queued_with_the_hints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[int, int]] = []
    release = threading.Event()

    def review(record: Any, hand: int, seats: Any, seed: int, samples: int) -> list[Any]:
        calls.append((hand, *seats))
        release.wait(5)
        return [f"hand {hand}"]

    monkeypatch.setattr("smear.server.players.hints.review_hand", review)
    monkeypatch.setattr("smear.server.players.hints._record", lambda state, hands=None: None)

    async def scenario() -> None:
        hints = HintService(queue=1)
        state: Any = object()
        first = [asyncio.ensure_future(hints.review_hand("T1", 1, 7, state, 0, 2)) for _ in range(3)]
        await asyncio.sleep(0.05)
        with pytest.raises(TableError) as busy:  # another review waits behind it: the queue is full
            await hints.review_hand("T1", 1, 7, state, 1, 2)
        assert busy.value.code == "hints_busy"
        release.set()
        assert [await answer for answer in first] == [HAND_0] * 3
        assert calls == [(0, 2)]
        assert await hints.review_hand("T1", 1, 7, state, 0, 2) == HAND_0  # kept
        assert await hints.review_hand("T1", 1, 7, state, 0, 3) == HAND_0  # another seat
        assert await hints.review_hand("T1", 2, 7, state, 0, 2) == HAND_0  # the next match
        assert calls == [(0, 2), (0, 3), (0, 2)]
        assert hints.working == 0
        hints.close()

    run(scenario)


def test_a_failed_review_is_worked_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    outcomes: list[Any] = [RuntimeError("boom"), ["fine"]]

    def review(*args: Any) -> Any:
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr("smear.server.players.hints.review_hand", review)
    monkeypatch.setattr("smear.server.players.hints._record", lambda state, hands=None: None)

    async def scenario() -> None:
        hints = HintService(queue=4)
        state: Any = object()
        with pytest.raises(RuntimeError):
            await hints.review_hand("T1", 1, 7, state, 0, 0)
        assert await hints.review_hand("T1", 1, 7, state, 0, 0) == FINE
        assert hints.working == 0
        hints.close()

    run(scenario)
