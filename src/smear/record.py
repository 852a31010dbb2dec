"""Match records in the ``smear-record/1`` format (see RECORD.md), and their replay.

A record is one JSON document: the rules, the seats, and for each hand the deal and every action.
:func:`parse_record` checks its structure and deals (a bad record raises :class:`RecordError`);
:func:`replay` checks every action against the rules (the first refused one raises
:class:`ReplayError`) and summarises the hands; :func:`record_of` writes a match back as a record.

>>> from smear import find_rules, new_match
>>> state = new_match(find_rules("house"), players=4, seed=3)
>>> text = dump_record(record_of(state, ["Ayse", "Kemal", "You", "Sam"]))
>>> replay(parse_record(text)).summary["complete"]
False
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from smear.actions import Action, parse_action
from smear.cards import Card, CardSet, parse_card
from smear.dealing import new_match, next_hand
from smear.errors import PHASE_WORDS, ActionError, IllegalActionError, RecordError, SmearError
from smear.rules import Rules, find_rules
from smear.state import Deal, HandResult, Phase, State
from smear.transitions import apply

FORMAT = "smear-record/1"

# Known keys in the order records are written; other keys are ignored on input (like PGN tags).
_RECORD_KEYS = ("format", "rules", "players", "teams", "start_scores", "hands")
_HAND_KEYS = ("dealer", "deal", "out", "actions")
# A record's numbers are seats, scores and rule values: far shorter than this.
NUMBER_DIGITS_MAX = 100


@dataclass(frozen=True)
class HandRecord:
    """One hand of a record: the dealer, each seat's cards as dealt, the undealt cards, the actions."""

    dealer: int
    deal: tuple[CardSet, ...]
    out: tuple[Card, ...] | None  # None when the record leaves it out (the rest of the deck)
    actions: tuple[str, ...]  # as written in the file; checked only by replay

    def to_dict(self) -> dict[str, Any]:
        """This hand as record JSON, cards and actions in canonical notation (``Td``, ``bid 3``)."""
        hand: dict[str, Any] = {
            "dealer": self.dealer,
            "deal": [[str(card) for card in cards] for cards in self.deal],
        }
        if self.out is not None:
            hand["out"] = [str(card) for card in self.out]
        hand["actions"] = [_canonical_action(text) for text in self.actions]
        return hand


@dataclass(frozen=True)
class Record:
    """A parsed ``smear-record/1`` document."""

    rules: Rules
    rules_spec: str | dict[str, Any]  # as in the file: a preset name or {"preset": ..., overrides}
    players: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...] | None
    start_scores: tuple[int, ...] | None
    hands: tuple[HandRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (what :func:`dump_record` writes)."""
        return {
            "format": FORMAT,
            "rules": copy.deepcopy(self.rules_spec),
            "players": list(self.players),
            "teams": None if self.teams is None else [list(side) for side in self.teams],
            "start_scores": None if self.start_scores is None else list(self.start_scores),
            "hands": [hand.to_dict() for hand in self.hands],
        }


class ReplayError(SmearError):
    """An action of a record that is malformed or that the rules refuse, or a hand out of place.

    ``hand`` and ``position`` count from 1; ``position`` is 0 when the hand itself is out of place
    (wrong dealer, listed after the match ended or before the previous hand ended), and then
    ``str(err)`` is ``"hand 2: <reason>"`` instead of ``"hand 2, action 5: <reason>"``.
    """

    def __init__(self, hand: int, position: int, action: str, reason: str) -> None:
        self.hand = hand
        self.position = position
        self.action = action
        self.reason = reason
        where = f"hand {hand}, action {position}" if position else f"hand {hand}"
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class Replay:
    """Where a replayed record ends up: the match state and the ``smear replay --json`` summary."""

    state: State
    summary: dict[str, Any]


# --- reading --------------------------------------------------------------------------------------


def _show(value: Any) -> str:
    """A bad input value as JSON, cut short so an error message stays one line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"not valid JSON: {name} is not a number")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_list(value: Any) -> bool:
    # JSON gives lists; Python callers may build records with tuples.
    return isinstance(value, list | tuple)


