"""No message from the server shows a player a card it may not see (RULES.md section 5), and the
server's log names no hidden card.

Complete matches are played over real Socket.IO connections against the in-process server: one or
two people who always take their first legal action (with a few refused attempts along the way),
bots in the other seats, and a spectator. Every message each client receives is kept. Once the match
is over, its record (``GET /tables/{code}/matches/1/record.json``) is replayed with the engine to learn
every seat's dealt cards, the undealt cards and the discards of every hand, and each message is
checked against what its recipient could know when it arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sqlite3
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, create, join, running_server

from smear import CardSet, Deal, Discard, Phase, Play, apply, new_match, next_hand, parse_action, parse_card
from smear.record import parse_record, replay
from smear.server.app import SmearServer, Timing

# Bots move at once, but a finished hand stays up long enough for every frame about it to be written
# before the next deal: the log check reads the live tables to know which cards are hidden.
TIMING = Timing(bot_pause=0.005, hand_pause=0.15, grace=10.0)

# A card in record notation, as a whole word: "Ah", "Td", "10d", "BJ", "LJ" (also inside "Ks:" or
# "discard 2c 3d"), but not inside a longer word such as a table code.
CARD = re.compile(r"(?<![A-Za-z0-9_-])(?:(?:10|[2-9TJQKA])[cdhs]|BJ|LJ)(?![A-Za-z0-9_-])")

OVER = ("hand_over", "match_over")


def cards_in_text(text: str) -> set[str]:
    return {str(parse_card(word)) for word in CARD.findall(text)}


def cards_in(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card named anywhere in a JSON value (keys and strings), leaving out the keys in ``skip``."""
    found: set[str] = set()
    if isinstance(value, str):
        found |= cards_in_text(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= cards_in_text(key)
            if key not in skip:
                found |= cards_in(item, skip)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item, skip)
    return found


def test_the_card_pattern() -> None:
    assert cards_in({"legal": ["discard 2c Th", "BJ", "bid 3", "pass", "trump h"]}) == {"2c", "Th", "BJ"}
    assert cards_in({"reason": "you cannot play Ks: you do not hold 10d"}) == {"Ks", "Td"}
    assert cards_in({"code": "x-Ah_Qs", "name": "Ah5s", "action": "discard"}) == set()
    assert cards_in({"results": ["Ah"], "trick": [[0, "LJ"]]}, frozenset({"results"})) == {"LJ"}


# --- what the record says about every hand ------------------------------------------------------------


@dataclass
class HandFacts:
    """One hand as the match record has it: who was dealt what, the undealt cards, who played what."""

    deal: list[set[str]]
    out: set[str]  # the undealt cards nobody took
    plays: list[tuple[int, str]] = field(default_factory=list)  # in order
    discards: list[set[str]] = field(default_factory=list)
    # Undealt cards each seat drew (a kitty, widow or stock for the bidder; a refill), for it alone.
    drew: list[set[str]] = field(default_factory=list)
    bidder: int | None = None


def facts_of(record: dict[str, Any]) -> dict[int, HandFacts]:
    """Replay the record hand by hand with the engine, noting each action's seat."""
    parsed = parse_record(record)
    assert replay(parsed).state.public.phase is Phase.MATCH_OVER
    players = len(parsed.players)
    facts: dict[int, HandFacts] = {}
    state = None
    for number, hand in enumerate(parsed.hands, 1):
        deal = Deal(hand.deal, hand.out)
        if state is None:
            state = new_match(parsed.rules, players, parsed.teams, dealer=hand.dealer, deal=deal)
        else:
            state = next_hand(state, deal)
        fact = HandFacts(
            deal=[{str(card) for card in cards} for cards in hand.deal],
            out={str(card) for card in state.out},
            discards=[set() for _ in range(players)],
            drew=[set() for _ in range(players)],
        )
        for text in hand.actions:
            seat = state.public.to_act
            assert seat is not None
            action = parse_action(text)
            if isinstance(action, Play):
                fact.plays.append((seat, str(action.card)))
            elif isinstance(action, Discard):
                fact.discards[seat] |= {str(card) for card in action.cards}
            before = state.hands
            state = apply(state, action)
            for who, (old, new) in enumerate(zip(before, state.hands, strict=True)):
                fact.drew[who] |= {str(card) for card in CardSet(new & ~old)}
        for cards in fact.drew:
            fact.out -= cards
        fact.bidder = state.public.bidder
        facts[number] = fact
    return facts


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
    people: list[Client] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    pushed_errors: list[tuple[Client, Any]] = field(default_factory=list)
    # cards each person named in its own requests, by (table, hand): the server may echo them back
    sent: defaultdict[tuple[str, int], set[str]] = field(default_factory=lambda: defaultdict(set))

    def keep_errors(self, client: Client) -> Client:
        async def on_error(data: Any) -> None:
            self.pushed_errors.append((client, data))

        client.sio.on("error", on_error)
        return client

    async def act(self, client: Client, state: dict[str, Any], action: str, version: int) -> dict[str, Any]:
        game = state["game"]
        self.sent[client.table or "", game["public"]["hand_number"]] |= cards_in_text(action)
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
            if public["phase"] == "play":
                forbidden = [card for card in game["hand"] if card not in game["legal"]]
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


