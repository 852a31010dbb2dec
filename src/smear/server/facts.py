"""The rules facts the server publishes, so that a client keeps no copy of the rules: for every
preset, the table sizes it allows and how its teams sit, the options it offers and their defaults,
the deal at each table size and its points; and the table settings a client may choose from.

Everything here is read from :mod:`smear.rules` and the engine (``team_sides``): the server is the
only authority. ``GET /api/presets`` answers :func:`presets_json` (see docs/protocol.md).

>>> facts = preset_facts(find_rules("house"))
>>> facts["players"], facts["team_players"], facts["team_layout"]
([3, 4, 5, 6, 7, 8], [4, 6, 8], 'across')
>>> [(t["players"], t["deck"], t["cards_dealt"], t["sleeping"]) for t in facts["tables"]][:2]
[(3, 22, 6, 4), (4, 30, 6, 6)]
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from smear.bots import bot_names
from smear.cards import Rank
from smear.dealing import team_sides
from smear.rules import ELIMINATION_SCORE, PRESETS, Rules, find_rules
from smear.server.protocol import MAX_SEATS, TARGETS, TURN_TIMERS, CreateTable

__all__ = ["DEFAULT_PRESET", "preset_facts", "presets_json", "rules_fields", "settings_facts"]

# The preset a new table starts from (RULES.md: house is the default).
DEFAULT_PRESET = "house"


def _json_value(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    return value


def rules_fields(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` by its name, as JSON (tuples as lists, enums as their values)."""
    return {field.name: _json_value(getattr(rules, field.name)) for field in dataclasses.fields(rules)}


def _table_facts(rules: Rules, players: int) -> dict[str, Any]:
    """The deal at one table size: the deck, the cards each player is dealt, and where the
    undealt cards go (a widow, a stock players draw from, or sleeping out of play)."""
    deck = rules.deck_mask(players)
    dealt = rules.dealt_for(players)
    undealt = deck.bit_count() - players * dealt
    draws_from_stock = rules.refill or rules.take_stock
    stock = undealt - rules.widow if draws_from_stock else 0
    ranks = [rank.letter for rank in Rank if deck >> (rank - 2) & 1]  # the same in every suit
    teams = players in rules.team_player_counts
    return {
        "players": players,
        "without_teams": players in rules.player_counts,
        "with_teams": teams,
        # The sides of a team game: lists of seats (teams are drawn by seating people at random).
        "teams": [list(side) for side in team_sides(players, rules.alternate_teams)] if teams else None,
        "deck": deck.bit_count(),
        "ranks": ranks,  # the ranks of each suit in this deck, lowest first
        "jokers": rules.jokers,
        "cards_dealt": dealt,
        "hand_size": rules.hand_size,
        "widow": rules.widow,
        "stock": stock,
        "sleeping": undealt - rules.widow - stock,
    }


def preset_facts(rules: Rules) -> dict[str, Any]:
    """What a client needs to know of one preset before a match: see docs/protocol.md."""
    options: dict[str, Any] = {
        "target": {"default": rules.target, "choices": list(TARGETS)},
        "shoot_the_moon": {"default": rules.shoot_the_moon, "bid": rules.max_bid + 1},
        "elimination": {"default": bool(rules.elimination), "score": ELIMINATION_SCORE},
    }
    if rules.kitty_option:
        options["kitty"] = {"default": bool(rules.kitty), "cards": rules.kitty_option}
    sizes = sorted(set(rules.player_counts) | set(rules.team_player_counts))
    return {
        "name": rules.name,
        "players": list(rules.player_counts),
        "team_players": list(rules.team_player_counts),
        "team_layout": "alternate" if rules.alternate_teams else "across",
        "trump": "named" if rules.trump_named else "first_lead",
        "bids": {"min": rules.min_bid, "max": rules.max_bid},
        "target": rules.target,
        "hand_size": rules.hand_size,
        "points": list(rules.points),
        "point_values": dict(rules.point_values),
        "options": options,
        "tables": [_table_facts(rules, players) for players in sizes],
        "rules": rules_fields(rules),
    }


def settings_facts() -> dict[str, Any]:
    """The table settings that are not rules, with the choices and defaults of ``create_table``."""
    fields = CreateTable.model_fields
    return {
        "max_players": MAX_SEATS,
        "turn_timer": {"default": fields["turn_timer"].default, "choices": list(TURN_TIMERS)},
        "bot_level": {"default": fields["bot_level"].default, "choices": list(bot_names())},
        "hints": {"default": fields["hints"].default},
    }


def presets_json() -> dict[str, Any]:
    """Every preset's facts, in the order of :data:`smear.rules.PRESETS`, and the table settings."""
    return {
        "presets": [preset_facts(rules) for rules in PRESETS.values()],
        "default_preset": find_rules(DEFAULT_PRESET).name,
        "settings": settings_facts(),
    }