def parse_record(data: str | bytes | Mapping[str, Any]) -> Record:
    """Read and check a record: JSON text (or bytes), or data already decoded from JSON.

    Checks the structure, the rules, the seats and every deal; the actions are kept as text and
    checked by :func:`replay`. Anything wrong raises :class:`RecordError` naming what and where.
    """
    doc = record_json(data) if isinstance(data, str | bytes | bytearray) else data
    if not isinstance(doc, Mapping):
        raise RecordError(f"a record is a JSON object, not {_show(doc)}")
    for key in ("format", "rules", "players", "hands"):
        if key not in doc:
            raise RecordError(f'the record has no "{key}"')
    if doc["format"] != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}", not {_show(doc["format"])}')
    rules, rules_spec = _parse_rules(doc["rules"])
    players = _parse_players(doc["players"])
    teams = _parse_teams(doc.get("teams"), len(players))
    refusal = rules.refusal(len(players), teams is not None)
    if refusal is not None:
        raise RecordError(refusal)
    sides = len(teams) if teams is not None else len(players)
    start_scores = _parse_start_scores(doc.get("start_scores"), sides)
    hands_data = doc["hands"]
    if not _is_list(hands_data) or not hands_data:
        raise RecordError(f'"hands" must be a list of at least one hand, not {_show(hands_data)}')
    try:
        deck = rules.deck_mask(len(players))
    except SmearError as err:
        raise RecordError(f"rules: {err}") from None
    dealt = rules.dealt_for(len(players))
    hands = tuple(
        _parse_hand(number, hand, players, deck, dealt, rules.name)
        for number, hand in enumerate(hands_data, 1)
    )
    return Record(rules, rules_spec, players, teams, start_scores, hands)


