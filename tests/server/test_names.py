"""Names that show nothing are refused wherever a name is taken (protocol.py's Name): at a table's
door, in a spectator's chat line and for a profile; ordinary names in any script, and emoji, pass.
A person named like a bot is a person wherever the server shows the name."""

from __future__ import annotations

import asyncio
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, Session, get_json, http_json, play_out, session

from smear.server.players.api import NewProfile, Rename
from smear.server.wire.protocol import CreateTable, JoinTable, ProtocolError, parse_inbound, parse_message

TABLE = "kitchen-42"

# Names that show nothing, or hide something: each is refused.
SHOW_NOTHING = {
    "zero-width space": "\u200b",
    "zero-width non-joiner": "\u200c",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "tag characters": "\U000e0041\U000e0064\U000e0061",
    "cancel tag": "\U000e007f",
    "soft hyphen (Cf)": "\u00ad",
    "invisible times (Cf)": "\u2062",
    "Mongolian vowel separator (Cf)": "\u180e",
    "variation selector alone": "\ufe0f",
    "supplementary variation selector alone": "\U000e0100",
    "combining accent alone": "\u0301",
    "Hangul filler": "\u3164",
    "Hangul fillers": "\u3164\u3164\u3164",
    "braille blank": "\u2800",
    "Hangul choseong filler": "\u115f",
    "Hangul jungseong filler": "\u1160",
    "halfwidth Hangul filler": "\uffa0",
    "fillers and spaces": "\u3164 \u2800\u3000\uffa0",
    "ideographic spaces": "\u3000\u3000",
    "em and thin spaces": "\u2003\u2009",
    "no-break space": "\u00a0",
    "joiners and fillers": "\u200d\u3164\u200d",
}

# Visible names carrying a hidden character: they would look like another name.
HIDE_SOMETHING = {
    "zero-width space inside": "A\u200bda",
    "zero-width space after": "Ada\u200b",
    "word joiner inside": "Ex\u2060pert",
    "byte order mark before": "\ufeffAda",
    "tag characters after": "Bo\U000e0041",
    "joiner at the start": "\u200dAnn",
    "joiner at the end": "Ann\u200d",
    "joiner before a space": "Ann\u200d Lee",
}

ACCEPTED = {
    "French": "Zoë Ça",
    "Polish": "Łukasz",
    "Greek": "Ἀθηνᾶ",
    "Japanese": "山田太郎",
    "Arabic": "محمد",
    "Russian": "Нина",
    "Hindi": "विवेक",
    "Korean": "김민준",
    "Persian, with a non-joiner": "نیما\u200cجان",
    "emoji": "Sam 🂡🎉",
    "emoji with a skin tone and joiner": "👩🏽\u200d💻 Ana",
    "flag with a variation selector and joiner": "🏳\ufe0f\u200d🌈",
    "keycap": "1\ufe0f\u20e3",
    "decomposed accent": "Ma\u0301rio",
    "space inside": "Mary Ann",
}


def _join(name: str) -> dict[str, Any]:
    return {"table": TABLE, "name": name}


