"""No message from the server shows a player a card it may not see (RULES.md section 5), and the
server's log names no hidden card.

Complete matches are played over real Socket.IO connections against the in-process server: one or
two people who always take their first legal action (with a few refused attempts along the way),
bots in the other seats, and a spectator. Every message each client receives is kept. Once the match
is over, its record (``GET /tables/{code}/matches/1/record.json``) is replayed with the engine to learn
every seat's dealt cards, the undealt cards and the discards of every hand, and each message is
checked against what its recipient could know when it arrived.

The checks live in ``bench/leakkit/audit.py``, shared with the leak benchmark (``bench/leaks.py``),
which plays thousands of such matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# The checks are shared with the leak benchmark, bench/leaks.py.
from leakkit.audit import (
    HandFacts,
    Leak,
    cards_in,
    cards_in_text,
    check_received,
    check_reply,
    discard_from,
    facts_of,
)
from leakkit.log import LogAudit, capture_logs, local_port
from serverkit import Client, create, join, running_server

from smear.cards import CardSet
from smear.server.app import SmearServer, Timing

# Bots move at once, but a finished hand stays up long enough for every frame about it to be written
# before the next deal: the log check reads the live tables to know which cards are hidden (a frame
# sending a state or an event is checked against the cards hidden at its own version).
TIMING = Timing(bot_pause=0.005, hand_pause=0.15, grace=10.0)


def test_the_audit_reads_reactions_and_chat_lines() -> None:
    line = {"id": 1, "at": 0.0, "seat": 0, "name": "Ann", "mark": "K3QF", "text": "good luck, all"}
    fine = [("reaction", {"seat": 1, "reaction": "oops"}), ("chat", {"lines": [line]})]
    assert check_received(fine, {}, spectator=True, whole_match=False) == []
    bad = [
        ("chat", {"lines": [line | {"text": "I hold the Ah"}]}),
        ("reaction", {"seat": 1, "reaction": "oops", "hand": ["Ks"]}),
        ("chat", {"lines": [line | {"mark": "secret-of-a-profile"}]}),
    ]
    leaks = check_received(bad, {}, spectator=True, whole_match=False)
    assert [(leak.detail, sorted(leak.cards)) for leak in leaks] == [
        ("a chat message naming a card", ["Ah"]),
        ("a reaction with other fields than ['reaction', 'seat']", []),
        ("a chat line's mark", []),
    ]


def test_the_card_pattern() -> None:
    assert cards_in({"legal": ["discard 2c Th", "BJ", "bid 3", "pass", "trump h"]}) == {"2c", "Th", "BJ"}
    assert cards_in({"reason": "you cannot play Ks: you do not hold 10d"}) == {"Ks", "Td"}
    assert cards_in({"code": "x-Ah_Qs", "name": "Ah5s", "action": "discard"}) == set()
    assert cards_in({"results": ["Ah"], "trick": [[0, "LJ"]]}, frozenset({"results"})) == {"LJ"}


# --- the people at the table --------------------------------------------------------------------------


@dataclass
class Refusal:
    """A request the server refused, with what the sender held when it sent it."""

    seat: int
    hand: set[str]
    action: str
    reply: dict[str, Any]


@dataclass
class Match:
    """Everything the test clients sent and received at one table."""

    server: SmearServer
    url: str
    logs: LogAudit
    people: list[Client] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    pushed_errors: list[tuple[Client, Any]] = field(default_factory=list)

    def keep(self, client: Client) -> Client:
        """Keep the errors pushed to this client; its socket's frames in the log belong to its table."""

        async def on_error(data: Any) -> None:
            self.pushed_errors.append((client, data))

        client.sio.on("error", on_error)
        self.logs.follow(local_port(client.sio), client.table or "", lambda: client.seat)
        if client.token is not None:
            self.logs.never(client.token)
        return client

    async def act(self, client: Client, state: dict[str, Any], action: str, version: int) -> dict[str, Any]:
        game = state["game"]
        # The cards a person names in its own requests: the log's frames may echo them back.
        self.logs.note_sent(client.table or "", game["public"]["hand_number"], action)
        reply = await client.send("act", version=version, action=action)
        if not reply["ok"]:
            self.refusals.append(Refusal(game["seat"], set(game["hand"]), action, reply))
        return reply

    async def play(self, client: Client) -> None:
        """Take the first legal action whenever it is this seat's turn, until the match is over.

        A few times per match, first try what the server must refuse: a card the rules forbid now,
        a card this seat does not hold, and an action on a stale version.
        """
        probes = {"illegal": 3, "not_held": 2, "stale": 2}
        spoke: set[int] = set()  # the hands in which this seat reacted and tried the chat
        after = 0
        while True:

            def ready(state: dict[str, Any], after: int = after) -> bool:
                if state is not client.states[-1] or state["version"] < after or state["game"] is None:
                    return False
                game = state["game"]
                return game["public"]["phase"] == "match_over" or bool(game["legal"] or game["discard"])

            state = await client.wait_for(ready, timeout=30)
            game = state["game"]
            public = game["public"]
            if public["phase"] == "match_over":
                return
            version = state["version"]
            # Three reactions a match: a seat's allowance at once (hands go faster than it refills).
            if public["phase"] == "play" and public["hand_number"] not in spoke and len(spoke) < 3:
                spoke.add(public["hand_number"])
                reply = await client.send("react", reaction="well_played")
                assert reply["ok"], reply
                reply = await client.send("chat", text="nice hand, partner")
                assert reply["error"]["code"] == "chat_closed", reply
                assert not cards_in(reply), reply
            if public["phase"] == "play":
                forbidden = [card for card in game["hand"] if card not in [a["text"] for a in game["legal"]]]
                if forbidden and probes["illegal"]:
                    probes["illegal"] -= 1
                    reply = await self.act(client, state, forbidden[0], version)
                    assert reply["error"]["code"] == "illegal_action", reply
                played = [card for trick in public["tricks"] for card in trick["cards"]]
                if played and probes["not_held"]:
                    probes["not_held"] -= 1
                    reply = await self.act(client, state, played[0], version)
                    assert reply["error"]["code"] == "illegal_action", reply
            first = first_action(game)
            if probes["stale"]:
                probes["stale"] -= 1
                reply = await self.act(client, state, first, version - 1)
                assert reply["error"]["code"] == "stale_version", reply
            reply = await self.act(client, state, first, version)
            assert reply["ok"], reply
            after = reply["version"]


