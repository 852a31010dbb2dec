"""Find a game across processes: two ``smear serve`` processes on PostgreSQL and Redis match people
connected to either to one table (its open seats shared through Redis, smear.server.tables.openings),
and the owner of that table killed loses nobody's seat: the other process takes it over, its people
come back there, the match plays on and the next person who looks for a game is seated at it."""

from __future__ import annotations

import contextlib
import signal
import time
from pathlib import Path
from typing import Any

import redis
from serverkit import Client, free_port, play_out, resume, server_process
from test_cluster import run, until
from test_matchmaking import HOUSE, hand_number
from test_restart import close_all, same_hand

from smear.server.tables.openings import STALE_SECONDS, Game, Opening


@contextlib.asynccontextmanager
async def two_quick_processes(tmp_path: Path, database: str, redis_url: str) -> Any:
    """test_cluster's two_server_processes (a short lease), with bots that play and hands that are
    dealt at once: a matchmade table is all bots but its people. A person cut off with the owner
    has the turn limit (15 s) to come back before a bot plays their turn."""
    options = ("--redis", redis_url, "--lease", "1")
    options += ("--bot-pause", "0.01", "--hand-pause", "0.05")
    async with (
        server_process(free_port(), database, tmp_path / "first.log", *options) as first,
        server_process(free_port(), database, tmp_path / "second.log", *options) as second,
    ):
        yield first, second


async def find(url: str, name: str) -> tuple[Client, dict[str, Any]]:
    """A person connected to ``url`` who asks for a game of house, four in teams."""
    client = await Client(url).connect()
    reply = await client.call("find_game", {"name": name, **HOUSE})
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    await client.wait_for(lambda state: state["version"] >= reply["version"])
    return client, reply


def arriving(state: dict[str, Any], seat: int) -> bool:
    """The state of a person who took ``seat`` from a bot and watches until the next deal."""
    table = state["table"]
    return (
        table["you"] is None
        and table["you_arrive"] == seat
        and table["seats"][seat]["bot"]
        and table["seats"][seat]["arriving"]
        and state["game"].get("hand") is None
    )


def seated(state: dict[str, Any], seat: int, hand: int) -> bool:
    """The state of a person who plays ``seat`` (with its cards) in a hand after ``hand``."""
    table = state["table"]
    return (
        hand_number(state) > hand
        and table["you"] == seat
        and table["you_arrive"] is None
        and not table["seats"][seat]["bot"]
        and state["game"]["hand"] is not None
    )


def written_since(redis_url: str, code: str, since: float) -> Opening | None:
    """The table's entry among the open seats of house in teams, if written after ``since``."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        text = client.hget(Game("house", 4, True).key, code)
    finally:
        client.close()
    opening = None if text is None else Opening.from_json(code, text)
    return opening if opening is not None and opening.at > since else None


def test_people_on_two_processes_are_matched_to_one_table_which_outlives_its_owner(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    async def scenario() -> None:
        clients: list[Client] = []
        try:
            async with two_quick_processes(tmp_path, postgres_url, redis_url) as (first, second):
                # Ann, on the first process, opens a table with bots (the first process owns it).
                ann, opened = await find(first.url, "Ann")
                clients.append(ann)
                assert opened["matched"] is False
                code, ann_seat = opened["table"], opened["seat"]
                hand = hand_number(ann.state)
                assert hand == 1 and ann.state["table"]["you"] == ann_seat

                # Bob, on the second, is matched to it and watches the hand under way from there.
                bob, matched = await find(second.url, "Bob")
                clients.append(bob)
                assert matched["matched"] is True and matched["table"] == code, matched
                bob_seat = matched["seat"]
                assert bob_seat != ann_seat
                assert arriving(await bob.wait_for(lambda s: s["version"] >= matched["version"]), bob_seat)
                assert hand_number(bob.state) == hand, "the hand Ann has not played yet went on without her"

                # Ann plays the hand out (the bots play Bob's seat); at the deal Bob's seat is his.
                await play_out([ann], lambda state: hand_number(state) > hand)
                dealt = await bob.wait_for(lambda s: seated(s, bob_seat, hand), 30)
                assert dealt["table"]["seats"][bob_seat]["name"] == "Bob"
                hand = hand_number(dealt)

                # The hand goes on until it is one of the people's turn, which waits for them.
                def waiting(state: dict[str, Any]) -> bool:
                    if not state["game"] or "public" not in state["game"]:
                        return False  # a state of Bob's before he was seated
                    public = state["game"]["public"]
                    return (
                        public["hand_number"] == hand
                        and public["phase"] not in ("hand_over", "match_over")
                        and public["to_act"] in (ann_seat, bob_seat)
                    )

                before = await ann.wait_for(lambda s: s is ann.states[-1] and waiting(s), 30)
                last_version = before["version"]
                before_bob = await bob.wait_for(lambda s: s["version"] == last_version)
                first.kill()  # the owner: the table was opened there
                assert first.process.returncode == -signal.SIGKILL
                killed_at = time.time()

                # The second process takes the table over: Bob's socket there gets the table again,
                # his seat his, and Ann comes back through it with her token, to the same seat. Both
                # see their hand as it was (a table restored before anyone acted in its hand is
                # restored at the end of the last one, and that hand dealt again: the same cards).
                resync = await bob.wait_for(lambda s: s["version"] > last_version and s["resync"], 15)
                assert resync["table"]["you"] == bob_seat
                ann_again, reply = await resume(second.url, code, ann.token or "", last_version)
                clients.append(ann_again)
                assert reply["ok"], reply
                assert reply["seat"] == ann_seat and reply["version"] > last_version, reply
                for client, old in ((bob, before_bob), (ann_again, before)):
                    again = await client.wait_for(lambda s: s["version"] > last_version and waiting(s))
                    same_hand(old, again)
                people = (ann_seat, bob_seat)
                for client in (ann_again, bob):
                    await client.wait_for(
                        lambda s: all(
                            not s["table"]["seats"][seat]["bot"] and s["table"]["seats"][seat]["connected"]
                            for seat in people
                        )
                    )

                # The new owner writes the table's open seats again (the killed owner's entry would go
                # stale), and Cat, who finds a game there, is matched to it.
                await until(
                    lambda: written_since(redis_url, code, killed_at) is not None,
                    "the new owner did not write the table's open seats",
                    timeout=STALE_SECONDS,
                )
                entry = written_since(redis_url, code, killed_at)
                assert entry is not None and entry.free == 2, entry
                cat, third = await find(second.url, "Cat")
                clients.append(cat)
                assert third["matched"] is True and third["table"] == code, third
                cat_seat = third["seat"]
                assert cat_seat not in people
                assert arriving(await cat.wait_for(lambda s: s["version"] >= third["version"]), cat_seat)

                # The match plays on: Ann and Bob play the hand out, and Cat has her seat at the deal.
                await play_out([ann_again, bob], lambda state: hand_number(state) > hand)
                for client, seat in ((ann_again, ann_seat), (bob, bob_seat), (cat, cat_seat)):
                    await client.wait_for(lambda s, seat=seat: seated(s, seat, hand), 30)
                await until(
                    lambda: getattr(written_since(redis_url, code, killed_at), "free", None) == 1,
                    "the new owner did not write the seat Cat took",
                )
        finally:
            await close_all(clients)

    run(scenario)
