"""The rules facts the server publishes (``GET /api/presets``) are the engine's own: every preset is
walked and its facts compared with smear.rules and with matches the engine deals."""

from __future__ import annotations

import asyncio
import doctest
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from serverkit import running_server

import smear.server.facts
from smear import PRESETS, JokerRank, Rules, new_match
from smear.bots import table_bots
from smear.cards import CARDS
from smear.rules import ELIMINATION_SCORE, option_changes
from smear.scoring import settle_hand
from smear.server.facts import MOON_RESET_SCORE, preset_facts, presets_json
from smear.server.tables.table import TableError, TableSettings
from smear.server.wire.protocol import MAX_SEATS, TARGETS, TURN_TIMERS, parse_inbound

# A card in record notation.
CARD = re.compile(r"(?:10|[2-9TJQKA])[cdhs]|BJ|LJ")


def rules_from(fields: dict[str, Any]) -> Rules:
    """A Rules value from its published fields, built field by field (lists back to tuples)."""
    values: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "joker_rank":
            values[name] = JokerRank(value)
        elif isinstance(value, list):
            values[name] = tuple(tuple(item) if isinstance(item, list) else item for item in value)
        else:
            values[name] = value
    return Rules(**values)


def published() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(presets_json(), allow_nan=False))
    return data


def test_every_preset_is_published_in_order_with_its_rules() -> None:
    data = published()
    assert [facts["name"] for facts in data["presets"]] == list(PRESETS)
    for facts in data["presets"]:
        rules = PRESETS[facts["name"]]
        assert rules_from(facts["rules"]) == rules
        assert facts["players"] == list(rules.player_counts)
        assert facts["team_players"] == list(rules.team_player_counts)
        assert facts["team_layout"] == ("alternate" if rules.alternate_teams else "across")
        assert facts["trump"] == ("named" if rules.trump_named else "first_lead")
        assert facts["bids"] == {"min": rules.min_bid, "max": rules.max_bid}
        assert facts["target"] == rules.target and facts["hand_size"] == rules.hand_size
        assert facts["points"] == list(rules.points)
        assert facts["point_values"] == dict(rules.point_values)
        assert facts["points_total"] == sum(rules.point_values.values())
        assert facts["cards_dealt"] == rules.cards_dealt
    assert data["default_preset"] == "house"


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_table_size_is_dealt_as_published(name: str) -> None:
    """Deal a match at every size the preset allows, with and without teams, and compare."""
    rules = PRESETS[name]
    facts = preset_facts(rules)
    sizes = sorted(set(rules.player_counts) | set(rules.team_player_counts))
    assert [table["players"] for table in facts["tables"]] == sizes
    for table in facts["tables"]:
        players = table["players"]
        assert table["without_teams"] == (players in rules.player_counts)
        assert table["with_teams"] == (players in rules.team_player_counts)
        for teams in (False, True):
            if not table["with_teams" if teams else "without_teams"]:
                continue
            state = new_match(rules, players, teams, seed=players)
            pub = state.public
            if teams:
                assert table["teams"] == [list(side) for side in pub.sides]
                assert table["team_count"] == len(pub.sides)
            assert table["deck"] == len(pub.deck)
            assert table["cards_dealt"] == pub.dealt_count == len(state.hand(0))
            assert table["hand_size"] == rules.hand_size
            assert table["jokers"] == sum(1 for card in pub.deck if card.is_joker)
            ranks = {card.rank for card in pub.deck if card.rank is not None}
            assert table["ranks"] == [rank.letter for rank in sorted(ranks)]
            undealt = len(state.out)
            assert table["widow"] + table["stock"] + table["sleeping"] == undealt
            assert table["widow"] == rules.widow
            drawn_from = rules.refill or rules.take_stock
            assert table["stock"] == (undealt - rules.widow if drawn_from else 0)
            if rules.kitty_option:
                with_kitty = new_match(rules.with_changes(kitty=rules.kitty_option), players, teams, seed=1)
                kitty_out = len(with_kitty.out) - rules.kitty_option - table["widow"] - table["stock"]
                assert table["sleeping_with_kitty"] == kitty_out
            else:
                assert table["sleeping_with_kitty"] == table["sleeping"]
        if not table["with_teams"]:
            assert table["teams"] is None and table["team_count"] is None


