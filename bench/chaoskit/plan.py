"""What the chaos benchmark plays and keeps: its timings, the tables it plans, the move a person
chooses, and what each client saw acknowledged and resumed."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from smear.actions import parse_action
from smear.bots import random_action
from smear.rules import PRESETS

TARGET = 11  # short matches, so that they finish
THINK = (0.005, 0.06)  # seconds a person waits before acting (uniform)
CONNECT_TIMEOUT = 10.0
ACK_TIMEOUT = 30.0  # a safety net only: a lost connection ends the wait for an ack at once
RETRY_PAUSE = (0.02, 0.5)  # first and longest pause between two attempts to reconnect (or to send)
STORE_ATTEMPTS = 8  # times a request answered not_stored is sent, while no newer state comes
PROBLEMS_SHOWN = 12  # problems printed, of each kind


# --- what the tables are -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TablePlan:
    """One table's settings and how many of its seats are people (the others are bots)."""

    preset: str
    players: int
    teams: bool
    people: int
    bot_level: str
    shoot_the_moon: bool
    elimination: bool
    kitty: bool

    def create_payload(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "preset": self.preset,
            "players": self.players,
            "teams": self.teams,
            "target": TARGET,
            "bot_level": self.bot_level,
            "hints": False,
            "shoot_the_moon": self.shoot_the_moon,
            "elimination": self.elimination,
            "kitty": self.kitty,
        }

    def describe(self) -> str:
        options = [o for o in ("shoot_the_moon", "elimination", "kitty") if getattr(self, o)]
        teams = "teams" if self.teams else "singles"
        extra = f", {'+'.join(options)}" if options else ""
        return f"{self.preset} {self.players} {teams}, {self.people} people, {self.bot_level} bots{extra}"


def plan_tables(count: int, rng: random.Random) -> list[TablePlan]:
    """Every preset in turn, with a table size, teams and options it allows, drawn at random."""
    plans = []
    presets = list(PRESETS)
    for index in range(count):
        preset = presets[index % len(presets)]
        rules = PRESETS[preset]
        sizes = [(n, False) for n in rules.player_counts] + [(n, True) for n in rules.team_player_counts]
        players, teams = rng.choice(sizes)
        plans.append(
            TablePlan(
                preset=preset,
                players=players,
                teams=teams,
                people=rng.randint(1, min(players, 4)),
                bot_level=rng.choice(("heuristic", "random")),
                shoot_the_moon=rng.random() < 0.4,
                elimination=rng.random() < 0.6,  # matches of random play end sooner with it
                kitty=bool(rules.kitty_option) and rng.random() < 0.5,
            )
        )
    return plans


def view_key(game: Any) -> bytes:
    """A digest of a view as JSON, the same for the view sent and the one rebuilt from storage."""
    text = json.dumps(game, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def choose_action(game: dict[str, Any], rng: random.Random) -> str:
    """A random legal action; for a discard with too many choices to list, one built from ``discard``.

    Drawn as the project's random bot draws (mostly passing in the auction): uniform bids would set
    the bidder nearly every hand, and where only the bidder can win (nine_card) no match would end.
    """
    legal: list[str] = [action["text"] for action in game.get("legal") or []]
    if legal:
        actions = [parse_action(text) for text in legal]
        return legal[actions.index(random_action(actions, rng))]  # the text as the server wrote it
    discard = game["discard"]
    required = list(discard["required"])
    pool = [card for card in discard["choosable"] if card not in required]
    cards = required + rng.sample(pool, discard["count"] - len(required))
    return " ".join(["discard", *cards])


# --- what the clients saw ------------------------------------------------------------------------


@dataclass(frozen=True)
class Acked:
    """An action acknowledged with ok, and the view it was chosen from."""

    table: str
    match: int
    seat: int
    action: str
    view: bytes


@dataclass(frozen=True)
class Resumed:
    """The first view after a ``resume``, and the views it may not be behind."""

    table: str
    match: int
    seat: int
    view: bytes
    last_acked: bytes | None  # the view of the last action this seat had acknowledged in this match
    last_seen: bytes | None  # the last view this client saw of this match before


@dataclass
class Tally:
    """Everything the clients saw that the checks need."""

    acked: list[Acked] = field(default_factory=list)
    matches_started: list[tuple[str, int]] = field(default_factory=list)  # play_again acknowledged
    resumed: list[Resumed] = field(default_factory=list)
    # Every view received, per (table, match, seat).
    seen: defaultdict[tuple[str, int, int], set[bytes]] = field(default_factory=lambda: defaultdict(set))
    backwards: list[str] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    takeovers: int = 0  # full states (resync) received outside a resume: a new owner took the table over
    built_discards: int = 0  # discards with too many choices to list, built from ``discard``