def first_action(game: dict[str, Any]) -> str:
    """The first legal action; for a discard too many to list, one made from its description."""
    return str(game["legal"][0]["text"]) if game["legal"] else discard_from(game["discard"])


# --- the checks ------------------------------------------------------------------------------------


def report(leaks: list[Leak]) -> str:
    return "\n".join(f"{leak}\n  in {leak.excerpt()}" for leak in leaks[:5])


def check_client(client: Client, facts: dict[int, HandFacts], spectator: bool) -> None:
    leaks = check_received(client.received, facts, spectator)
    assert not leaks, report(leaks)


def check_refusals(match: Match) -> None:
    codes: defaultdict[str, int] = defaultdict(int)
    for refusal in match.refusals:
        codes[refusal.reply["error"]["code"]] += 1
        try:
            check_reply(refusal.hand, refusal.action, refusal.reply)
        except Leak as leak:
            raise AssertionError(f"{leak}: {refusal.action} -> {refusal.reply}") from None
    assert codes["illegal_action"] and codes["stale_version"], dict(codes)
    assert not match.pushed_errors, match.pushed_errors


def check_logs(logs: LogAudit, leaks: list[Leak]) -> None:
    assert logs.lines, "nothing was logged: the capture is not working"
    assert not logs.failures, logs.failures
    leaks = leaks + logs.leaks
    assert not leaks, report(leaks)


# --- the matches ----------------------------------------------------------------------------------


def fetch_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


