"""Small helpers shared by the engine tests: literal deals, scripted actions, random play."""

from __future__ import annotations

import dataclasses
import functools
import random
import re
import subprocess
import sys
from collections.abc import Collection, Iterable, Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import cast

from smear import (
    PRESETS,
    Action,
    Card,
    CardSet,
    Deal,
    Phase,
    Play,
    PublicState,
    Rules,
    State,
    apply,
    find_rules,
    legal_actions,
    new_match,
    next_hand,
    parse_action,
    parse_card,
)
from smear.bots import random_action
from smear.trick import order_for

HOUSE = find_rules("house")
# The browser client's sources, which the grep tests read for copies of what the server decides.
WEB_SRC = Path(__file__).resolve().parents[1] / "web" / "src"
TEN_POINT = find_rules("ten_point")


def cards(text: str) -> CardSet:
    """``cards("Ah Ks")``: a CardSet from record notation."""
    return CardSet.parse(text)


def card(text: str) -> Card:
    return parse_card(text)


def start(
    rules: Rules,
    hands: Sequence[str],
    *,
    dealer: int | None = None,
    teams: bool | None = None,
    scores: Sequence[int] | None = None,
    out: str | None = None,
) -> State:
    """A match whose first hand is dealt as given. The last seat deals unless told otherwise, so
    seat 0 bids first."""
    players = len(hands)
    return new_match(
        rules,
        players,
        teams,
        dealer=players - 1 if dealer is None else dealer,
        deal=Deal.parse(hands, out=out),
        scores=scores,
    )


def act(state: State, *actions: str) -> State:
    """Apply actions in record notation, each by the seat to act."""
    for text in actions:
        state = apply(state, parse_action(text))
    return state


def thrown_in() -> State:
    """A ten-point hand of three where everyone passes (the dealer need not bid): thrown in."""
    rules = find_rules("ten_point").with_changes(dealer_must_bid=False)
    hands = [
        "Ah Kh Qh Jh Th 9h 8h 7h 6h 5h",
        "Ac Kc Qc Jc Tc 9c 8c 7c 6c 5c",
        "Ad Kd Qd Jd Td 9d 8d 7d 6d 5d",
    ]
    return act(start(rules, hands), "pass", "pass", "pass")


NINE_CARD = find_rules("nine_card")
# Ann (seat 0) bids and names hearts; she keeps seven trumps, the others trade for stock cards.
NINE_DEAL = [
    "Ah Kh Qh Jh Th 9h 8h 2c 3c",
    "BJ 7h 4c 5c 6c 7c 8c 9c Tc",
    "LJ 2h 3h 2d 3d 4d 5d 6d 7d",
    "4h 5h 6h Jc Qc Kc Ac 2s 3s",
]
NINE_OUT = "4s 5s 6s Jd 7s 8s 9s Ts Js Qs Ks As 8d 9d Td Qd Kd Ad"
NINE_DISCARDS = (
    "discard 2c 3c",
    "discard 4c 5c 6c 7c 8c 9c Tc",
    "discard 2d 3d 4d 5d 6d 7d",
    "discard Jc Qc Kc Ac 2s 3s",
)


def nine_card_in_play() -> State:
    """After the discards: Ann holds Ah-8h; Ben BJ 7h and the jick Jd; Cy LJ 2h 3h; Di 4h 5h 6h."""
    state = start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT)
    return act(state, "bid 5", "pass", "pass", "pass", "trump h", *NINE_DISCARDS)


# Seat 0 holds the top of hearts and both jokers; the other hearts in this deck (8h 9h Th) sleep,
# so Seat 0 takes all six points by leading its cards: High, Low (the Jh, the lowest heart in play,
# which it plays itself), Jack, both jokers and Game.
MOON_HANDS = [
    "Ah Kh Qh Jh BJ LJ",
    "Ac Kc Qc Jc Tc 9c",
    "Ad Kd Qd Jd Td 9d",
    "As Ks Qs Js Ts 9s",
]
MOON_OUT = "8h 9h Th 8c 8d 8s"
MOON_TRICKS = ["Ah Ac Ad As", "Kh Kc Kd Ks", "Qh Qc Qd Qs", "Jh Jc Jd Js", "BJ Tc Td Ts", "LJ 9c 9d 9s"]


