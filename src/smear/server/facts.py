"""The rules facts the server publishes, so that a client keeps no copy of the rules: for every
preset, the table sizes it allows and how its teams sit, the options it offers and their defaults,
the deal at each table size and its points; the table settings a client may choose from; and the
limits, reactions and shapes the server checks what a client sends against.

Everything here is read from :mod:`smear.rules`, the engine (``team_sides``) and the constants the
server validates with (:mod:`smear.server.wire.protocol`, :mod:`smear.server.social.chat`, the server's
:class:`~smear.server.limits.Limits`): the server is the only authority. ``GET /api/presets``
answers :func:`presets_json` (see docs/protocol.md).

>>> facts = preset_facts(find_rules("house"))
>>> facts["players"], facts["team_players"], facts["team_layout"]
([3, 4, 5, 6, 7, 8], [4, 6, 8], 'across')
>>> [(t["players"], t["deck"], t["cards_dealt"], t["sleeping"]) for t in facts["tables"]][:2]
[(3, 22, 6, 4), (4, 30, 6, 6)]
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any, Final

from pydantic import TypeAdapter

from smear.bots import table_bots
from smear.cards import GAME_VALUES, Rank, Suit
from smear.dealing import team_sides
from smear.rules import ELIMINATION_SCORE, PRESETS, Rules, find_rules
from smear.server.limits import Limits
from smear.server.social.chat import CHAT_REMEMBERED
from smear.server.storage.schema import REPORT_REASONS
from smear.server.wire.protocol import (
    CHAT_LENGTH,
    MAX_SEATS,
    NAME_LENGTH,
    REACTIONS,
    REPORT_TEXT_MAX,
    TARGETS,
    TRANSFER_CODE_GROUP,
    TRANSFER_CODE_LENGTH,
    TRANSFER_CODE_LETTERS,
    TURN_TIMERS,
    CreateTable,
    PlayerId,
    TableCode,
)

__all__ = [
    "DEFAULT_PRESET",
    "MOON_RESET_SCORE",
    "limits_facts",
    "preset_facts",
    "presets_json",
    "rules_fields",
    "settings_facts",
    "shapes_facts",
]

# The preset a new table starts from (RULES.md: house is the default).
DEFAULT_PRESET = "house"

# The score a moon made from below zero resets the bidding side to, instead of winning the match
# (smear.scoring settles it so; tests/server/test_facts.py plays such a moon to check this figure).
MOON_RESET_SCORE = 0


def _json_value(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    return value


def rules_fields(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` by its name, as JSON (tuples as lists, enums as their values)."""
    return {field.name: _json_value(getattr(rules, field.name)) for field in dataclasses.fields(rules)}


# Table sizes where the usual game is played by partners: a new table of these sizes has teams on,
# where its preset allows them (a size that allows only one way is played that way).
USUALLY_PARTNERS: Final = (4, 6)


def teams_by_default(rules: Rules, players: int) -> bool:
    """Whether a new table of ``players`` starts with teams (``teams_default`` in its facts).

    >>> from smear.rules import find_rules
    >>> [teams_by_default(find_rules("house"), n) for n in (3, 4, 5, 6, 8)]
    [False, True, False, True, False]
    """
    if players not in rules.team_player_counts:
        return False
    return players in USUALLY_PARTNERS or players not in rules.player_counts


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
    sides = team_sides(players, rules.alternate_teams) if teams else None
    sleeping = undealt - rules.widow - stock
    return {
        "players": players,
        "without_teams": players in rules.player_counts,
        "with_teams": teams,
        "teams_default": teams_by_default(rules, players),
        # The sides of a team game: lists of seats (teams are drawn by seating people at random).
        "teams": [list(side) for side in sides] if sides else None,
        "team_count": len(sides) if sides else None,
        "deck": deck.bit_count(),
        "ranks": ranks,  # the ranks of each suit in this deck, lowest first
        "jokers": rules.jokers,
        "cards_dealt": dealt,
        "hand_size": rules.hand_size,
        "widow": rules.widow,
        "stock": stock,
        "sleeping": sleeping,
        # What still sleeps once the kitty the preset offers is taken out of the sleeping cards.
        "sleeping_with_kitty": sleeping - rules.kitty_option,
    }