# --- the server's log ---------------------------------------------------------------------------------


class LogCapture(logging.Handler):
    """Keeps the server's log records, each with the cards hidden at the moment it was written.

    The one exception is the DEBUG trace of raw WebSocket frames (the ``websockets`` library logs
    through uvicorn's logger): it echoes the text of each request, so it may name the cards a person
    itself put in a request (its own discard, a card it tried to play). Every other line may name no
    hidden card at all.
    """

    def __init__(self, match: Match) -> None:
        super().__init__(logging.DEBUG)
        self.match = match
        self.records: list[tuple[str, str, set[str]]] = []
        self.failures: list[str] = []

    def hidden_now(self, frame: bool) -> set[str]:
        """The cards of every hand in play that nobody may see yet."""
        hidden: set[str] = set()
        for table in self.match.server.tables.values():
            state = table.state
            if state is None or state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
                continue
            pub = state.public
            cards = {str(card) for card in state.out}
            for mask in state.dealt:
                cards |= {str(card) for card in CardSet(mask)}
            public = {str(card) for card in [*pub.trick, *(c for trick in pub.tricks for c in trick.cards)]}
            hidden |= cards - public
            if frame:
                hidden -= self.match.sent[table.code, pub.hand_number]
        return hidden

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.endswith(".client"):  # the test's own Socket.IO clients
            return
        try:  # never let the check break the logging call in the server
            text = record.getMessage()
            if record.exc_info:
                text += "\n" + logging.Formatter().formatException(record.exc_info)
            frame = "websockets" in Path(record.pathname).parts
            self.records.append((record.name, text, self.hidden_now(frame)))
        except Exception as err:
            self.failures.append(repr(err))


