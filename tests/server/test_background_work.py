"""Work nobody at a table waits for (smear.server.players.background): reviews of finished matches, their
replays and records sent to be replayed each run in a lane of their own (a thread for their reads, a
process for their work), queued and paced, so that they never keep a hint, a table's read or its
acts waiting; and every record they are given, stored or sent, is refused with a coded answer,
never a traceback. Where a test holds the work on an event, the lanes' processes are threads."""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, Session, get_json, http_json, session
from test_match_review_api import finished_match
from test_players import new_profile

from smear.record import Record, dump_record
from smear.replayview import replay_view
from smear.review import Review
from smear.server.limits import Limits
from smear.server.players.background import worker_pool
from smear.server.players.hints import MatchReview

WAIT = 20.0  # seconds a condition may take to come true on a loaded machine
RELEASE = 60.0  # seconds a held job waits for its test, at most
MESSAGE_REFUSALS = ("malformed_json", "message_too_large", "invalid_message")
UNKNOWN = ("Qw3eRt5yUi8o", "Zx9cVb7nMq2w", "Lk4jHg6fDs1a")  # well-formed ids of no match


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def until(condition: Callable[[], bool]) -> None:
    """Once ``condition()`` holds (looked at between the event loop's other work)."""
    deadline = asyncio.get_running_loop().time() + WAIT
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the condition did not come true"
        await asyncio.sleep(0.01)