def preset_facts(rules: Rules) -> dict[str, Any]:
    """What a client needs to know of one preset before a match: see docs/protocol.md."""
    options: dict[str, Any] = {
        "target": {"default": rules.target, "choices": list(TARGETS)},
        "shoot_the_moon": {
            "default": rules.shoot_the_moon,
            "bid": rules.max_bid + 1,
            "reset_score": MOON_RESET_SCORE,
        },
        "elimination": {"default": bool(rules.elimination), "score": ELIMINATION_SCORE},
    }
    if rules.kitty_option:
        # held: the bidder's cards once it has picked up the kitty, before it puts as many back.
        held = rules.hand_size + rules.kitty_option
        options["kitty"] = {"default": bool(rules.kitty), "cards": rules.kitty_option, "held": held}
    sizes = sorted(set(rules.player_counts) | set(rules.team_player_counts))
    return {
        "name": rules.name,
        "players": list(rules.player_counts),
        "team_players": list(rules.team_player_counts),
        "team_layout": "alternate" if rules.alternate_teams else "across",
        "trump": "named" if rules.trump_named else "first_lead",
        "bids": {"min": rules.min_bid, "max": rules.max_bid},
        "target": rules.target,
        # The usual deal; each entry of "tables" says what is dealt at its size.
        "cards_dealt": rules.cards_dealt,
        "hand_size": rules.hand_size,
        "points": list(rules.points),
        "point_values": dict(rules.point_values),
        "points_total": sum(rules.point_values.values()),
        # What each rank counts towards Game, and the cards of a full pack (jokers aside) the deck
        # is cut down from: the same in every preset, sent so that no page writes them down.
        "game_values": {rank.letter: GAME_VALUES[rank - Rank.TWO] for rank in Rank},
        "pack_cards": len(Rank) * len(Suit),
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
        "bot_level": {"default": fields["bot_level"].default, "choices": list(table_bots())},
        "hints": {"default": fields["hints"].default},
    }


def limits_facts(limits: Limits) -> dict[str, Any]:
    """The lengths the server refuses beyond: a name and a chat line in code points of their NFC
    form once trimmed, the chat lines a table keeps, the bytes of a record sent to be replayed, and
    a report's reasons and the longest line it may carry."""
    return {
        "name_length": NAME_LENGTH,
        "chat_length": CHAT_LENGTH,
        "chat_lines": CHAT_REMEMBERED,
        "record_bytes": limits.record_bytes,
        "report_reasons": list(REPORT_REASONS),
        "report_length": min(limits.report_text, REPORT_TEXT_MAX),
    }


def _string_shape(kind: Any) -> dict[str, Any]:
    """The pattern and lengths of a constrained string type of the protocol, from its JSON schema."""
    schema = TypeAdapter(kind).json_schema()
    return {
        "pattern": schema["pattern"],
        "min_length": schema["minLength"],
        "max_length": schema["maxLength"],
    }


def shapes_facts() -> dict[str, Any]:
    """The shapes of the codes a client reads from an address or from what a person types."""
    return {
        "table_code": _string_shape(TableCode),
        "player_id": _string_shape(PlayerId),
        "transfer_code": {
            "alphabet": TRANSFER_CODE_LETTERS,
            "length": TRANSFER_CODE_LENGTH,
            "group": TRANSFER_CODE_GROUP,
        },
    }


def presets_json(limits: Limits | None = None) -> dict[str, Any]:
    """Every preset's facts, in the order of :data:`smear.rules.PRESETS`, the table settings, and
    the limits (``limits``: the server's, the defaults when None), reactions and shapes."""
    return {
        "presets": [preset_facts(rules) for rules in PRESETS.values()],
        "default_preset": find_rules(DEFAULT_PRESET).name,
        "settings": settings_facts(),
        "limits": limits_facts(limits or Limits()),
        "reactions": list(REACTIONS),
        "shapes": shapes_facts(),
    }