def test_the_options_each_preset_offers_are_the_ones_a_table_accepts() -> None:
    for facts in published()["presets"]:
        name = facts["name"]
        rules = PRESETS[name]
        options = facts["options"]
        assert options["target"] == {"default": rules.target, "choices": list(TARGETS)}
        moon = {"default": False, "bid": rules.max_bid + 1, "reset_score": MOON_RESET_SCORE}
        assert options["shoot_the_moon"] == moon
        assert options["elimination"] == {"default": False, "score": ELIMINATION_SCORE}
        assert options["shoot_the_moon"]["bid"] == rules.with_changes(shoot_the_moon=True).top_bid
        changes = option_changes(rules, elimination=True)
        assert rules.with_changes(**changes).elimination == options["elimination"]["score"]
        players = facts["tables"][0]["players"]
        teams = not facts["tables"][0]["without_teams"]
        settings = TableSettings(name, players, teams, kitty=True)
        if rules.kitty_option:
            held = rules.hand_size + rules.kitty_option
            assert options["kitty"] == {"default": False, "cards": rules.kitty_option, "held": held}
            assert settings.rules().kitty == options["kitty"]["cards"]
            settings.check()
        else:
            assert "kitty" not in options
            with pytest.raises(TableError, match="rules_refused"):
                settings.check()


def test_the_table_settings_are_those_create_table_takes() -> None:
    settings = published()["settings"]
    assert settings["turn_timer"] == {"default": 0, "choices": list(TURN_TIMERS)}
    assert settings["bot_level"] == {"default": "heuristic", "choices": list(table_bots())}
    assert settings["hints"] == {"default": True}
    created = parse_inbound("create_table", {"name": "Ada", "preset": "house", "players": 4, "teams": False})
    assert created.turn_timer == settings["turn_timer"]["default"]  # type: ignore[attr-defined]
    assert created.bot_level == settings["bot_level"]["default"]  # type: ignore[attr-defined]
    largest = max(facts["tables"][-1]["players"] for facts in published()["presets"])
    assert settings["max_players"] == MAX_SEATS >= largest


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (key, *strings(item))]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return []


def test_the_facts_name_no_card() -> None:
    words = [word for text in strings(published()) for word in text.split()]
    assert words and not [word for word in words if CARD.fullmatch(word)]
    assert CARD.fullmatch("Td") and CARD.fullmatch("BJ")


def test_the_server_answers_the_facts_over_http(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db") as (_, url):

            def fetch() -> tuple[int, dict[str, str], Any]:
                with urllib.request.urlopen(url + "/api/presets", timeout=10) as response:
                    return response.status, dict(response.headers), json.loads(response.read())

            status, headers, body = await asyncio.to_thread(fetch)
            assert status == 200 and body == published()
            assert headers["content-type"] == "application/json"
            assert headers["x-content-type-options"] == "nosniff"

    asyncio.run(scenario())


def test_doctest() -> None:
    assert doctest.testmod(smear.server.facts).failed == 0


def test_the_web_clients_fixture_is_the_servers_answer() -> None:
    """web/src/test/presets.json feeds the client's unit tests: it must be what the server says now
    (write it again with ``scripts/make-fixtures`` when a preset or its facts change)."""
    fixture = Path(__file__).resolve().parents[2] / "web" / "src" / "test" / "presets.json"
    stale = "web/src/test/presets.json is not the server's answer: run scripts/make-fixtures"
    assert json.loads(fixture.read_text(encoding="utf-8")) == published(), stale


def test_every_preset_sends_the_game_values_and_the_full_pack_the_engine_counts_with() -> None:
    for facts in published()["presets"]:
        assert facts["pack_cards"] == len(CARDS) - 2  # the jokers aside
        for card in CARDS:
            if not card.is_joker:
                assert facts["game_values"][str(card)[0]] == card.game_value, card


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_moon_made_from_below_zero_resets_to_the_published_score(name: str) -> None:
    """The engine settles such a moon; the published reset score is the score it leaves."""
    rules = PRESETS[name].with_changes(shoot_the_moon=True)
    moon = preset_facts(PRESETS[name])["options"]["shoot_the_moon"]
    settled = settle_hand(rules, (-5, 3), (rules.max_bid, 0), 0, moon["bid"])
    assert settled.made and settled.winner is None
    assert settled.scores[0] == moon["reset_score"]


def test_a_new_table_of_four_or_six_starts_with_partners_where_its_preset_allows_them() -> None:
    """The default is the server's fact (``teams_default``), not a client's constant: a new table
    of four used to start without teams while Play now and the usual game have partners."""
    for preset in published()["presets"]:
        for table in preset["tables"]:
            players, with_teams, without = table["players"], table["with_teams"], table["without_teams"]
            expected = with_teams and (players in (4, 6) or not without)
            assert table["teams_default"] is expected, (preset["name"], players)
    house = next(p for p in published()["presets"] if p["name"] == "house")
    assert {t["players"]: t["teams_default"] for t in house["tables"]}[4] is True