async def at_their_turn(s: Session) -> Client:
    """A person at a started table of bots, hints on, once it is their turn."""
    host = await s.with_bots("Bo", players=4, hints=True)
    assert (await host.send("start"))["ok"]
    await host.wait_for(lambda state: bool(state["game"] and state["game"]["legal"]))
    return host


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every log line of the server and of uvicorn (whose loggers do not reach the root's)."""
    caplog.set_level(logging.INFO)
    uvicorn = logging.getLogger("uvicorn.error")
    uvicorn.addHandler(caplog.handler)
    try:
        yield caplog
    finally:
        uvicorn.removeHandler(caplog.handler)


def in_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lanes' work in threads of this process, where a test's stand-ins reach it."""
    monkeypatch.setattr("smear.server.players.background.worker_pool", lambda *_: ThreadPoolExecutor(1))


def no_traceback(log: pytest.LogCaptureFixture) -> None:
    assert "Traceback" not in log.text
    assert all(record.exc_info is None and record.levelno < logging.ERROR for record in log.records)


def test_a_flood_of_reviews_fills_its_own_queue_and_a_seated_players_hint_is_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    judging: list[int] = []

    def held_judge(record: Record, seed: int) -> MatchReview:
        judging.append(seed)
        release.wait(RELEASE)
        return MatchReview(Review((), ()), 4)

    in_threads(monkeypatch)
    monkeypatch.setattr("smear.server.players.hints.judge_record", held_judge)
    limits = Limits(review_queue=2)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=limits) as s:
            matches = [(await finished_match(s))[0] for _ in range(limits.review_queue)]
            reviews = s.server.background.reviews
            # As many reviews as the queue takes: one held in the reviews' worker, the other waiting.
            held = [asyncio.ensure_future(get_json(f"{s.url}/api/matches/{m}/review")) for m in matches]
            await until(lambda: len(judging) == 1 and reviews.working == limits.review_queue)
            # More reviews are refused at once, to be asked again later (those of no match too: the
            # look-up is work of the reviews')...
            for other in (*UNKNOWN, matches[0] + "x"):
                status, answer = await get_json(f"{s.url}/api/matches/{other}/review")
                assert (status, answer["error"]["code"]) == (503, "server_busy"), answer
            # ...and a person at a table is answered: the hints have a queue and a thread of their own.
            host = await at_their_turn(s)
            reply = await host.send("hint")
            assert reply["ok"], reply
            assert s.server.hints.working == 0
            assert not any(review.done() for review in held)
            release.set()
            assert [(await review)[0] for review in held] == [200] * len(held)
            assert (await get_json(f"{s.url}/api/matches/{UNKNOWN[0]}/review"))[0] == 404
            await until(lambda: reviews.working == 0)

    run(scenario)


def test_replays_and_uploads_do_not_wait_for_the_database_reading_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            match, ann = await finished_match(s)
            storage = s.server.storage
            # Both reading threads held by reads of Ann's profile.
            reads_held, inside = threading.Event(), []
            profile_info = storage.players.profile_info

            def held_read(player: str) -> Any:
                inside.append(player)
                reads_held.wait(RELEASE)
                return profile_info(player)

            monkeypatch.setattr(storage.players, "profile_info", held_read)
            profiles = [asyncio.ensure_future(get_json(f"{s.url}/api/players/{ann}")) for _ in range(2)]
            await until(lambda: len(inside) == 2)
            status, stored = await get_json(f"{s.url}/api/matches/{match}/replay")
            assert status == 200 and stored["match"]["match"] == match and stored["view"]["complete"]
            text = dump_record(stored["record"])
            status, uploaded = await http_json("POST", f"{s.url}/api/replay", raw=text.encode())
            assert status == 200 and uploaded["view"] == stored["view"]
            assert not any(read.done() for read in profiles)
            reads_held.set()
            assert [(await read)[0] for read in profiles] == [200, 200]

    run(scenario)


def test_a_table_reads_and_acts_while_a_replay_is_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replay_held, replaying = threading.Event(), []

    def held_view(record: Record) -> dict[str, Any]:
        replaying.append(1)
        replay_held.wait(RELEASE)
        return replay_view(record)

    in_threads(monkeypatch)
    monkeypatch.setattr("smear.server.players.recordjobs.replay_view", held_view)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            match, ann = await finished_match(s)
            replay = asyncio.ensure_future(get_json(f"{s.url}/api/matches/{match}/replay"))
            await until(lambda: len(replaying) == 1)
            host = await at_their_turn(s)
            state = host.state
            reply = await host.send("act", version=state["version"], action=state["game"]["legal"][0]["text"])
            assert reply["ok"], reply
            assert (await host.call("open_tables", {"watch": False}))["ok"]
            assert (await get_json(f"{s.url}/api/players/{ann}"))[0] == 200
            assert (await get_json(f"{s.url}/api/players/{ann}/matches"))[0] == 200
            assert not replay.done()
            replay_held.set()
            status, answer = await replay
            assert status == 200 and answer["match"]["match"] == match

    run(scenario)


def test_a_lane_whose_process_died_answers_server_busy_then_works_in_a_new_one(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            match, _ = await finished_match(s)
            url = f"{s.url}/api/matches/{match}/replay"
            assert (await get_json(url))[0] == 200  # the replays' process is started
            workers = multiprocessing.active_children()
            assert len(workers) == 1
            workers[0].kill()
            answers = []
            while not answers or answers[-1] != 200:
                status, answer = await get_json(url)
                assert status == 200 or (status, answer["error"]["code"]) == (503, "server_busy"), answer
                answers.append(status)
                assert len(answers) < 10
            assert [child.pid for child in multiprocessing.active_children()] != [workers[0].pid]

    run(scenario)


def test_a_stored_record_the_engine_refuses_is_answered_422_without_a_traceback(
    tmp_path: Path, server_log: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "smear.db"

    def store(match: str, text: str) -> None:
        with sqlite3.connect(database) as db:
            db.execute("UPDATE played_matches SET record = ? WHERE id = ?", (text, match))

    async def scenario() -> None:
        async with session(database) as s:
            match, _ = await finished_match(s)
            record = (await get_json(f"{s.url}/api/matches/{match}"))[1]
            first = record["hands"][0]
            first["actions"] = ["bid 99", *first["actions"][1:]]
            for stored in (json.dumps(record), '{"format": "smear-record/1"}', "4", "not JSON {"):
                store(match, stored)
                for path in ("replay", "review"):
                    status, answer = await get_json(f"{s.url}/api/matches/{match}/{path}")
                    assert (status, answer["error"]["code"]) == (422, "record_unplayable"), (stored, answer)
            status, answer = await get_json(f"{s.url}/api/matches/{match}")
            assert (status, answer["error"]["code"]) == (422, "record_unplayable")
        no_traceback(server_log)
        assert "its stored record cannot be replayed" in server_log.text
        assert "bid 99" not in server_log.text

    run(scenario)


def test_malformed_bodies_and_records_of_too_many_hands_are_answered_4xx(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server_log: pytest.LogCaptureFixture
) -> None:
    in_threads(monkeypatch)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=Limits(record_hands=1)) as s:
            match, _ = await finished_match(s)
            record = (await get_json(f"{s.url}/api/matches/{match}"))[1]
            assert len(record["hands"]) > 1
            huge = "1" * 5_000
            one_hand = dict(record, hands=record["hands"][:1])
            bodies = [
                huge.encode(),
                json.dumps(one_hand).replace('"hands": [', f'"x": {huge}, "hands": [').encode(),
                b"4",
                b"\x00" * 8,
                b'{"format": "smear-record/1\x00"}',
                json.dumps(one_hand).encode().replace(b"{", b"{\x00", 1),
            ]
            for body in bodies:
                status, answer = await http_json("POST", f"{s.url}/api/replay", raw=body)
                assert (status, answer["error"]["code"]) == (400, "bad_record"), (body[:40], answer)

            # More hands than the server replays: refused before anything is replayed.
            def no_replay(record: Record) -> dict[str, Any]:
                raise AssertionError("a record of too many hands was replayed")

            monkeypatch.setattr("smear.server.players.recordjobs.replay_view", no_replay)
            status, answer = await http_json("POST", f"{s.url}/api/replay", record)
            assert (status, answer["error"]["code"], answer["error"]["args"]) == (
                413,
                "record_too_long",
                {"limit": 1},
            )
            for path in ("replay", "review"):
                status, answer = await get_json(f"{s.url}/api/matches/{match}/{path}")
                assert (status, answer["error"]["code"]) == (422, "record_too_long"), answer
            monkeypatch.undo()
            status, answer = await http_json("POST", f"{s.url}/api/replay", one_hand)
            assert status == 200 and len(answer["view"]["hands"]) == 1

            # Every JSON body: a message's bodies are refused as a socket's messages are.
            profile = await new_profile(s.url, "Cy")
            message_bodies = [b"4", b"\x00" * 8, ("1" * 4_000).encode(), b'{"name": ' + b"9" * 4_000 + b"}"]
            for method, path in (
                ("POST", "/api/players"),
                ("POST", "/api/transfer"),
                ("PATCH", f"/api/players/{profile['player']}"),
            ):
                for body in [*message_bodies, huge.encode()]:
                    secret = profile["secret"] if method == "PATCH" else None
                    status, answer = await http_json(method, s.url + path, raw=body, secret=secret)
                    assert 400 <= status < 500, (method, path, body[:20], answer)
                    assert answer["error"]["code"] in (
                        "malformed_json",
                        "message_too_large",
                        "invalid_message",
                    )
        no_traceback(server_log)

    run(scenario)


def test_a_lanes_process_runs_as_far_behind_the_server_as_its_niceness_says() -> None:
    for niceness in (0, 7):
        pool = worker_pool("review", niceness)
        try:
            assert pool.submit(os.nice, 0).result() == os.nice(0) + niceness
        finally:
            pool.shutdown()
