"""The people of the leak benchmark's matches: each person's connections and requests, the move it
chooses, and one match played from the lobby to its end."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from leakkit.audit import HandFacts, Leak, cards_in, check_received, check_reply, discard_from, facts_of
from leakkit.client import HarnessError, Socket
from leakkit.plan import MatchSpec
from leakkit.worker import Worker


def over(state: dict[str, Any]) -> bool:
    game = state["game"]
    return game is not None and game.get("public", game)["phase"] == "match_over"


class Person:
    """A person at the table: its connections (one, or two after a resume) and its requests."""

    def __init__(self, run: MatchRun, name: str) -> None:
        self.run = run
        self.name = name
        self.sockets: list[Socket] = []
        self.token = ""

    @property
    def socket(self) -> Socket:
        return self.sockets[-1]

    def received(self) -> list[tuple[str, Any]]:
        return [message for socket in self.sockets for message in socket.received]

    async def request(
        self, event: str, data: dict[str, Any], hand: Sequence[str] = (), text: str = ""
    ) -> dict[str, Any]:
        """A request with this person's table and token; its acknowledgement is checked."""
        payload = {"table": self.run.code, "token": self.token, **data}
        return await self.run.call(self.socket, event, payload, f"{self.name}'s {event}", hand, text)

    async def act(self, state: dict[str, Any], action: str, version: int) -> dict[str, Any]:
        game = state["game"]
        self.run.worker.audit.note_sent(self.run.code, game["public"]["hand_number"], action)
        data = {"version": version, "action": action}
        while True:
            reply = await self.request("act", data, game["hand"], action)
            if reply["ok"] or reply["error"]["code"] != "rate_limited":
                return reply
            self.run.worker.counts["rate_limited"] += 1
            await asyncio.sleep(0.2)

    async def play(self) -> None:
        """Act whenever it is this seat's turn, at once, until the match is over."""
        run = self.run
        rng = run.rng
        probes = {"illegal": rng.randint(0, 2), "not_held": rng.randint(0, 1), "stale": rng.randint(0, 1)}
        hints = run.spec.hints if self is run.people[0] else 0
        http_after = rng.randint(1, 6) if self is run.people[0] else None
        resume_after = run.spec.resume_after if self is run.people[-1] else None
        after = 0
        done = 0
        while True:

            def ready(state: dict[str, Any], after: int = after) -> bool:
                if state["version"] < after or state["game"] is None:
                    return False
                game = state["game"]
                return game["public"]["phase"] == "match_over" or bool(game["legal"] or game["discard"])

            state = await self.socket.wait_for(ready)
            game = state["game"]
            public = game["public"]
            if public["phase"] == "match_over":
                return
            version = state["version"]
            if hints and rng.random() < 0.3:
                hints -= 1
                reply = await self.request("hint", {}, game["hand"])
                run.worker.counts["hint " + ("ok" if reply["ok"] else reply["error"]["code"])] += 1
            if public["phase"] == "play":
                forbidden = [card for card in game["hand"] if card not in [a["text"] for a in game["legal"]]]
                if forbidden and probes["illegal"]:
                    probes["illegal"] -= 1
                    await self.probe(state, rng.choice(forbidden), version, "illegal_action")
                played = [card for trick in public["tricks"] for card in trick["cards"]]
                if played and probes["not_held"]:
                    probes["not_held"] -= 1
                    await self.probe(state, rng.choice(played), version, "illegal_action")
            action = choose(game, rng)
            if probes["stale"] and version > 1:
                probes["stale"] -= 1
                await self.probe(state, action, version - 1, "stale_version")
            reply = await self.act(state, action, version)
            if not reply["ok"]:
                code = reply["error"]["code"]
                if code not in ("stale_version", "not_your_turn"):
                    raise HarnessError(f"{self.name}'s {action!r} was refused: {reply['error']}")
                run.worker.counts[f"act refused: {code}"] += 1  # the table moved on meanwhile
                after = version + 1
                continue
            after = reply["version"]
            done += 1
            if done == http_after:
                await run.http_while_playing()
            if done == resume_after:
                await self.reconnect(rng.uniform(0.0, 0.3))

    async def probe(self, state: dict[str, Any], action: str, version: int, expected: str) -> None:
        reply = await self.act(state, action, version)
        code = "ok" if reply["ok"] else reply["error"]["code"]
        self.run.worker.counts[f"probe {expected}"] += 1
        if code != expected:
            raise HarnessError(f"{self.name}'s {action!r} at version {version}: {code}, not {expected}")

    async def reconnect(self, pause: float) -> None:
        """Drop the connection, wait, and take the seat back with ``resume``."""
        old = self.socket
        version = old.last_state()["version"]
        await old.close()
        await asyncio.sleep(pause)
        self.sockets.append(await self.run.socket().connect(self.run.code))
        reply = await self.request("resume", {"version": version})
        if not reply["ok"]:
            raise HarnessError(f"resume refused: {reply['error']}")
        self.run.worker.counts["resumed"] += 1