async def play_match(database: Path, settings: dict[str, Any], people: int) -> None:
    async with running_server(database, TIMING) as (server, url):
        with capture_logs(LogAudit(server)) as logs:
            match = Match(server, url, logs)
            host = match.keep(await create(url, "Host", target=11, **settings))
            match.people.append(host)
            for number in range(1, people):
                match.people.append(match.keep(await join(url, host.table or "", f"Guest {number}")))
            spectator = await Client(url).connect()
            spectator.table = host.table
            match.keep(spectator)
            # The spectator also watches the list of open tables, where this one shows while a seat
            # is free.
            reply = await host.send("list_table", listed=True)
            assert reply["ok"], reply
            reply = await spectator.call("open_tables", {"watch": True})
            assert [entry["table"] for entry in reply["tables"]] == [host.table], reply
            for seat in range(people, settings["players"]):
                reply = await host.send("set_bot", seat=seat, bot=True)
                assert reply["ok"], reply
            reply = await spectator.call("watch_table", {"table": host.table})
            assert reply["ok"], reply
            reply = await host.send("chat", text="good luck, all")
            assert reply["ok"], reply
            reply = await host.send("start")
            assert reply["ok"], reply
            try:
                await asyncio.gather(*(match.play(person) for person in match.people))
                await spectator.wait_for(
                    lambda s: s["game"] is not None and s["game"]["phase"] == "match_over"
                )
                record = await asyncio.to_thread(
                    fetch_json, f"{url}/tables/{host.table}/matches/1/record.json"
                )
            finally:
                for client in [*match.people, spectator]:
                    await client.close()
        facts = facts_of(record)
        # The record is the match these clients saw.
        names = record["players"]
        for number, person in enumerate(match.people):
            seat = person.states[-1]["table"]["you"]
            assert names[seat] == ("Host" if number == 0 else f"Guest {number}")
            check_client(person, facts, spectator=False)
        check_client(spectator, facts, spectator=True)
        # Everyone at the table heard the chat and the reactions, and the audit read them.
        for client in [*match.people, spectator]:
            assert [push["lines"][0]["text"] for push in client.got("chat")] == ["good luck, all"]
            assert client.got("reaction"), "no reaction reached this client"
        # Once full, the table left the list, and the spectator was told.
        assert spectator.got("open_tables")[-1] == {"tables": []}
        watched = spectator.states[-1]["game"]
        assert watched["results"] == match.people[0].states[-1]["game"]["public"]["results"]
        check_refusals(match)
        received = [client.received for client in [*match.people, spectator]]
        check_logs(logs, logs.check_table(host.table or "", facts, received))
        if settings["preset"] in ("ten_point", "mcleod", "widow", "nine_card") or settings.get("kitty"):
            assert any(any(f.discards) for f in facts.values())


MATCHES = {
    "house-3-two-people": ({"preset": "house", "players": 3, "teams": False}, 2),
    "house-4-teams": ({"preset": "house", "players": 4, "teams": True}, 1),
    "ten_point-4": ({"preset": "ten_point", "players": 4, "teams": False}, 1),
    "ten_point-6-teams": ({"preset": "ten_point", "players": 6, "teams": True}, 2),
    # The kitty: only the bidder may see the cards it takes, and its discard stays hidden.
    "five_point-4-kitty": (
        {"preset": "five_point", "players": 4, "teams": True, "kitty": True, "shoot_the_moon": True},
        2,
    ),
    # The stock goes to the bidder and refills to the others: nobody sees what another drew.
    "mcleod-4-teams": ({"preset": "mcleod", "players": 4, "teams": True}, 2),
    "widow-3": ({"preset": "widow", "players": 3, "teams": False}, 2),
    # Only trumps are played and players drop out: dead cards drawn from the stock stay hidden.
    "nine_card-4-teams": ({"preset": "nine_card", "players": 4, "teams": True}, 2),
}


@pytest.mark.parametrize("name", MATCHES)
def test_no_message_shows_a_card_its_recipient_may_not_see(tmp_path: Path, name: str) -> None:
    settings, people = MATCHES[name]
    asyncio.run(play_match(tmp_path / "smear.db", settings, people))