LOGGERS = ("", "uvicorn", "uvicorn.access")  # uvicorn's own loggers do not propagate to the root
DEBUG_LOGGERS = ("smear", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


@contextlib.contextmanager
def capture_logs(match: Match) -> Iterator[LogCapture]:
    """Every server logger at DEBUG into a :class:`LogCapture` (uvicorn's own handlers kept quiet)."""
    handler = LogCapture(match)
    saved: list[tuple[logging.Logger | logging.Handler, int]] = []

    def set_level(thing: logging.Logger | logging.Handler, level: int) -> None:
        saved.append((thing, thing.level))
        thing.setLevel(level)

    for name in DEBUG_LOGGERS:
        set_level(logging.getLogger(name), logging.DEBUG)
    for name in LOGGERS[1:]:
        for other in logging.getLogger(name).handlers:
            set_level(other, logging.WARNING)
    for name in LOGGERS:
        logging.getLogger(name).addHandler(handler)
    try:
        yield handler
    finally:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(handler)
        for thing, level in reversed(saved):
            thing.setLevel(level)


def check_logs(capture: LogCapture) -> None:
    assert capture.records, "nothing was logged: the capture is not working"
    assert not capture.failures, capture.failures
    for name, text, hidden in capture.records:
        leaked = cards_in_text(text) & hidden
        lines = [line for line in text.splitlines() if cards_in_text(line) & leaked]
        assert not leaked, f"the log ({name}) names hidden cards {sorted(leaked)}: {lines}"


# --- checking what each client received --------------------------------------------------------------


def played_in(public: dict[str, Any]) -> list[str]:
    cards = [card for trick in public["tricks"] for card in trick["cards"]]
    return cards + [card for _, card in public["trick"]]


def check_results(public: dict[str, Any], facts: dict[int, HandFacts], where: str) -> None:
    """Results show only finished hands, and show them as they were."""
    number = public["hand_number"]
    results = public["results"]
    assert [r["number"] for r in results] == list(range(1, len(results) + 1)), where
    finished = number if public["phase"] in OVER else number - 1
    assert len(results) == finished, f"{where}: results of hands 1..{len(results)} during hand {number}"
    for result in results:
        fact = facts[result["number"]]
        assert set(result["out"]) == fact.out, where
        assert [set(cards) for cards in result["discards"]] == fact.discards, where


def check_state(
    message: dict[str, Any], seat: int | None, facts: dict[int, HandFacts], where: str
) -> int | None:
    """Check one ``state``; returns the hand it shows (None in the lobby)."""
    game = message["game"]
    assert message["table"]["you"] == seat, where
    if game is None:
        assert not cards_in(message), where
        return None
    if seat is None:
        assert not {"seat", "hand", "discards", "legal"} & game.keys(), f"{where}: a spectator's own cards"
        public = game
    else:
        assert game["seat"] == seat, where
        public = game["public"]
    number = public["hand_number"]
    fact = facts[number]
    check_results(public, facts, where)
    # The cards on the table are the hand's first plays, in order.
    played = played_in(public)
    assert played == [card for _, card in fact.plays[: len(played)]], where
    allowed = set(played)
    if seat is not None:
        own = fact.deal[seat] | fact.drew[seat]
        assert set(game["hand"]) <= own, where
        if public["phase"] == "auction":
            assert set(game["hand"]) == fact.deal[seat], f"{where}: not the cards the record deals to {seat}"
        assert set(game["discards"]) <= fact.discards[seat], where
        allowed |= own
    leaked = cards_in(message, skip=frozenset({"results"})) - allowed
    assert not leaked, f"{where}: hand {number} shows {sorted(leaked)} to seat {seat} ({public['phase']})"
    return int(number)


def check_event(
    message: dict[str, Any], seat: int | None, hand: int | None, facts: dict[int, HandFacts], where: str
) -> None:
    event = message["event"]
    named = cards_in(message)
    if event.get("kind") != "action":
        assert not named, f"{where}: {event}"
        return
    assert hand is not None, where
    fact = facts[hand]
    if event["action"] == "discard":
        assert set(event) == {"kind", "seat", "action", "count"}, where
        assert event["count"] == len(fact.discards[event["seat"]]), where
        assert not named, where
        return
    action = parse_action(event["action"])
    public_card: set[str] = set()
    if isinstance(action, Play):
        public_card = {str(action.card)}
        assert (event["seat"], str(action.card)) in fact.plays, f"{where}: {event} was not played"
    assert named <= public_card, f"{where}: {event}"


def check_received(client: Client, facts: dict[int, HandFacts], spectator: bool) -> None:
    seat: int | None = None
    playing_seat: int | None = None  # the seat once the match has started (teams redraw seats)
    hand: int | None = None
    checked = 0
    for index, (kind, message) in enumerate(client.received):
        where = f"{'spectator' if spectator else f'seat {seat}'}, message {index} ({kind})"
        if kind == "state":
            if not spectator:
                seat = message["table"]["you"]
                assert seat is not None, where
                if message["game"] is not None:
                    playing_seat = seat if playing_seat is None else playing_seat
                    assert seat == playing_seat, f"{where}: the seat changed during the match"
            hand = check_state(message, seat, facts, where)
            checked += message["game"] is not None
        else:
            if message["event"].get("kind") == "deal":
                hand = message["event"]["hand"]
            check_event(message, seat, hand, facts, where)
    assert checked > len(facts), "too few states were received to be a check"


def check_refusals(match: Match) -> None:
    codes: defaultdict[str, int] = defaultdict(int)
    for refusal in match.refusals:
        error = refusal.reply["error"]
        codes[error["code"]] += 1
        named = cards_in(error)
        assert named <= refusal.hand | cards_in_text(refusal.action), (refusal.action, error)
        if error["code"] == "illegal_action" and error["args"].get("reason_code") != "not_in_hand":
            assert named <= refusal.hand, (refusal.action, error)
    assert codes["illegal_action"] and codes["stale_version"], dict(codes)
    assert not match.pushed_errors, match.pushed_errors


# --- the matches ----------------------------------------------------------------------------------


def fetch_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


async def play_match(database: Path, settings: dict[str, Any], people: int) -> None:
    async with running_server(database, TIMING) as (server, url):
        match = Match(server, url)
        with capture_logs(match) as logs:
            host = match.keep_errors(await create(url, "Host", target=11, **settings))
            match.people.append(host)
            for number in range(1, people):
                match.people.append(match.keep_errors(await join(url, host.table or "", f"Guest {number}")))
            for seat in range(people, settings["players"]):
                reply = await host.send("set_bot", seat=seat, bot=True)
                assert reply["ok"], reply
            spectator = match.keep_errors(await Client(url).connect())
            reply = await spectator.call("watch_table", {"table": host.table})
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
            check_received(person, facts, spectator=False)
        check_received(spectator, facts, spectator=True)
        watched = spectator.states[-1]["game"]
        assert watched["results"] == match.people[0].states[-1]["game"]["public"]["results"]
        check_refusals(match)
        check_logs(logs)
        if settings["preset"] in ("ten_point", "mcleod", "widow", "nine_card") or settings.get("kitty"):
            assert any(any(f.discards) for f in facts.values())


def first_action(game: dict[str, Any]) -> str:
    """The first legal action; for a discard too many to list, one made from its description."""
    if game["legal"]:
        return str(game["legal"][0])
    spec = game["discard"]
    free = spec["count"] - len(spec["required"])
    return "discard " + " ".join([*spec["required"], *spec["choosable"][:free]])


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
        match = Match(server, url)
        with capture_logs(match) as logs:
            host = await create(url, "Host", preset="ten_point", players=4, teams=False, target=11)
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
                    reply = await match.act(host, state, game["legal"][0], state["version"])
                    assert reply["ok"], reply
                    after = reply["version"]
                discard = game["legal"][0]
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
        check_logs(logs)


def test_a_failed_write_logs_no_hidden_card(tmp_path: Path) -> None:
    """When storing a discard fails, the server logs the failure without naming the cards."""
    asyncio.run(refuse_a_discard(tmp_path / "smear.db"))
