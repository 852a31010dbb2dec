"""The bid advisor over the network: ``bid_advice`` on a seat's turn in the auction gives each choice
the seat may make with its chances, under the table's hints setting, and nothing of another hand."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, Session, session
from tablechecks import PATIENT, cards_in, is_playing, nothing_changes, refused

from smear import find_rules
from smear.server.players.hints import HintService

ENTRY_KEYS = {"action", "expected", "win", "make"}


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def house_teams(s: Session, **settings: Any) -> list[Client]:
    """A started house table of four people in two teams (nothing moves unless a test acts)."""
    host = await s.create("Host", players=4, teams=True, **settings)
    assert host.table is not None
    clients = [host] + [await s.join(host.table, f"Guest {i}") for i in range(1, 4)]
    reply = await host.send("start")
    assert reply["ok"], reply
    for client in clients:
        await client.wait_for(lambda st: st["version"] == reply["version"] and is_playing(st))
    return clients


def to_act(clients: list[Client]) -> tuple[Client, list[Client]]:
    """The client whose turn it is, and the others."""
    seat = clients[0].state["game"]["public"]["to_act"]
    actor = next(c for c in clients if c.seat_now == seat)
    return actor, [c for c in clients if c is not actor]


async def act_first_legal(clients: list[Client]) -> None:
    """The seat to act plays its first legal action; every client waits for the new state."""
    actor, _ = to_act(clients)
    state = actor.state
    reply = await actor.send("act", version=state["version"], action=state["game"]["legal"][0]["text"])
    assert reply["ok"], reply
    for client in clients:
        await client.wait_for(lambda st: st["version"] == reply["version"])


def check_advice(reply: dict[str, Any], state: dict[str, Any], top_bid: int) -> None:
    """One entry per legal action, in their order, with figures in their ranges."""
    assert reply["ok"], reply
    assert set(reply) == {"ok", "version", "advice", "samples"}
    assert reply["version"] == state["version"]
    assert isinstance(reply["samples"], int) and reply["samples"] >= 4
    advice = reply["advice"]
    assert [entry["action"] for entry in advice] == state["game"]["legal"]
    assert {"text": "pass", "kind": "pass"} in state["game"]["legal"] or state["game"]["legal"][0][
        "text"
    ].startswith("bid ")
    for entry in advice:
        assert set(entry) == ENTRY_KEYS, entry
        # The side's change this hand: at worst set by the highest bid, at best every point.
        assert isinstance(entry["expected"], float) and -top_bid <= entry["expected"] <= 6, entry
        assert entry["expected"] == round(entry["expected"], 1)
        assert 0.0 <= entry["win"] <= 1.0 and entry["win"] == round(entry["win"], 2), entry
        if entry["make"] is None:
            assert entry["win"] == 0.0, entry
        else:
            assert 0.0 <= entry["make"] <= 1.0 and entry["make"] == round(entry["make"], 2), entry
    top = advice[-1]
    if top["action"]["text"] == f"bid {top_bid}":  # nobody can outbid the highest bid
        assert top["win"] == 1.0 and top["make"] is not None, top


def test_a_seat_in_the_auction_gets_every_choice_with_its_chances(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            clients = await house_teams(s)
            code = clients[0].table
            assert code is not None
            spectator = await s.watch(code)
            top_bid = find_rules("house").max_bid
            for _ in range(3):  # the first seats of the auction, each after the bids before it
                actor, others = to_act(clients)
                state = actor.state
                async with nothing_changes(s.server, code, [*clients, spectator]):
                    reply = await actor.send("bid_advice")
                    check_advice(reply, state, top_bid)
                    # Nothing of another hand: actions and numbers only, no card at all.
                    assert cards_in(reply) == set()
                    again = await actor.send("bid_advice")  # worked out once per turn
                    assert again == reply
                    for other in others:  # not their turn
                        refused(await other.send("bid_advice"), "not_your_turn")
                    # A spectator holds no token to ask with, and a made-up one is no seat's.
                    refused(await spectator.call("bid_advice", {"table": code}), "invalid_message")
                    fake = {"table": code, "token": "nobody-holds-this-token-0123456789"}
                    refused(await spectator.call("bid_advice", fake), "bad_token")
                await act_first_legal(clients)

    run(scenario)


def test_the_advice_is_for_the_auction_only_and_the_moon_bid_is_advised_where_legal(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            host = await s.create("Host", players=4, teams=True, shoot_the_moon=True)
            code = host.table
            assert code is not None
            refused(await host.send("bid_advice"), "not_your_turn")  # the lobby: no turn yet
            clients = [host] + [await s.join(code, f"Guest {i}") for i in range(1, 4)]
            reply = await host.send("start")
            assert reply["ok"], reply
            for client in clients:
                await client.wait_for(lambda st: st["version"] == reply["version"] and is_playing(st))
            actor, _ = to_act(clients)
            rules = find_rules("house")
            moon = f"bid {rules.max_bid + 1}"
            assert moon in [a["text"] for a in actor.state["game"]["legal"]]
            reply = await actor.send("bid_advice")
            check_advice(reply, actor.state, rules.max_bid + 1)
            assert reply["advice"][-1]["action"]["text"] == moon
            while clients[0].state["game"]["public"]["phase"] == "auction":
                await act_first_legal(clients)
            # The play has begun: a hint still answers, the bid advice does not.
            actor, _ = to_act(clients)
            assert (await actor.send("hint"))["ok"]
            refused(await actor.send("bid_advice"), "not_your_turn")

    run(scenario)


def test_a_table_without_hints_gives_no_advice(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            clients = await house_teams(s, hints=False)
            actor, others = to_act(clients)
            refused(await actor.send("bid_advice"), "hints_off")
            refused(await others[0].send("bid_advice"), "hints_off")

    run(scenario)


def test_the_advisor_bench_times_auction_positions_and_ends_with_its_lines() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench" / "advisor.py"
    run = subprocess.run(
        [sys.executable, str(bench), "--positions", "3"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert re.fullmatch(r"median_s: \d+\.\d{3}", lines[-3]), lines
    assert re.fullmatch(r"p95_s: \d+\.\d{3}", lines[-2]), lines
    assert re.fullmatch(r"cores: \d+", lines[-1]), lines
    assert "3 auction positions" in run.stdout


def test_the_hint_service_works_out_the_advice_once_per_turn_apart_from_the_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []

    class Expert:
        def advise(self, view: Any, rng: Any) -> str:
            calls.append("hint")
            return "hint"

    def advice(view: Any, rng: Any) -> str:
        calls.append("advice")
        return "advice"

    monkeypatch.setattr("smear.server.players.hints.ExpertBot", Expert)
    monkeypatch.setattr("smear.server.players.hints.bid_advice", advice)

    async def scenario() -> None:
        hints = HintService(queue=4)
        view: Any = object()
        answers = await asyncio.gather(
            *(hints.bid_advice("T1", 5, 0, view) for _ in range(5)), hints.advise("T1", 5, 0, view)
        )
        assert list(answers) == ["advice"] * 5 + ["hint"]
        assert sorted(calls) == ["advice", "hint"]
        assert await hints.bid_advice("T1", 6, 0, view) == "advice" and calls.count("advice") == 2
        assert hints.working == 0
        hints.close()

    run(scenario)