async def refuse_a_discard(database: Path) -> None:
    async with running_server(database, TIMING) as (server, url):
        with capture_logs(LogAudit(server)) as logs:
            match = Match(server, url, logs)
            host = match.keep(
                await create(url, "Host", preset="ten_point", players=4, teams=False, target=11)
            )
            for seat in (1, 2, 3):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            assert (await host.send("start"))["ok"]
            try:
                after = 0
                while True:  # up to the host's discard in the first hand

                    def ready(state: dict[str, Any], after: int = after) -> bool:
                        latest = state is host.states[-1] and state["version"] >= after
                        return latest and bool(state["game"] and state["game"]["legal"])

                    state = await host.wait_for(ready)
                    game = state["game"]
                    if game["public"]["phase"] == "discard":
                        break
                    reply = await match.act(host, state, game["legal"][0]["text"], state["version"])
                    assert reply["ok"], reply
                    after = reply["version"]
                discard = game["legal"][0]["text"]
                assert discard.startswith("discard ") and cards_in_text(discard) <= set(game["hand"])
                # The database fails to store it (as a full disk or a lock held too long would).
                with contextlib.closing(sqlite3.connect(database)) as db:
                    db.execute(
                        "CREATE TRIGGER refuse BEFORE INSERT ON actions WHEN NEW.action LIKE 'discard%' "
                        "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
                    )
                received = len(host.received)
                reply = await match.act(host, state, discard, state["version"])
                assert not reply["ok"] and reply["error"]["code"] == "not_stored", reply
                assert not cards_in(reply), reply
                with contextlib.closing(sqlite3.connect(database)) as db:
                    db.execute("DROP TRIGGER refuse")
                # Nothing changed and nobody heard of it: the same discard at the same version goes
                # through now.
                assert len(host.received) == received
                reply = await match.act(host, state, discard, state["version"])
                assert reply["ok"], reply
            finally:
                await host.close()
        check_logs(logs, logs.check_table(host.table or ""))


def test_a_failed_write_logs_no_hidden_card(tmp_path: Path) -> None:
    """When storing a discard fails, the server logs the failure without naming the cards."""
    asyncio.run(refuse_a_discard(tmp_path / "smear.db"))


def test_the_log_audit_finds_a_hidden_card_a_server_line_names(tmp_path: Path) -> None:
    """The audit can fail: a line naming a card of another seat's hand, written mid-hand, is a leak."""

    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", TIMING) as (server, url):
            with capture_logs(LogAudit(server)) as logs:
                host = await create(url, "Host", target=11, preset="house", players=4, teams=False)
                code = host.table or ""
                logs.follow(local_port(host.sio), code, lambda: host.seat)
                for seat in (1, 2, 3):
                    assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
                assert (await host.send("start"))["ok"]
                await host.wait_for(lambda s: s["game"] is not None and s["game"]["legal"])
                state = server.live.tables[code].state
                assert state is not None and state.public.phase.value in ("auction", "play")
                secret = str(next(iter(CardSet(state.dealt[2]))))
                logging.getLogger("smear.server").info("table %s: seat 2 holds %s", code, secret)
                await host.close()
        leaks = logs.check_table(code)
        planted = [leak for leak in leaks if "(smear.server)" in leak.detail]
        assert [leak.cards for leak in planted] == [[secret]], report(leaks)

    asyncio.run(scenario())


def test_the_log_audit_finds_a_token_or_a_chat_line_in_a_line_or_its_fields() -> None:
    """The audit reads each line as the JSON log writes it: a token in a field, or a chat line in
    the message, is a leak; the same words in the WebSocket trace (which copies requests) are not."""
    audit = LogAudit()
    audit.never("tok_9fQ2xLm0aZ")
    audit.never("see you at the barn")
    logger = logging.getLogger("smear.server")
    logger.addHandler(audit)
    try:
        logger.warning("a request failed", extra={"event": "request_failed", "token": "tok_9fQ2xLm0aZ"})
        logger.warning("they said: see you at the barn")
        logger.warning("nothing hidden here", extra={"event": "request_failed", "table": "ABCDEFGH"})
    finally:
        logger.removeHandler(audit)
    assert audit.lines == 3 and not audit.failures, audit.failures
    assert len(audit.leaks) == 2, report(audit.leaks)
    assert all("token, a secret or a chat line" in leak.detail for leak in audit.leaks)