def play_tricks(state: State, *tricks: str) -> State:
    """Play tricks given as their cards in the order played (``"Ah 8h Td Qh"``)."""
    for trick in tricks:
        state = act(state, *trick.split())
    return state


def legal_cards(state: State) -> CardSet:
    """The cards the seat to act may play now."""
    return CardSet(action.card for action in legal_actions(state) if isinstance(action, Play))


# Options on top of presets, named "preset+option...", so that the tests walking every preset walk
# each option too (at a few table sizes: the options do not depend on the size).
OPTION_RULES: dict[str, Rules] = {
    "house+moon+elimination": HOUSE.with_changes(shoot_the_moon=True, elimination=-21),
    "ten_point+moon+elimination": TEN_POINT.with_changes(shoot_the_moon=True, elimination=-21, target=31),
    "five_point+moon+target11": find_rules("five_point").with_changes(shoot_the_moon=True, target=11),
    "five_point+kitty": find_rules("five_point").with_changes(kitty=3),
    "ten_point+identical_jokers+highest_score_wins": TEN_POINT.with_changes(
        identical_jokers=True, highest_score_wins=True
    ),
    "mcleod+moon+elimination": find_rules("mcleod").with_changes(shoot_the_moon=True, elimination=-21),
    "widow+two_points2+target31": find_rules("widow").with_changes(two_points=2, max_bid=11, target=31),
    "nine_card+moon+target31": find_rules("nine_card").with_changes(shoot_the_moon=True, target=31),
}
OPTION_TABLES: list[tuple[str, int, bool]] = [
    ("mcleod+moon+elimination", 4, True),
    ("widow+two_points2+target31", 3, False),
    ("nine_card+moon+target31", 4, True),
    ("house+moon+elimination", 4, True),
    ("house+moon+elimination", 5, False),
    ("ten_point+moon+elimination", 3, False),
    ("ten_point+moon+elimination", 4, True),
    ("five_point+moon+target11", 6, True),
    ("five_point+kitty", 4, True),
    ("five_point+kitty", 8, True),
    ("ten_point+identical_jokers+highest_score_wins", 4, True),
    ("ten_point+identical_jokers+highest_score_wins", 5, False),
]


def rules_named(name: str) -> Rules:
    """A preset, or a preset with options from :data:`OPTION_RULES`."""
    return OPTION_RULES[name] if name in OPTION_RULES else find_rules(name)


def configurations(options: bool = True) -> list[tuple[str, int, bool]]:
    """Every (preset, players, teams) the presets allow, and (``options``) the option tables."""
    found = []
    for name, rules in PRESETS.items():
        for players in rules.player_counts:
            found.append((name, players, False))
        for players in rules.team_player_counts:
            found.append((name, players, True))
    return found + (OPTION_TABLES if options else [])


def config_id(config: tuple[str, int, bool]) -> str:
    name, players, teams = config
    return f"{name}-{players}{'-teams' if teams else ''}"


def deck(rules: Rules, players: int) -> CardSet:
    """The cards in play at this table."""
    return CardSet(rules.deck_mask(players))


def choose(state: State, rng: random.Random) -> Action:
    """A random legal action, as the library's random player draws it (a cautious auction, so that
    random matches end)."""
    return random_action(legal_actions(state), rng)


MAX_HANDS = 400


def random_match(rules: Rules, players: int, teams: bool, seed: int) -> Iterator[State]:
    """Every state of a seeded random match, from the first deal to the end of the match (or to
    ``MAX_HANDS`` hands, which a caller should treat as a failure)."""
    rng = random.Random(f"tests:{rules.name}:{players}:{teams}:{seed}")
    state = new_match(rules, players, teams, seed=seed)
    yield state
    while state.public.phase is not Phase.MATCH_OVER and state.public.hand_number <= MAX_HANDS:
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
        else:
            state = apply(state, choose(state, rng))
        yield state


def played_cards(state: State) -> CardSet:
    """Cards played this hand: finished tricks and the trick in progress."""
    pub = state.public
    played = CardSet(pub.trick)
    for trick in pub.tricks:
        played |= CardSet(trick.cards)
    return played


def public_facts(public: PublicState) -> tuple[object, ...]:
    """Values every seat may know: the rules, the deck of this table (it follows from the rules and
    the player count) and, once trump is known, its trump order (which names the jack and jick)."""
    facts: list[object] = [public.rules, deck(public.rules, public.players)]
    if public.trump is not None:
        facts.append(order_for(public.rules, public.trump))
    return tuple(facts)


