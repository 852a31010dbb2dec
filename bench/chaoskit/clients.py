"""The chaos benchmark's clients: a person's link to the servers (reconnecting and resuming through
each kill), the person, and one table run to its end."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Coroutine
from typing import Any

import socketio

from chaoskit.fleet import Server
from chaoskit.plan import (
    ACK_TIMEOUT,
    CONNECT_TIMEOUT,
    RETRY_PAUSE,
    STORE_ATTEMPTS,
    THINK,
    Acked,
    Resumed,
    TablePlan,
    choose_action,
    view_key,
)
from chaoskit.state import RunState


class Link:
    """One Socket.IO connection of a person; a lost one is never used again."""

    def __init__(self, person: Person, server: Server, generation: int, resuming: bool) -> None:
        self.person = person
        self.server = server
        self.life = server.life  # the life of that process it was opened to
        self.generation = generation  # the run's server lives when it was opened (see RunState)
        self.resuming = resuming  # its first state answers a resume
        self.closed = asyncio.Event()
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("state", self.on_state)
        self.sio.on("event", self.on_event)
        self.sio.on("error", self.on_error)
        self.sio.on("disconnect", self.on_disconnect)

    async def open(self) -> None:
        await self.sio.connect(self.server.url, transports=["websocket"], wait_timeout=CONNECT_TIMEOUT)

    def current(self) -> bool:
        """Whether the process life it was opened to still runs (as far as the run knows)."""
        return self.server.up and self.server.life == self.life

    def arrival_generation(self) -> int:
        """The generation a state arriving now belongs to (see :class:`RunState`)."""
        return self.person.run.generation if self.current() else self.generation

    async def on_state(self, data: dict[str, Any]) -> None:
        self.person.on_state(self, data)

    async def on_event(self, data: dict[str, Any]) -> None:
        self.person.on_event(data)

    async def on_error(self, data: Any) -> None:
        """A push: the table's owner put it aside while this socket followed it."""
        if isinstance(data, dict) and data.get("code") == "table_unavailable":
            self.person.table.put_aside()

    async def on_disconnect(self, *reason: Any) -> None:
        self.closed.set()

    def is_lost(self) -> bool:
        if not self.closed.is_set() and not self.sio.connected:
            self.closed.set()
        return self.closed.is_set()

    async def request(self, event: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """The ack, or None when the connection is lost first (nothing is then known of the request)."""
        if self.is_lost():
            return None
        call = asyncio.ensure_future(self.sio.call(event, data, timeout=ACK_TIMEOUT))
        lost = asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait({call, lost}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not call.done():
                call.cancel()
        if not call.done() or call.cancelled():  # lost first: the ack will never come
            return None
        error = call.exception()
        if error is not None:  # an ack timeout, or the connection gone before the request left
            self.person.run.tally.refusals[f"{event}: {type(error).__name__}"] += 1
            return None
        reply: dict[str, Any] = call.result()
        return reply

    async def close(self) -> None:
        self.closed.set()
        with contextlib.suppress(Exception):  # a connection being lost anyway
            await asyncio.wait_for(self.sio.disconnect(), 5.0)


class Person:
    """One person at a table: its seat's token, its current connection and what it has seen."""

    def __init__(self, run: RunState, table: TableRun, name: str) -> None:
        self.run = run
        self.table = table
        self.name = name
        self.rng = random.Random(run.rng.random())
        self.token = ""
        self.seat: int | None = None
        self.link: Link | None = None
        self.highest = -1  # the highest version seen, on any connection
        self.status = "lobby"
        self.match = 0
        # The version (and connection) of the state it last acted on, or asked to play again on: a
        # state of that version again on another connection is acted on again (the request may never
        # have left; if it went through, the owner refuses the second).
        self.acted_version = -1
        self.acted_link: Link | None = None
        self.again_version = -1
        self.again_link: Link | None = None
        self.last_seen: tuple[int, bytes] | None = None  # (match, view) of the latest view
        self.latest: dict[str, Any] | None = None  # the latest state, to say where a stuck table is
        self.last_acked: dict[int, bytes] = {}  # per match: the view of its latest acknowledged action
        self.retired = False  # its table finished and the restarted server no longer has it
        self.last_request = "none"  # how its latest act or play_again was answered

    # --- receiving -----------------------------------------------------------------------------------

    def on_event(self, data: dict[str, Any]) -> None:
        version = data["version"]
        if version <= self.highest:  # every version has one event, sent with or before its state
            self.run.tally.backwards.append(
                f"{self.table.code} {self.name}: event of version {version} after version {self.highest}"
            )
        self.highest = max(self.highest, version)
        self.table.saw(version)

    def on_state(self, link: Link, data: dict[str, Any]) -> None:
        tally = self.run.tally
        version = data["version"]
        if data.get("event") is not None:  # the change that made this version, sent with its state
            self.on_event({"version": version, "event": data["event"]})
        if version < self.highest:
            tally.backwards.append(
                f"{self.table.code} {self.name}: state of version {version} after version {self.highest}"
                + (" (first after resume)" if link.resuming else "")
            )
        self.highest = max(self.highest, version)
        self.table.saw(version)
        self.latest = data
        info, game = data["table"], data["game"]
        if info["you"] is not None:  # with teams, every start reseats everyone
            self.seat = info["you"]
        self.status, self.match = info["status"], info["match_number"]
        key = None
        if game is not None:
            key = view_key(game)
            tally.seen[(self.table.code, self.match, game["seat"])].add(key)
        # A full state outside a resume: the table's owner died and another process took it over.
        takeover = bool(data.get("resync")) and not link.resuming
        tally.takeovers += takeover
        if link.resuming or takeover:  # the view must not be behind what this client saw or had acked
            link.resuming = False
            if key is not None:
                before = self.last_seen[1] if self.last_seen and self.last_seen[0] == self.match else None
                acked = self.last_acked.get(self.match)
                tally.resumed.append(Resumed(self.table.code, self.match, game["seat"], key, acked, before))
        if key is not None:
            self.last_seen = (self.match, key)
        if self.status == "finished":
            self.table.finished(self.match, link.arrival_generation())
        self.decide(link, data, key)

    def decide(self, link: Link, data: dict[str, Any], key: bytes | None) -> None:
        if self.run.stopping.is_set() or self.table.aside:
            return
        version, info, game = data["version"], data["table"], data["game"]
        if info["status"] == "finished":
            again = version > self.again_version or (
                version == self.again_version and link is not self.again_link
            )
            if info["host"] == self.seat and again and self.run.more_matches(link.arrival_generation()):
                self.again_version, self.again_link = version, link
                self.run.spawn(self.play_again(link, version, info["match_number"]))
            return
        if game is None or key is None or game["public"]["to_act"] != game["seat"]:
            return
        if version < self.acted_version or (version == self.acted_version and link is self.acted_link):
            return
        if not (game["legal"] or game["discard"]):
            return
        self.acted_version, self.acted_link = version, link
        self.run.spawn(self.act(link, version, info["match_number"], game, key))

    def where(self) -> str:
        """Where this person is, as the latest state it received shows it."""
        link = "none" if self.link is None else "lost" if self.link.is_lost() else "open"
        if self.link is not None and self.run.fleet.several:
            link += f" to server {self.link.server.index} (life {self.link.life})"
        text = f"{self.name} seat {self.seat}, connection {link}, acted at version {self.acted_version}"
        text += f" (last request: {self.last_request})"
        if self.latest is None:
            return f"{text}, no state"
        info, game = self.latest["table"], self.latest["game"]
        text += f"; latest state: version {self.latest['version']}, {info['status']}"
        text += ", connected " + "".join("y" if s["connected"] else "n" for s in info["seats"])
        if game is not None:
            public = game["public"]
            text += f", hand {public['hand_number']} {public['phase']}, to act {public['to_act']}"
            text += f", legal {game['legal'][:6]}, discard {game['discard']}"
        return text

    # --- acting --------------------------------------------------------------------------------------

    async def act(self, link: Link, version: int, match: int, game: dict[str, Any], key: bytes) -> None:
        await asyncio.sleep(self.rng.uniform(*THINK))
        if link.is_lost() or self.run.stopping.is_set():
            return
        action = choose_action(game, self.rng)
        if not game["legal"]:
            self.run.tally.built_discards += 1
        payload = {"table": self.table.code, "token": self.token, "version": version, "action": action}
        reply = await self.request(link, "act", payload, version)
        if reply is not None and reply.get("ok"):
            self.run.tally.acked.append(Acked(self.table.code, match, game["seat"], action, key))
            self.last_acked[match] = key

    async def play_again(self, link: Link, version: int, match: int) -> None:
        # At once: the server does not bring back a finished table after a restart.
        payload = {"table": self.table.code, "token": self.token}
        reply = await self.request(link, "play_again", payload, version)
        if reply is not None and reply.get("ok"):
            self.run.tally.matches_started.append((self.table.code, match + 1))

    async def request(
        self, link: Link, event: str, payload: dict[str, Any], version: int
    ) -> dict[str, Any] | None:
        """Send a request decided on the state of ``version``; one answered ``not_stored`` (nothing
        changed: storage failed, or the table's owner died before answering) is sent again, while no
        newer state has come and the connection lasts. Refusals are counted."""
        pause = RETRY_PAUSE[0]
        for attempt in range(1, STORE_ATTEMPTS + 1):
            reply = await link.request(event, payload)
            answer = "no answer" if reply is None else "ok" if reply.get("ok") else "?"
            self.last_request = f"{event} at version {version}, attempt {attempt}: {answer}"
            if reply is None or reply.get("ok"):
                return reply
            code = self.run.refused(event, reply)
            self.last_request = self.last_request.removesuffix("?") + code
            if code != "not_stored":
                return reply
            await asyncio.sleep(pause)
            pause = min(2 * pause, RETRY_PAUSE[1])
            if link.is_lost() or self.run.stopping.is_set() or self.highest > version:
                return reply  # a newer state decides what to send next
        return reply

    # --- staying connected ---------------------------------------------------------------------------

    async def connect(self, resuming: bool) -> Link:
        """A new connection to a server process that is up, chosen at random, made the current one
        (raises if none is up or it does not take the connection)."""
        if self.link is not None:
            await self.link.close()
        server = self.run.fleet.pick()
        if server is None:
            raise ConnectionError("no server is up")
        link = self.link = Link(self, server, self.run.generation, resuming)
        try:
            await link.open()
        except BaseException:
            await link.close()
            raise
        return link

    async def live(self) -> None:
        """Keep a connection to the table until the run stops, resuming after every loss."""
        run = self.run
        while not run.stopping.is_set() and not self.retired and not self.table.aside:
            link = self.link
            if link is None or link.is_lost():
                await self.resume()
                continue
            with contextlib.suppress(TimeoutError):  # also look at the socket now and then
                await asyncio.wait_for(first_of(link.closed.wait(), run.stopping.wait()), 1.0)

    async def resume(self) -> None:
        run = self.run
        pause = RETRY_PAUSE[0]
        while not run.stopping.is_set():
            await run.fleet.up.wait()
            try:
                link = await self.connect(resuming=True)
            except Exception:
                await asyncio.sleep(pause)
                pause = min(2 * pause, RETRY_PAUSE[1])
                continue
            payload = {"table": self.table.code, "token": self.token, "version": max(self.highest, 0)}
            reply = await link.request("resume", payload)
            if reply is not None and reply.get("ok"):
                run.tally.reconnects += 1
                return
            if reply is not None:
                code = run.refused("resume", reply)
                if code == "table_unavailable":  # put aside: nothing more to play there
                    self.table.put_aside()
                    await link.close()
                    return
                if code == "no_such_table" and await run.match_recorded(self.table.code, self.match):
                    # Finished before the kill: a restarted server keeps only unfinished tables.
                    self.retired = True
                    self.table.retire()
                    await link.close()
                    return
            await link.close()
            await asyncio.sleep(pause)
            pause = min(2 * pause, RETRY_PAUSE[1])


class TableRun:
    """One table: its plan, its people, and how far the clients have seen it go."""

    def __init__(self, run: RunState, index: int, plan: TablePlan) -> None:
        self.run = run
        self.index = index
        self.plan = plan
        self.code = ""
        self.people = [Person(run, self, f"P{index}-{n}") for n in range(plan.people)]
        self.highest = -1
        self.last_progress = time.monotonic()
        self.done = False  # every person sees the match finished after the last kill, retired, or aside
        self.retired = False
        self.aside = False  # the server put it aside (quarantined): its people are told so
        self.stuck = False
        self.matches_finished: set[int] = set()
        self.final_match: int | None = None  # the match a client saw finish after the last kill

    def saw(self, version: int) -> None:
        if version > self.highest:
            self.highest = version
            self.last_progress = time.monotonic()

    def finished(self, match: int, generation: int) -> None:
        """A person saw ``match`` finished. The table is done once a client saw a match finish after
        the last kill and every person's latest state shows it finished: a socket that stopped
        getting the table's states (on a process that took the table over, say) leaves it stuck."""
        self.matches_finished.add(match)
        if generation > self.run.kills and self.final_match is None:
            self.final_match = match
            self.run.say(
                f"table {self.index} ({self.plan.preset}) finished match {match} after the last kill"
            )
        if self.final_match is not None and not self.done:
            self.done = all(
                person.status == "finished" and person.match == self.final_match for person in self.people
            )

    def retire(self) -> None:
        self.retired = self.done = True

    def put_aside(self) -> None:
        if not self.aside:
            self.aside = self.done = True
            self.run.say(f"table {self.index} ({self.code}) is put aside: its people are told so")

    async def open(self) -> None:
        """Connect every person, create the table, fill it with people and bots, and start."""
        host, *guests = self.people
        await host.connect(resuming=False)
        reply = await self.ask(host, "create_table", self.plan.create_payload(host.name))
        self.code, host.token, host.seat = reply["table"], reply["token"], reply["seat"]
        for guest in guests:
            await guest.connect(resuming=False)
            reply = await self.ask(guest, "join_table", {"table": self.code, "name": guest.name})
            guest.token, guest.seat = reply["token"], reply["seat"]
        for seat in range(len(self.people), self.plan.players):
            await self.ask(
                host, "set_bot", {"table": self.code, "token": host.token, "seat": seat, "bot": True}
            )
        await self.ask(host, "start", {"table": self.code, "token": host.token})

    async def ask(self, person: Person, event: str, data: dict[str, Any]) -> dict[str, Any]:
        assert person.link is not None
        reply = await person.link.request(event, data)
        if reply is None or not reply.get("ok"):
            raise RuntimeError(f"table {self.index} ({self.plan.describe()}): {event} refused: {reply}")
        return reply


async def first_of(*waits: Coroutine[Any, Any, Any]) -> None:
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