def _problem(event: str, fields: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse_inbound(event, fields)
    assert caught.value.code == "invalid_message"
    assert caught.value.args_map["field"] == "name"
    return str(caught.value.args_map["problem_code"])


@pytest.mark.parametrize("name", SHOW_NOTHING.values(), ids=SHOW_NOTHING.keys())
def test_a_name_that_shows_nothing_is_refused_everywhere(name: str) -> None:
    assert _problem("join_table", _join(name)) in {"name_invisible", "string_too_short"}
    create = {"name": name, "preset": "house", "players": 4, "teams": True}
    assert _problem("create_table", create) in {"name_invisible", "string_too_short"}
    assert _problem("chat", {"table": TABLE, "name": name, "text": "hello"}) in {
        "name_invisible",
        "string_too_short",
    }
    for model in (NewProfile, Rename):
        with pytest.raises(ProtocolError):
            parse_message(model, {"name": name})


@pytest.mark.parametrize("name", HIDE_SOMETHING.values(), ids=HIDE_SOMETHING.keys())
def test_a_name_hiding_a_format_character_is_refused(name: str) -> None:
    assert _problem("join_table", _join(name)) == "name_hidden"
    with pytest.raises(ProtocolError) as caught:
        parse_message(NewProfile, {"name": name})
    assert caught.value.args_map["problem_code"] == "name_hidden"


def test_the_probes_are_the_kinds_the_rule_names() -> None:
    """The refused probes cover every kind: format characters (Cf), spaces (Zs), marks alone (Mn)
    and the fillers drawn as blank."""
    kinds = {unicodedata.category(char) for name in SHOW_NOTHING.values() for char in name}
    assert {"Cf", "Zs", "Mn", "Lo", "So"} <= kinds


@pytest.mark.parametrize("name", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_ordinary_names_in_any_script_and_emoji_are_accepted(name: str) -> None:
    expected = unicodedata.normalize("NFC", name)
    join = parse_inbound("join_table", _join(name))
    assert isinstance(join, JoinTable) and join.name == expected
    create = parse_inbound("create_table", {"name": name, "preset": "house", "players": 4, "teams": True})
    assert isinstance(create, CreateTable) and create.name == expected
    assert parse_message(NewProfile, {"name": name}).name == expected


async def _seated(s: Session, table: str | None, name: str) -> tuple[Client, str]:
    """A client seated under ``name`` with a profile of that name (creating the table if None)."""
    status, profile = await http_json("POST", f"{s.url}/api/players", {"name": name})
    assert status == 201, profile
    proof = {"player": profile["player"], "secret": profile["secret"]}
    client = await s.connect()
    if table is None:
        fields = {"name": name, "preset": "house", "players": 3, "teams": False, "target": 11}
        reply = await client.call("create_table", {**fields, "profile": proof})
    else:
        reply = await client.call("join_table", {"table": table, "name": name, "profile": proof})
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    return client, str(profile["player"])


def test_a_person_named_like_a_bot_is_flagged_a_person_wherever_the_name_is_shown(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host, expert = await _seated(s, None, "expert bot")
            assert (await host.send("set_bot", seat=1, bot=True))["ok"]
            bot_name = (await host.wait_for(lambda st: st["table"]["seats"][1]["bot"]))["table"]["seats"][1][
                "name"
            ]
            twin, ada = await _seated(s, host.table, bot_name)  # the bot's own name at its table
            state = await host.wait_for(lambda st: not st["table"]["seats"][2]["open"])
            assert [(seat["name"], seat["bot"]) for seat in state["table"]["seats"]] == [
                ("expert bot", False),
                (bot_name, True),
                (bot_name, False),
            ]
            assert (await host.send("start"))["ok"]
            await play_out([host, twin])
            final = await host.wait_for(lambda st: st["table"]["status"] == "finished")
            flags = {seat["player"]: seat["bot"] for seat in final["table"]["seats"]}
            assert flags == {expert: False, ada: False, "bot-heuristic": True}
            _, page = await get_json(f"{s.url}/api/players/{ada}/matches")
            shown = {entry["player"]: entry["bot"] for entry in page["matches"][0]["players"]}
            assert shown == flags
            _, replay = await get_json(f"{s.url}/api/matches/{page['matches'][0]['match']}/replay")
            assert {entry["player"]: entry["bot"] for entry in replay["match"]["players"]} == flags
            # A record holds each name once: the later seat of a name is numbered.
            assert replay["record"]["players"] == ["expert bot", bot_name, f"{bot_name} (2)"]
            _, board = await get_json(f"{s.url}/api/leaderboard/house")
            on_board = {entry["player"]: entry["bot"] for entry in board}
            assert on_board[expert] is False and on_board[ada] is False and on_board["bot-heuristic"] is True
            for player in (expert, ada):
                assert (await get_json(f"{s.url}/api/players/{player}"))[1]["bot"] is False

    asyncio.run(scenario())
