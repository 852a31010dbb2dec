"""What each recipient of the game server may see, checked against the finished match's record.

Shared by the leak test (``tests/server/test_leaks.py``) and the leak benchmark (``bench/leaks.py``).
Both play matches over real Socket.IO against an in-process server and keep every message each
client receives (as values, or as the JSON text it came in: :class:`RawMessage`). Once a match is
over, its record is replayed with the engine to learn every seat's dealt cards, the undealt cards,
the cards each seat drew and discarded, and who played what (:func:`facts_of`); then every message
is checked against what its recipient could know when it arrived (:func:`check_received`,
:func:`check_reply`).

The server's log is checked too, by :mod:`leakkit.log`.

A failed check is a :class:`Leak`: where it was found, what is wrong, and the cards involved.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from smear import CardSet, Deal, Discard, Phase, Play, apply, new_match, next_hand, parse_action, parse_card
from smear.record import parse_record, replay

# A card in record notation, as a whole word: "Ah", "Td", "10d", "BJ", "LJ" (also inside "Ks:" or
# "discard 2c 3d"), but not inside a longer word such as a table code.
# (The first lookahead only makes the search quicker.)
CARD = re.compile(r"(?=[1-9TJQKABL])(?<![A-Za-z0-9_-])(?:(?:10|[2-9TJQKA])[cdhs]|BJ|LJ)(?![A-Za-z0-9_-])")

OVER = ("hand_over", "match_over")

_CANONICAL: dict[str, str] = {}


def _canonical(word: str) -> str:
    """The card's own notation ("10d" is "Td")."""
    card = _CANONICAL.get(word)
    if card is None:
        card = _CANONICAL[word] = str(parse_card(word))
    return card