def record_json(data: str | bytes | bytearray) -> Any:
    """The JSON document of a record's text (or UTF-8 bytes), not yet checked as a record. Text that
    is not JSON, or a number of more than :data:`NUMBER_DIGITS_MAX` digits, raises
    :class:`RecordError`."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise RecordError(f"not UTF-8 text: {err}") from None
    try:
        return json.loads(data, parse_constant=_refuse_constant, parse_int=_short_int)
    except json.JSONDecodeError as err:
        raise RecordError(f"not valid JSON: {err}") from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply") from None


def _short_int(text: str) -> int:
    # Before int(): Python refuses more than 4,300 digits with a plain ValueError, and is slow below.
    if len(text.lstrip("-")) > NUMBER_DIGITS_MAX:
        raise RecordError(f"a number of more than {NUMBER_DIGITS_MAX} digits")
    return int(text)


def load_record(path_or_dash: str) -> Record:
    """Read a record from a file, or from standard input when the path is ``-``."""
    if path_or_dash == "-":
        stream = sys.stdin
        raw: bytes | str = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
    else:
        try:
            with open(path_or_dash, "rb") as file:
                raw = file.read()
        except OSError as err:
            raise RecordError(f"cannot read {path_or_dash}: {err.strerror or err}") from None
    return parse_record(raw)


def _parse_rules(spec: Any) -> tuple[Rules, str | dict[str, Any]]:
    if isinstance(spec, str):
        try:
            return find_rules(spec), spec
        except SmearError as err:
            raise RecordError(str(err)) from None
    if not isinstance(spec, Mapping):
        raise RecordError(f'"rules" must be a preset name or an object, not {_show(spec)}')
    if "preset" not in spec:
        raise RecordError(f'"rules" as an object needs a "preset": {_show(spec)}')
    preset = spec["preset"]
    if not isinstance(preset, str):
        raise RecordError(f'"preset" must be a preset name, not {_show(preset)}')
    try:
        base = find_rules(preset)
    except SmearError as err:
        raise RecordError(str(err)) from None
    changes = {key: value for key, value in spec.items() if key != "preset"}
    try:
        rules = base.with_changes(**changes)
    except (ValueError, TypeError) as err:  # RulesError, or a value no rule field can take
        raise RecordError(f"rules: {err}") from None
    return rules, copy.deepcopy(dict(spec))


def _parse_players(value: Any) -> tuple[str, ...]:
    if not _is_list(value) or not all(isinstance(name, str) for name in value):
        raise RecordError(f'"players" must be a list of names, not {_show(value)}')
    names = tuple(value)
    for seat, name in enumerate(names):
        if not name.strip():
            raise RecordError(f"the name of seat {seat} is empty")
        if name in names[:seat]:
            raise RecordError(f"two seats are named {_show(name)}")
    return names


def _parse_teams(value: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
    if value is None:
        return None
    if not _is_list(value) or not all(
        _is_list(side) and side and all(_is_int(seat) for seat in side) for side in value
    ):
        raise RecordError(f'"teams" must be null or a list of sides (lists of seats), not {_show(value)}')
    teams = tuple(tuple(side) for side in value)
    seats = sorted(seat for side in teams for seat in side)
    if len(teams) < 2 or seats != list(range(players)):
        raise RecordError(
            f'"teams" must split seats 0 to {players - 1} into two or more sides, each seat once: '
            f"{_show(value)}"
        )
    return teams


def _parse_start_scores(value: Any, sides: int) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not _is_list(value) or len(value) != sides or not all(_is_int(x) for x in value):
        raise RecordError(
            f'"start_scores" must be null or {sides} whole numbers, one per side, not {_show(value)}'
        )
    return tuple(value)


def _parse_cards(value: Any, where: str) -> tuple[Card, ...]:
    if not _is_list(value):
        raise RecordError(f"{where}: expected a list of cards, not {_show(value)}")
    cards = []
    for text in value:
        try:
            cards.append(parse_card(text))
        except SmearError as err:
            raise RecordError(f"{where}: {err}") from None
    return tuple(cards)


def _parse_hand(
    number: int, value: Any, players: tuple[str, ...], deck: int, dealt: int, preset: str
) -> HandRecord:
    where = f"hand {number}"
    if not isinstance(value, Mapping):
        raise RecordError(f"{where}: a hand is an object, not {_show(value)}")
    for key in ("dealer", "deal"):
        if key not in value:
            raise RecordError(f'{where} has no "{key}"')
    dealer = value["dealer"]
    if not _is_int(dealer) or not 0 <= dealer < len(players):
        raise RecordError(
            f"{where}: the dealer must be a seat from 0 to {len(players) - 1}, not {_show(dealer)}"
        )
    deal_data = value["deal"]
    if not _is_list(deal_data) or len(deal_data) != len(players):
        raise RecordError(f"{where}: the deal must be {len(players)} lists of cards, one per seat")
    seen = 0

    def take(card: Card, owner: str) -> None:
        nonlocal seen
        if not deck >> card & 1:
            raise RecordError(
                f"{where}, {owner}: {card} is not in the {preset} deck at a table of {len(players)}"
            )
        if seen >> card & 1:
            raise RecordError(f"{where}, {owner}: {card} is dealt twice")
        seen |= 1 << card

    deal = []
    for seat, cards_data in enumerate(deal_data):
        owner = f"seat {seat} ({players[seat]})"
        cards = _parse_cards(cards_data, f"{where}, {owner}")
        if len(cards) != dealt:
            raise RecordError(f"{where}, {owner}: {len(cards)} cards dealt, not {dealt}")
        for card in cards:
            take(card, owner)
        deal.append(CardSet(cards))
    out: tuple[Card, ...] | None = None
    if value.get("out") is not None:
        out = _parse_cards(value["out"], f"{where}, out")
        for card in out:
            take(card, "out")
        missing = deck & ~seen
        if missing:
            raise RecordError(f"{where}, out: the undealt cards leave out {CardSet(missing)}")
    actions = value.get("actions", [])
    if not _is_list(actions) or not all(isinstance(text, str) for text in actions):
        raise RecordError(f'{where}: "actions" must be a list of texts, not {_show(actions)}')
    return HandRecord(dealer, tuple(deal), out, tuple(actions))


def _canonical_action(text: str) -> str:
    try:
        return str(parse_action(text))
    except ActionError:
        return text  # replay reports it; writing keeps it as it was


# --- replaying ------------------------------------------------------------------------------------


# Told of every action a replay applies: the state before it, the action, the state after it.
ReplayObserver = Callable[[State, Action, State], None]


def replay(record: Record, observe: ReplayObserver | None = None) -> Replay:
    """Play a record through the rules engine, hand by hand, action by action.

    Raises :class:`ReplayError` at the first malformed or refused action, or a hand out of place;
    :class:`RecordError` if the engine refuses a deal. ``observe`` is called after each action.
    """
    players = record.players
    n = len(players)
    state: State | None = None
    for number, hand in enumerate(record.hands, 1):
        deal = Deal(hand.deal, hand.out)
        if state is None:
            try:
                state = new_match(
                    record.rules,
                    n,
                    record.teams,
                    dealer=hand.dealer,
                    deal=deal,
                    scores=record.start_scores,
                )
            except SmearError as err:
                raise RecordError(f"hand {number}: {err}") from None
        else:
            state = _next_hand(state, number, hand, deal, players)
        for position, text in enumerate(hand.actions, 1):
            try:
                action = parse_action(text)
            except ActionError as err:
                raise ReplayError(number, position, text, str(err)) from None
            try:
                after = apply(state, action)
            except IllegalActionError as err:
                raise ReplayError(number, position, text, _refusal(err, state, players)) from None
            if observe is not None:
                observe(state, action, after)
            state = after
    assert state is not None  # parse_record refuses a record without hands
    return Replay(state, _summary(state))


def _next_hand(state: State, number: int, hand: HandRecord, deal: Deal, players: Sequence[str]) -> State:
    pub = state.public
    if pub.phase is Phase.MATCH_OVER:
        raise ReplayError(number, 0, "", f"the match was over after hand {number - 1}")
    if pub.phase is not Phase.HAND_OVER:
        raise ReplayError(
            number,
            0,
            "",
            f"hand {number - 1} is not over: it stops after {len(state.actions)} actions, "
            f"with {whose_turn(state, players)}",
        )
    expected = (pub.dealer + 1) % len(players)
    if hand.dealer != expected:
        raise ReplayError(
            number,
            0,
            "",
            f"the dealer must be seat {expected} ({players[expected]}), the seat after hand "
            f"{number - 1}'s dealer, not seat {hand.dealer} ({players[hand.dealer]})",
        )
    try:
        return next_hand(state, deal)
    except SmearError as err:
        raise RecordError(f"hand {number}: {err}") from None


def _refusal(err: IllegalActionError, state: State, players: Sequence[str]) -> str:
    seat = err.seat if err.seat is not None else state.public.to_act
    if seat is None:  # nobody is to act: the hand or the match is over
        return f"nobody can {err.action_phrase()}: {err.reason()}"
    return err.describe(players[seat])


def whose_turn(state: State, players: Sequence[str]) -> str:
    """Who is to act and what they must do, in words: ``"Kemal to play a card"``."""
    pub = state.public
    if pub.to_act is None:
        return "nobody to act"
    return f"{players[pub.to_act]} to {PHASE_WORDS[pub.phase.value]}"


def result_entry(result: HandResult, rules: Rules) -> dict[str, Any]:
    """A finished hand as the replay summary gives it: bidder, bid, trump, points, scores."""
    if result.bidder is None:  # everyone passed and the hand was thrown in
        return {
            "bidder": None,
            "bid": None,
            "trump": None,
            "points": dict.fromkeys(rules.points),
            "game_points": list(result.game_points),
            "taken": list(result.taken),
            "made": None,
            "scores": list(result.scores),
        }
    return {
        "bidder": result.bidder,
        "bid": result.bid,
        "trump": None if result.trump is None else result.trump.letter,
        "points": dict(result.points),
        "game_points": list(result.game_points),
        "taken": list(result.taken),
        "made": result.made,
        "scores": list(result.scores),
    }


def _summary(state: State) -> dict[str, Any]:
    pub = state.public
    hands = [result_entry(result, pub.rules) for result in pub.results]
    complete = pub.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)
    if not complete:
        # The hand in progress: only what is settled so far.
        partial: dict[str, Any] = {}
        if pub.phase is not Phase.AUCTION and pub.bidder is not None:
            partial["bidder"] = pub.bidder
            partial["bid"] = pub.bid
        if pub.trump is not None:
            partial["trump"] = pub.trump.letter
        hands.append(partial)
    return {
        "hands": hands,
        "scores": list(pub.scores),
        "winner": pub.winner,
        "complete": complete,
    }


# --- writing --------------------------------------------------------------------------------------


def _json_value(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_json_value(item) for item in value]
    return value


def rules_spec_of(rules: Rules) -> str | dict[str, Any]:
    """The ``rules`` of a record for these rules: the preset name, or the preset and its changes."""
    try:
        base = find_rules(rules.name)
    except SmearError as err:
        raise ValueError(f"rules {rules.name!r} are not based on a preset: {err}") from None
    changes = {
        field.name: _json_value(getattr(rules, field.name))
        for field in dataclasses.fields(rules)
        if getattr(rules, field.name) != getattr(base, field.name)
    }
    if not changes:
        return rules.name
    return {"preset": rules.name, **changes}


def record_of(
    state: State, players: Sequence[str], rules_spec: str | dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``smear-record/1`` data of a match so far (every hand of ``state``, the current one last).

    ``players`` names the seats; ``rules_spec`` defaults to the preset name (with the changed
    fields when the rules differ from the preset).
    """
    pub = state.public
    names = list(players)
    if len(names) != pub.players:
        raise ValueError(f"{len(names)} names for {pub.players} seats")
    singles = all(len(side) == 1 for side in pub.sides)
    start = pub.start_scores
    return {
        "format": FORMAT,
        "rules": rules_spec_of(pub.rules) if rules_spec is None else copy.deepcopy(rules_spec),
        "players": names,
        "teams": None if singles else [list(side) for side in pub.sides],
        "start_scores": None if not any(start) else list(start),
        "hands": [
            {
                "dealer": log.dealer,
                "deal": [[str(card) for card in cards] for cards in log.deal],
                "out": [str(card) for card in log.out],
                "actions": [str(action) for action in log.actions],
            }
            for log in state.hand_logs()
        ],
    }


