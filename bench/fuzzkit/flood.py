"""The fuzz benchmark's flood of work nobody at a table waits for, from its one address: reviews of
public match ids, their replays, and records of the most hands a server replays, padded to the most
bytes it takes, sent to be replayed. Each is sent a quarter faster than the server's documented pace
(``smear.server.limits.Limits``), so that some are refused; a request is never waited for before the
next is sent. The finished matches are stored before the server starts.

An answer of 5xx is a server error, but ``server_busy`` (503): a full queue is the answer asked for.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import aiohttp

from smear.arena import ArenaConfig, play_match
from smear.bots import make_bot
from smear.dealing import new_match, next_hand
from smear.record import parse_record, record_of, replay
from smear.rules import find_rules
from smear.server.limits import Bucket, Limits
from smear.server.players.playerstats import seat_stats, side_ranks
from smear.server.storage.database import Storage
from smear.server.storage.playerstore import MatchOutcome
from smear.server.storage.rows import SeatRow
from smear.server.tables.table import TableSettings, hash_token
from smear.state import Phase
from smear.transitions import apply
from smear.views import player_view


class Fuzzing(Protocol):
    """What the flood uses of the fuzzer (:class:`fuzzkit.run.Fuzzer`)."""

    args: argparse.Namespace
    url: str
    http: aiohttp.ClientSession
    http_errors: Counter[str]
    stopping: bool

    def spawn(self, coroutine: Awaitable[Any]) -> None: ...


OVER_PACE = 1.25  # the flood's pace, over the server's
UNKNOWN_SHARE = 0.1  # of the reviews and replays asked for a match id nobody played
PROFILE = "fuzz-flood-profile"  # the person at every stored match (a match of bots alone is nobody's)
# The stored matches: preset, players, target. The last is about as long as a real match gets.
STORED = (("house", 4, 21), ("house", 4, 21), ("cutthroat", 3, 21), ("house", 6, 21), ("house", 8, 52))
LIMITS = Limits()  # the server's documented defaults, which the fuzzer leaves as they are


def store_matches(database: str) -> list[str]:
    """Finished matches of heuristic bots, each with a person's profile in seat 0, stored as a server
    stores them: their public ids."""
    now = time.time()
    with Storage(database) as storage:
        storage.players.create_profile(PROFILE, "Flood", hash_token("fuzz-flood-secret-0123456789"), now)
        for number, (preset, players, target) in enumerate(STORED):
            lineup = ("heuristic",) * players
            changes = (("target", target),)
            config = ArenaConfig(preset, players, False, lineup, 1, seed=number, changes=changes)
            record = play_match(config, 0, keep_record=True).record
            assert record is not None
            state = replay(parse_record(record)).state
            pub = state.public
            code, names = f"fuzz-flood-{number}", list(record["players"])
            seats = [SeatRow(s, names[s], None, s != 0, PROFILE if s == 0 else None) for s in range(players)]
            settings = TableSettings(preset=preset, players=players, target=target).to_json()
            storage.create_table(code, settings, 0, seats, now)
            sides = [list(side) for side in pub.sides]
            storage.start_match(code, 1, number, sides, names, seats=seats, host_seat=0)
            outcome = MatchOutcome(
                preset=preset,
                sides=sides,
                scores=list(pub.scores),
                winner=pub.winner,
                ranks=side_ranks(state),
                stats=[seat_stats(state, seat) for seat in range(players)],
                names=names,
            )
            storage.finish_match(code, 1, record, outcome, now=now)
        found, _ = storage.players.player_matches(PROFILE, len(STORED))
    return [played.match for played, _seat in found]


def long_record(hands: int, size: int, seed: int = 1) -> bytes:
    """A record of ``hands`` hands of eight random players (a target nobody reaches), padded with a
    key the format ignores to ``size`` bytes: the most a server replays."""
    rules = find_rules("house").with_changes(target=1_000_000)
    state, bot, rng = new_match(rules, 8, False, seed=seed), make_bot("random"), random.Random(seed)
    while not (state.public.phase is Phase.HAND_OVER and state.public.hand_number >= hands):
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
            continue
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, bot.choose(player_view(state, seat), rng), seat)
    record = record_of(state, [f"Flood {seat + 1}" for seat in range(8)])
    text = json.dumps(record, separators=(",", ":"))
    padding = size - len(text) - len(',"padding":""')
    return (text[:-1] + ',"padding":"' + "x" * max(0, padding) + '"}').encode()


class Flood:
    """Reviews, replays and records to replay, sent at their paces until the fuzzer stops."""

    def __init__(self, fuzzer: Fuzzing, matches: list[str], upload: bytes) -> None:
        self.fuzzer = fuzzer
        self.matches = matches
        self.upload = upload
        self.rng = random.Random(fuzzer.args.seed)
        self.outcomes: dict[str, Counter[str]] = {kind: Counter() for kind in ("review", "replay", "upload")}

    async def run(self) -> None:
        limits = LIMITS
        await asyncio.gather(
            self.paced(limits.review_pace, limits.review_burst, lambda: self.get("review")),
            self.paced(limits.replay_pace, limits.replay_burst, lambda: self.get("replay")),
            self.paced(limits.upload_pace, limits.upload_burst, self.post),
        )

    async def paced(self, pace: float, burst: int, send: Callable[[], Awaitable[None]]) -> None:
        """``send()`` at ``OVER_PACE`` times ``pace`` a second, ``burst`` at once, each left to run."""
        bucket = Bucket(pace * OVER_PACE, burst, time.monotonic())
        while not self.fuzzer.stopping:
            if bucket.take(time.monotonic()):
                self.fuzzer.spawn(send())
            else:
                await asyncio.sleep(1 / (pace * OVER_PACE))

    def match_id(self) -> str:
        if self.rng.random() < UNKNOWN_SHARE:
            return f"Nobody{self.rng.randrange(10**6):06d}"
        return self.rng.choice(self.matches)

    async def get(self, kind: str) -> None:
        await self.ask(kind, "GET", f"/api/matches/{self.match_id()}/{kind}")

    async def post(self) -> None:
        await self.ask("upload", "POST", "/api/replay", self.upload)

    async def ask(self, kind: str, method: str, path: str, body: bytes | None = None) -> None:
        url, headers = self.fuzzer.url + path, {"Content-Type": "application/json"}
        try:
            async with self.fuzzer.http.request(method, url, data=body, headers=headers) as answer:
                status, data = answer.status, await answer.read()
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            self.outcomes[kind][f"http: {type(error).__name__}"] += 1
            return
        code = _code(data) if status >= 400 else ""
        self.outcomes[kind][f"{status} {code}".strip()] += 1
        if status >= 500 and code != "server_busy":
            self.fuzzer.http_errors[f"{method} {path.split('/')[-1] or path} -> {status} {code}"] += 1

    def report(self) -> None:
        for kind, outcomes in self.outcomes.items():
            shown = ", ".join(f"{label} {count}" for label, count in outcomes.most_common())
            print(f"  {kind}: sent {sum(outcomes.values())} ({shown or 'none'})")


def _code(data: bytes) -> str:
    try:
        error: Any = json.loads(data).get("error")
        return str(error.get("code"))
    except (ValueError, AttributeError):
        return "(no code)"