def cards_in_text(text: str) -> set[str]:
    words = set(CARD.findall(text))
    if any(len(word) == 3 for word in words):  # "10d": the one way to name a card not in its notation
        return {_canonical(word) for word in words}
    return words


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(str(key))
            _strings(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings(item, out)


def _pruned(value: Any, skip: frozenset[str]) -> Any:
    """``value`` without the keys in ``skip`` of the dicts reached through dicts (a key met only
    inside a list is kept: that checks more, never less)."""
    if not isinstance(value, dict):
        return value
    return {
        key: _pruned(item, skip) if type(item) is dict else item
        for key, item in value.items()
        if key not in skip
    }


def cards_in(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card named anywhere in a JSON value (keys and strings), leaving out the keys in ``skip``."""
    if skip:
        value = _pruned(value, skip)
    # The JSON text, searched at once: quotes, commas and brackets part the strings. An escape
    # ("\n" before a card) would glue a letter to the next word, so then each string apart.
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON: walk it
        text = "\\"
    if "\\" not in text:
        return cards_in_text(text)
    strings: list[str] = []
    _strings(value, strings)
    return cards_in_text("\x00".join(strings))


class RawMessage:
    """A message as it came over a socket: its JSON text, read into values the first time they are
    needed. The checks search this text for cards rather than an encoding of the values.

    A ``state`` given the ``publics`` of its match is read with :func:`read_state`.
    """

    __slots__ = ("_value", "publics", "text")

    def __init__(self, text: str, publics: dict[str, Any] | None = None) -> None:
        self.text = text
        self.publics = publics
        self._value: Any = _UNREAD

    @property
    def value(self) -> Any:
        if self._value is _UNREAD:
            self._value = (
                orjson.loads(self.text) if self.publics is None else read_state(self.text, self.publics)
            )
        return self._value


_UNREAD = object()
# Where the public part of a state's JSON text starts and ends: the last field of a seat's view, or
# a spectator's whole game; the state's own last fields follow.
PUBLIC_STARTS = ('"public":', '"game":')
PUBLIC_ENDS = ('},"resync":', ',"resync":')


def read_state(text: str, publics: dict[str, Any]) -> Any:
    """``json.loads(text)`` of a ``state``, its public part read once for all the states that carry
    it: the server builds it once per version for every seat's view and the spectators' state.

    ``publics`` keeps those parts by their JSON text. A text that does not split as expected (or has
    an escape, which could hide a quote) is read whole.
    """
    if "\\" not in text:
        for start_key, end_key, in_view in zip(PUBLIC_STARTS, PUBLIC_ENDS, (True, False), strict=True):
            start = text.find(start_key)
            if start < 0:
                continue
            start += len(start_key)
            end = text.rfind(end_key)
            if end <= start:
                break
            part = text[start:end]
            public = publics.get(part)
            try:
                if public is None:
                    public = publics[part] = orjson.loads(part)
                state = orjson.loads(text[:start] + "null" + text[end:])
            except ValueError:
                break
            game = state.get("game") if isinstance(state, dict) else None
            if in_view and isinstance(game, dict) and "public" in game and game["public"] is None:
                game["public"] = public
                return state
            if not in_view and "game" in state and game is None and isinstance(public, dict):
                state["game"] = public
                return state
            break
    return orjson.loads(text)


def value_of(message: Any) -> Any:
    """A received message's values (read from its text if it came as a :class:`RawMessage`)."""
    return message.value if isinstance(message, RawMessage) else message


def _cards_of(message: Any, text: str | None) -> set[str]:
    """``cards_in(message)``, from the JSON text it came as where there is one: that text is the
    message, and an escape ("\\n" before a card) is the only way it could hide a card."""
    if text is not None and "\\" not in text:
        return cards_in_text(text)
    return cards_in(message)


RESULTS_KEY = '"results":'


def _results_span(text: str | None, results_text: str | None) -> tuple[int, int] | None:
    """Where ``results_text`` ('"results":[...]') is in a state's JSON ``text``: if it is there as
    that state's one results array, and the text has no escape (see :func:`_cards_of`)."""
    if text is None or results_text is None or "\\" in text:
        return None
    start = text.find(RESULTS_KEY)
    if start < 0 or not text.startswith(results_text, start) or text.find(RESULTS_KEY, start + 1) >= 0:
        return None
    return start, start + len(results_text)


class Leak(Exception):
    """A failed check: a message showed its recipient something it may not see, or does not agree
    with the match record."""

    def __init__(self, detail: str, cards: Iterable[str] = (), where: str = "", message: Any = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.cards = sorted(cards)
        self.where = where
        self.message = message

    def __str__(self) -> str:
        cards = f" [cards {' '.join(self.cards)}]" if self.cards else ""
        return f"{self.where}: {self.detail}{cards}" if self.where else f"{self.detail}{cards}"

    def excerpt(self, limit: int = 600) -> str:
        """The message it was found in, as compact JSON: ``limit`` characters of it, around the first
        of the cards where there are any."""
        if self.message is None:
            return ""
        text = (
            self.message if isinstance(self.message, str) else json.dumps(self.message, separators=(",", ":"))
        )
        if len(text) <= limit:
            return text
        found = [m.start() for m in CARD.finditer(text) if _canonical(m.group()) in self.cards]
        start = max(0, min(found, default=0) - limit // 2)
        return ("..." if start else "") + text[start : start + limit] + "..."


def need(condition: object, detail: str, cards: Iterable[str] = ()) -> None:
    """Raise a :class:`Leak` unless ``condition`` holds."""
    if not condition:
        raise Leak(detail, cards)


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

    def held_by(self, seat: int) -> set[str]:
        """The cards a seat was dealt or drew this hand."""
        return self.deal[seat] | (self.drew[seat] if seat < len(self.drew) else set())

    @property
    def cards(self) -> set[str]:
        """Every card of this hand's deck: dealt, drawn or left undealt."""
        return set().union(*self.deal, *self.drew, self.out)


def facts_of(record: dict[str, Any]) -> dict[int, HandFacts]:
    """Replay the record hand by hand with the engine, noting each action's seat."""
    parsed = parse_record(record)
    if replay(parsed).state.public.phase is not Phase.MATCH_OVER:
        raise ValueError("the record does not end its match")
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
            if seat is None:
                raise ValueError(f"hand {number}: an action with nobody to act")
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


# --- what each client received ------------------------------------------------------------------------


def played_in(public: dict[str, Any]) -> list[str]:
    cards = [card for trick in public["tricks"] for card in trick["cards"]]
    return cards + [card for _, card in public["trick"]]


def public_of(game: dict[str, Any]) -> dict[str, Any]:
    """The public part of a ``state``'s game: a seat's view holds it, a spectator's game is it."""
    public: dict[str, Any] = game.get("public", game)
    return public


def check_results(
    public: dict[str, Any],
    facts: dict[int, HandFacts],
    text: str | None = None,
    known: dict[int, str] | None = None,
) -> tuple[int, int] | None:
    """Results show only finished hands, and show them as they were.

    Given the state's JSON ``text``, returns where its results array is in it (None if not found).
    ``known`` keeps the JSON text of the results checked so far by their number: every state until
    the next hand ends repeats the same results, which are then not compared with the facts again.
    """
    number = public["hand_number"]
    results = public["results"]
    finished = number if public["phase"] in OVER else number - 1
    if len(results) != finished:
        raise Leak(f"results of hands 1..{len(results)} during hand {number}")
    if known is None:
        known = {}
    span = _results_span(text, known.get(len(results)))
    if span is not None:
        return span
    need([r["number"] for r in results] == list(range(1, len(results) + 1)), "results out of order")
    for result in results:
        fact = facts[result["number"]]
        if set(result["out"]) != fact.out:
            raise Leak(f"hand {result['number']}: results show other undealt cards")
        if [set(cards) for cards in result["discards"]] != fact.discards:
            raise Leak(f"hand {result['number']}: results show other discards")
    if text is None:
        return None
    results_text = known[len(results)] = RESULTS_KEY + json.dumps(results, separators=(",", ":"))
    return _results_span(text, results_text)


def check_state(
    message: dict[str, Any],
    seat: int | None,
    facts: dict[int, HandFacts],
    text: str | None = None,
    known_results: dict[int, str] | None = None,
) -> int | None:
    """Check one ``state``; returns the hand it shows (None in the lobby).

    ``text`` is the JSON text the state came as, if kept: the cards are searched in it, but for its
    results (found as :func:`check_results` says); ``known_results`` is for :func:`check_results`.
    """
    game = message["game"]
    if message["table"]["you"] != seat:
        raise Leak(f"addressed to seat {message['table']['you']}")
    if game is None:
        named = _cards_of(message, text)
        need(not named, "a lobby state names cards", named)
        return None
    if seat is None:
        own = {"seat", "hand", "discards", "legal"} & game.keys()
        need(not own, f"a spectator's own cards ({sorted(own)})")
        public = game
    else:
        if game["seat"] != seat:
            raise Leak(f"the view of seat {game['seat']}")
        public = game["public"]
    number = public["hand_number"]
    fact = facts[number]
    results = check_results(public, facts, text, known_results)
    # The cards on the table are the hand's first plays, in order.
    played = played_in(public)
    need(
        played == [card for _, card in fact.plays[: len(played)]], "the cards on the table were not played so"
    )
    allowed = set(played)
    if seat is not None:
        own_cards = fact.held_by(seat)
        hand = set(game["hand"])
        if not hand <= own_cards:
            raise Leak(f"hand {number}: cards seat {seat} never held", hand - own_cards)
        if public["phase"] == "auction" and hand != fact.deal[seat]:
            raise Leak(f"hand {number}: not the cards the record deals to {seat}")
        discards = set(game["discards"])
        if not discards <= fact.discards[seat]:
            raise Leak(f"hand {number}: discards seat {seat} did not make", discards)
        allowed |= own_cards
    if text is not None and results is not None:
        named = cards_in_text(text[: results[0]]) | cards_in_text(text[results[1] :])
    else:
        named = cards_in(message, skip=frozenset({"results"}))
    leaked = named - allowed
    if leaked:
        raise Leak(f"hand {number} shows hidden cards to seat {seat} ({public['phase']})", leaked)
    return int(number)


def check_event(
    message: dict[str, Any], hand: int | None, facts: dict[int, HandFacts], text: str | None = None
) -> None:
    """Check one ``event`` (``text``: the JSON text it came as, if kept)."""
    event = message["event"]
    named = _cards_of(message, text)
    for line in event.get("lines", []):  # the log lines an action made: seats and counts only
        need(set(line) <= {"kind", "seat", "count"}, f"a log line with other fields: {sorted(line)}")
    if event.get("kind") != "action":
        if named:
            raise Leak(f"a {event.get('kind')} event names cards", named)
        return
    if hand is None:
        raise Leak("an action event before any state")
    fact = facts[hand]
    taken = event["action"]
    if taken["kind"] == "discard":
        need(set(taken) == {"kind", "count"}, "a discard event with more than its count")
        need(taken["count"] == len(fact.discards[event["seat"]]), "a discard event with another count")
        need(not named, "a discard event names cards", named)
        return
    action = parse_action(taken["text"])
    public_card: set[str] = set()
    if isinstance(action, Play):
        card = str(action.card)
        public_card = {card}
        if (event["seat"], card) not in fact.plays:
            raise Leak(f"hand {hand}: {event} was not played")
    if not named <= public_card:
        raise Leak(f"hand {hand}: an action event names hidden cards", named - public_card)


def _hand_ahead(received: Sequence[tuple[str, Any]], index: int, version: int) -> int | None:
    """The hand of the first state after ``index`` if it has ``version`` (an event sent to a
    spectator that started watching as the table moved on can come just before its first state)."""
    for kind, message in received[index + 1 :]:
        if kind == "state":
            message = value_of(message)
            game = message["game"]
            if message["version"] == version and game is not None:
                return int(public_of(game)["hand_number"])
            return None
    return None


def _where(who: str, spectator: bool, seat: int | None, index: int, kind: str) -> str:
    recipient = "spectator" if spectator else f"seat {seat}"
    return f"{who}{' ' if who else ''}{recipient}, message {index} ({kind})"


# The messages besides a table's states: a reaction is a seat and a word, a chat line a person's
# text, an open table what its lobby shows anyone with its link.
TALK = {
    "reaction": frozenset({"seat", "reaction"}),
    "chat": frozenset({"id", "at", "seat", "name", "mark", "text"}),
    "open_tables": frozenset({"table", "settings", "seats", "free", "bots", "host", "host_mark"}),
}

MARK = re.compile(r"[A-Z2-7]{4}")


def check_talk(kind: str, message: Any) -> None:
    """A ``reaction``, ``chat`` or ``open_tables`` message has its fields and no more, and names no
    card (the audits never write one in a chat line, so any card found came from the server)."""
    lines = [message] if kind == "reaction" else message["lines" if kind == "chat" else "tables"]
    for line in lines:
        need(set(line) == TALK[kind], f"a {kind} with other fields than {sorted(TALK[kind])}")
        if kind != "reaction":  # a name's mark: four characters of a hash of a public profile id
            mark = line["mark" if kind == "chat" else "host_mark"]
            need(
                mark is None or bool(MARK.fullmatch(mark)),
                "a chat line's mark" if kind == "chat" else "a host's mark",
            )
    need(not cards_in(message), f"a {kind} message naming a card", cards_in(message))


def check_received(
    received: Sequence[tuple[str, Any]],
    facts: dict[int, HandFacts],
    spectator: bool,
    who: str = "",
    whole_match: bool = True,
) -> list[Leak]:
    """Check every ``state`` and ``event`` one client received, in order; returns the failed checks.

    A message is its values, or a :class:`RawMessage`. ``who`` names the recipient in the leaks
    found. A person's messages must all be for one seat once the match has started (teams redraw the
    seats at the start). A client that followed the whole match must have received more states than
    there were hands.
    """
    leaks: list[Leak] = []
    seat: int | None = None
    playing_seat: int | None = None  # the seat once the match has started
    hand: int | None = None
    checked = 0
    known_results: dict[int, str] = {}
    for index, (kind, item) in enumerate(received):
        seat_before = seat
        message: Any = item.text if isinstance(item, RawMessage) else item
        text = item.text if isinstance(item, RawMessage) else None
        try:
            if kind in TALK:
                check_talk(kind, item.value if isinstance(item, RawMessage) else message)
                continue
            if kind not in ("state", "event"):
                raise Leak(f"an unexpected {kind!r} message", _cards_of(message, text))
            if text is not None:
                message = item.value  # the text stays what a leak shows if it is no JSON
            if kind == "state":
                if not spectator:
                    seat = message["table"]["you"]
                    need(seat is not None, "a person's state for no seat")
                    if message["game"] is not None:
                        playing_seat = seat if playing_seat is None else playing_seat
                        need(seat == playing_seat, "the seat changed during the match")
                hand = check_state(message, seat, facts, text, known_results)
                checked += message["game"] is not None
                if message.get("event") is not None:  # the change that made this version
                    check_event({"version": message["version"], "event": message["event"]}, hand, facts)
            elif kind == "event":
                if message["event"].get("kind") == "deal":
                    hand = message["event"]["hand"]
                elif hand is None and message["event"].get("kind") == "action":
                    hand = _hand_ahead(received, index, message["version"])
                check_event(message, hand, facts, text)
        except Leak as leak:
            leak.where, leak.message = _where(who, spectator, seat_before, index, kind), message
            leaks.append(leak)
        except (KeyError, TypeError, ValueError, IndexError) as err:
            where = _where(who, spectator, seat_before, index, kind)
            leaks.append(
                Leak(f"a message of an unexpected shape ({type(err).__name__}: {err})", (), where, message)
            )
    if whole_match and checked <= len(facts):
        leaks.append(Leak(f"too few states to be a check ({checked} for {len(facts)} hands)", (), who))
    return leaks


def check_reply(hand: Iterable[str], request: str, reply: dict[str, Any]) -> None:
    """An acknowledgement names only cards its sender holds or named in its request.

    An ``illegal_action`` error may name the card a seat tried to play without holding it (that card
    is in the request); for any other reason it names only cards the seat holds.
    """
    held = set(hand)
    named = cards_in(reply)
    sent = cards_in_text(request)
    need(named <= held | sent, "an acknowledgement names cards its sender does not hold", named - held - sent)
    error = reply.get("error")
    if (
        error is not None
        and error["code"] == "illegal_action"
        and error["args"].get("reason_code") != "not_in_hand"
    ):
        need(named <= held, "a refusal names cards its sender does not hold", named - held)


# --- acting ---------------------------------------------------------------------------------------


def discard_from(spec: dict[str, Any], choose: Any = None) -> str:
    """A discard made from a view's description of it (when there are too many to list):
    the required cards and the first free ones, or those ``choose(cards, k)`` picks."""
    free = spec["count"] - len(spec["required"])
    picked = list(spec["choosable"][:free]) if choose is None else list(choose(spec["choosable"], free))
    return "discard " + " ".join([*spec["required"], *picked])
