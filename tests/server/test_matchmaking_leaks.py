"""Find a game and hidden information: a person who takes a bot's seat is sent a spectator's view
until the next deal (the bot still plays that seat's cards, and its partner must not learn them from
a chat), and only that seat's cards from then on. Checked with the leak audit's own checks
(``bench/leakkit/audit.py``) against the finished match's record."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path
from typing import Any

from leakkit.audit import check_received, facts_of
from serverkit import Client, play_out, session
from test_leaks import TIMING, report

GAME = {"preset": "house", "players": 4, "teams": True}


def fetch_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


async def found(url: str, client: Client, name: str) -> dict[str, Any]:
    reply = await client.call("find_game", {"name": name, **GAME})
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    return reply


def test_a_person_who_arrives_sees_no_card_of_the_seat_before_taking_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", timing=TIMING) as s:
            ann, bob = await s.connect(), await s.connect()
            first = await found(s.url, ann, "Ann")
            second = await found(s.url, bob, "Bob")
            assert second["table"] == first["table"] and second["matched"]
            await play_out([ann, bob], top_bid=True)
            await bob.wait_for(lambda state: state["table"]["status"] == "finished")
            code = first["table"]
            record = await asyncio.to_thread(fetch_json, f"{s.url}/tables/{code}/matches/1/record.json")
        facts = facts_of(record)
        # Bob's messages: a spectator's until the first state that gives him the seat, a seat's after.
        seat = second["seat"]
        states = [index for index, (kind, data) in enumerate(bob.received) if kind == "state"]
        taken = next(i for i in states if not bob.received[i][1]["table"]["seats"][seat]["arriving"])
        assert taken > states[0] and bob.received[taken][1]["table"]["you"] == seat
        watching, seated = bob.received[:taken], bob.received[taken:]
        leaks = check_received(watching, facts, spectator=True, who="Bob arriving", whole_match=False)
        leaks += check_received(seated, facts, spectator=False, who="Bob seated", whole_match=False)
        leaks += check_received(ann.received, facts, spectator=False, who="Ann")
        assert not leaks, report(leaks)

    asyncio.run(scenario())