def choose(game: dict[str, Any], rng: random.Random) -> str:
    """A random legal action: in the auction mostly a pass, else the lowest bid, so that the bots'
    bids end the match sooner and a random player's own are made as often as set; a discard too
    many to list is made from its description."""
    legal: list[str] = [action["text"] for action in game["legal"]]
    if "pass" in legal and rng.random() < 0.75:
        return "pass"
    bids = [action for action in legal if action.startswith("bid ")]
    if bids:
        return min(bids, key=lambda bid: int(bid.split()[1]))
    if legal:
        return str(rng.choice(legal))
    return discard_from(game["discard"], rng.sample)


@dataclass
class MatchRun:
    """One match being played: its clients, and the leaks found in its acknowledgements."""

    worker: Worker
    spec: MatchSpec
    rng: random.Random
    code: str = ""
    people: list[Person] = field(default_factory=list)
    watchers: list[Socket] = field(default_factory=list)
    late: list[Socket] = field(default_factory=list)
    leaks: list[Leak] = field(default_factory=list)
    publics: dict[str, Any] = field(default_factory=dict)  # see read_state
    messages: int = 0  # acknowledgements and HTTP responses checked
    record: dict[str, Any] | None = None

    async def call(
        self, socket: Socket, event: str, payload: dict[str, Any], who: str, hand: Sequence[str], text: str
    ) -> dict[str, Any]:
        reply = await socket.call(event, payload)
        self.messages += 1
        try:
            check_reply(hand, text, reply)
        except Leak as leak:
            leak.where, leak.message = f"{who} ({text or event})", reply
            self.leaks.append(leak)
        return reply

    async def http(self, path: str) -> tuple[int, Any]:
        async with self.worker.http.get(self.worker.url + path) as response:
            body = await response.json(content_type=None)
            self.messages += 1
            return response.status, body

    async def http_while_playing(self) -> None:
        """The record of a match in play does not exist yet; ``/health`` names no card."""
        for path in (
            f"/tables/{self.code}/matches/1/record.json",
            f"/tables/{self.code}/matches/2/record.json",
        ):
            status, body = await self.http(path)
            if status == 200 and path.endswith("/1/record.json"):
                self.record = body  # the match ended meanwhile: it must be the whole record
                continue
            named = cards_in(body)
            if status != 404 or named:
                self.leaks.append(Leak(f"GET answered {status} while playing", named, f"GET {path}", body))
        status, body = await self.http("/health")
        named = cards_in(body)
        if status != 200 or named:
            self.leaks.append(Leak(f"GET /health answered {status}", named, "GET /health", body))

    async def play(self) -> None:
        spec = self.spec
        host = Person(self, "Host")
        self.people.append(host)
        host.sockets.append(await self.socket().connect())
        settings = {"name": "Host", **spec.settings}
        reply = await self.call(host.socket, "create_table", settings, "Host", (), "")
        if not reply["ok"]:
            raise HarnessError(f"create_table refused: {reply['error']}")
        self.code, host.token = reply["table"], reply["token"]
        self.worker.audit.never(host.token)
        self.worker.audit.follow(host.socket.port, self.code, host.socket.seat)
        for number in range(1, spec.people):
            guest = Person(self, f"Guest {number}")
            guest.sockets.append(await self.socket().connect(self.code))
            reply = await self.call(
                guest.socket, "join_table", {"table": self.code, "name": guest.name}, "", (), ""
            )
            if not reply["ok"]:
                raise HarnessError(f"join_table refused: {reply['error']}")
            guest.token = reply["token"]
            self.worker.audit.never(guest.token)
            self.people.append(guest)
        for seat in range(spec.people, spec.settings["players"]):
            reply = await host.request("set_bot", {"seat": seat, "bot": True})
            if not reply["ok"]:
                raise HarnessError(f"set_bot refused: {reply['error']}")
        self.watchers.append(await self.watch())
        reply = await host.request("start", {})
        if not reply["ok"]:
            raise HarnessError(f"start refused: {reply['error']}")
        tasks = [person.play() for person in self.people]
        if spec.late_watch is not None:
            tasks.append(self.watch_late(spec.late_watch))
        await asyncio.gather(*tasks)
        for watcher in self.watchers:
            await watcher.wait_for(over)
        status, body = await self.http(f"/tables/{self.code}/matches/1/record.json")
        if status != 200:
            raise HarnessError(f"the record of a finished match: {status}")
        if self.record is not None and self.record != body:
            self.leaks.append(Leak("a record given while playing is not the match's", (), "GET record"))
        self.record = body

    def socket(self) -> Socket:
        """A new socket of this match, its frames traced if the match is."""
        return Socket(self.worker, self.spec.traced, self.publics)

    async def watch(self) -> Socket:
        socket = await self.socket().connect(self.code)
        reply = await self.call(socket, "watch_table", {"table": self.code}, "spectator", (), "")
        if not reply["ok"]:
            raise HarnessError(f"watch_table refused: {reply['error']}")
        return socket

    async def watch_late(self, pause: float) -> None:
        await asyncio.sleep(pause)
        socket = await self.watch()
        self.late.append(socket)
        await socket.wait_for(over)

    def latest_versions(self) -> str:
        """The version of the latest state each of this match's sockets got (to tell who missed one)."""
        named = [(person.name, socket) for person in self.people for socket in person.sockets]
        named += [(f"watcher {n}", socket) for n, socket in enumerate(self.watchers + self.late)]
        seen = [f"{name} {(socket.state() or {}).get('version', '-')}" for name, socket in named]
        return "latest versions seen: " + ", ".join(seen)

    def sockets(self) -> list[Socket]:
        return [s for person in self.people for s in person.sockets] + self.watchers + self.late

    async def close(self) -> None:
        for socket in self.sockets():
            await socket.close()

    def release(self) -> None:
        """Let go of every message kept: a client and its handlers hold each other, so without this
        they would wait for the garbage collector's next full pass."""
        for socket in self.sockets():
            socket.received.clear()
            socket.latest = None
        self.publics.clear()
        self.record = None

    def check(self) -> tuple[int, list[Leak]]:
        """Every message received, against the record; returns the messages checked and the leaks."""
        assert self.record is not None
        facts: dict[int, HandFacts] = facts_of(self.record)
        leaks = list(self.leaks)
        messages = self.messages
        streams: list[list[tuple[str, Any]]] = []
        for person in self.people:
            received = person.received()
            streams.append(received)
            leaks += check_received(received, facts, spectator=False, who=person.name)
        for number, socket in enumerate(self.watchers + self.late):
            late = number >= len(self.watchers)  # it came midway
            streams.append(socket.received)
            who = f"watcher {number}{' (late)' if late else ''}"
            leaks += check_received(socket.received, facts, spectator=True, who=who, whole_match=not late)
        messages += sum(len(stream) for stream in streams)
        leaks += self.worker.audit.check_table(self.code, facts, streams)
        # The record is the match these clients saw.
        names = self.record["players"]
        for person in self.people:
            seat = person.socket.last_state()["table"]["you"]
            if names[seat] != person.name:
                leaks.append(Leak(f"the record seats {names[seat]} where {person.name} sat", (), person.name))
        return messages, leaks