def mentioned_cards(value: object, facts: Sequence[object] = ()) -> CardSet:
    """Every card a value mentions, walking tuples (named or not), lists, dicts, sets, dataclasses
    and CardSets, but not inside a value equal to one of ``facts`` (see :func:`public_facts`).
    Fails on a type it does not know, so a new kind of field is looked at."""
    found: set[Card] = set()
    fact_types = {type(fact) for fact in facts}
    _walk(value, found, facts, fact_types)
    return CardSet(found)


# What _walk does with a value, by its type.
_CARD, _SCALAR, _CARDSET, _DICT, _COLLECTION, _DATACLASS, _UNKNOWN = range(7)


_KINDS: dict[type, int] = {}


def _kind(kind: type) -> int:
    """What a value of type ``kind`` is to :func:`_walk` (found once per type: the walk sees
    millions of values of a few dozen types)."""
    known = _KINDS.get(kind)
    if known is None:
        known = _KINDS[kind] = _find_kind(kind)
    return known


def _find_kind(kind: type) -> int:
    if issubclass(kind, Card):
        return _CARD
    if kind is type(None) or issubclass(kind, bool | int | float | str | Enum):
        return _SCALAR
    if issubclass(kind, CardSet):
        return _CARDSET
    if issubclass(kind, dict):
        return _DICT
    if issubclass(kind, tuple | list | set | frozenset):
        return _COLLECTION
    if dataclasses.is_dataclass(kind):
        return _DATACLASS
    return _UNKNOWN


def _walk(value: object, found: set[Card], facts: Sequence[object], fact_types: set[type]) -> None:
    kind = _kind(type(value))
    if kind == _CARD:
        found.add(cast(Card, value))
        return
    if kind == _SCALAR or (type(value) in fact_types and _is_fact(value, facts)):
        return
    if kind == _CARDSET:
        found.update(cast(CardSet, value))
    elif kind == _DICT:
        for key, item in cast(dict[object, object], value).items():
            _walk(key, found, facts, fact_types)
            _walk(item, found, facts, fact_types)
    elif kind == _COLLECTION:
        items = cast(Collection[object], value)
        if all(type(item) is int for item in items):  # scores, seats, bitmask tables: no Card
            return
        if all(type(item) is Card for item in items):
            found.update(cast(Collection[Card], items))
            return
        for item in items:
            _walk(item, found, facts, fact_types)
    elif kind == _DATACLASS:
        value_type: type = type(value)
        for name in _field_names(value_type):
            _walk(getattr(value, name), found, facts, fact_types)
    else:
        raise AssertionError(f"unexpected {type(value).__name__} in a view: {value!r}")


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


def _is_fact(value: object, facts: Sequence[object]) -> bool:
    return any(type(value) is type(fact) and (value is fact or value == fact) for fact in facts)


def union(sets: Iterable[CardSet]) -> CardSet:
    total = CardSet()
    for item in sets:
        total |= item
    return total


def run_bench(path: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a benchmark script with this interpreter; its output as text."""
    return subprocess.run(
        [sys.executable, str(path), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def assert_refused(path: Path, cases: Sequence[tuple[Sequence[str], str]]) -> None:
    """Each of ``cases`` (arguments, part of the message) is refused by the benchmark with a usage
    error (exit 2) that says why."""
    for arguments, message in cases:
        refused = run_bench(path, *arguments, timeout=60)
        assert refused.returncode == 2, arguments
        assert message in refused.stderr, refused.stderr


def closing_figures(run: subprocess.CompletedProcess[str], names: Sequence[str]) -> dict[str, float]:
    """A benchmark's closing ``name: 1.234`` lines, one per name in ``names`` and in that order."""
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()[-len(names) :]
    found = {}
    for line in lines:
        match = re.fullmatch(r"(\w+): (-?\d+\.\d{3})", line)
        assert match, lines
        found[match[1]] = float(match[2])
    assert list(found) == list(names), lines
    return found


def client_sources() -> list[Path]:
    """The client's code: every .ts and .tsx file under web/src but its tests and test fixtures."""
    files = [*WEB_SRC.rglob("*.ts"), *WEB_SRC.rglob("*.tsx")]
    return sorted(
        path
        for path in files
        if ".test." not in path.name and "test" not in path.relative_to(WEB_SRC).parts[:-1]
    )