def dump_record(record: Mapping[str, Any]) -> str:
    """Record data as JSON text: checked, in canonical notation, the same bytes for the same input.

    Lists of cards and of actions each take one line. Keys a record does not define are kept, after
    the known ones. Raises :class:`RecordError` if the data is not a valid record.
    """
    parsed = parse_record(record)
    data = parsed.to_dict()
    data.update((key, value) for key, value in record.items() if key not in _RECORD_KEYS)
    for hand, given in zip(data["hands"], record["hands"], strict=True):
        hand.update((key, value) for key, value in given.items() if key not in _HAND_KEYS)
    return _format(data, 0) + "\n"


def json_text(value: Any) -> str:
    """JSON text that people can read: lists and objects of plain values each take one line."""
    return _format(value, 0)


def _flat(value: Any) -> str | None:
    """One-line JSON for a scalar, a list or object of scalars, or a short nest of lists."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    if not isinstance(value, list | dict):
        return text
    items = value.values() if isinstance(value, dict) else value
    if all(not isinstance(item, list | dict) for item in items):
        return text
    if isinstance(value, list) and len(text) <= 60 and "{" not in text:
        return text  # e.g. teams: [[0, 2], [1, 3]]
    return None


def _format(value: Any, depth: int) -> str:
    flat = _flat(value)
    if flat is not None:
        return flat
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(str(key), ensure_ascii=False)}: {_format(item, depth + 1)}"
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    items = [pad + _format(item, depth + 1) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"


__all__ = [
    "FORMAT",
    "NUMBER_DIGITS_MAX",
    "HandRecord",
    "Record",
    "Replay",
    "ReplayError",
    "ReplayObserver",
    "dump_record",
    "json_text",
    "load_record",
    "parse_record",
    "record_json",
    "record_of",
    "replay",
    "result_entry",
    "rules_spec_of",
    "whose_turn",
]
