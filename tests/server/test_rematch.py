"""A rematch: after a match every person says whether to play again, the host whether partners are
drawn anew; the next match starts once every person seated has accepted (bots accept at once), and a
person who leaves is replaced by a bot, which accepts."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import FAST, play_out, session
from tablechecks import play_table, refused

from smear.server.tables.table import Seat, Table, TableError, TableSettings, hash_token


def finished_table(teams: bool = True) -> tuple[Table, list[str]]:
    """A table of four people whose match is over (played out to its end), and their tokens."""
    settings = TableSettings(preset="house", players=4, teams=teams, target=11)
    table, host = Table.create(settings, "Ann", code="rematch-table")
    tokens = [host] + [table.join(name)[1] for name in ("Ben", "Cy", "Di")]
    table.start(host, seed=7)
    play_table(table)
    return table, tokens


def by_name(table: Table) -> dict[str, int]:
    return {seat.name or "": index for index, seat in enumerate(table.seats)}


def test_the_next_match_starts_when_every_person_has_accepted() -> None:
    table, tokens = finished_table()
    seats = by_name(table)
    ann, ben, cy, di = (tokens[0], tokens[1], tokens[2], tokens[3])
    version = table.version
    assert table.rematch(ben, ready=True, new_partners=True) is False  # not the host: no say on partners
    assert table.new_partners is False and table.rematch_ready == {seats["Ben"]}
    assert table.version == version + 1 and table.events[-1][1] == {
        "kind": "rematch",
        "seat": seats["Ben"],
        "ready": True,
    }
    assert table.rematch(ben, ready=True, new_partners=False) is False
    assert table.version == version + 1  # nothing changed: no new version
    assert table.rematch(cy, ready=True, new_partners=False) is False
    assert table.rematch(cy, ready=False, new_partners=False) is False
    assert table.rematch(cy, ready=True, new_partners=False) is False
    assert table.rematch(di, ready=True, new_partners=False) is False
    assert table.status == "finished"
    assert table.rematch(ann, ready=True, new_partners=False, seed=3) is True
    assert table.status == "playing" and table.match_number == 2
    assert by_name(table) == seats  # the same seats: partners kept
    assert table.rematch_ready == frozenset() and not table.new_partners
    with pytest.raises(TableError) as refused_now:
        table.rematch(ann, ready=True, new_partners=False)
    assert refused_now.value.code == "match_not_over"


def test_the_host_may_ask_for_new_partners_and_a_bot_accepts_at_once() -> None:
    drawn = []
    for seed in range(6):
        table, tokens = finished_table()
        table.seats[by_name(table)["Di"]] = Seat(name="Di", is_bot=True)  # Di left: a bot plays for her
        seats = by_name(table)
        assert table.rematch(tokens[0], ready=True, new_partners=True) is False
        assert table.rematch(tokens[1], ready=True, new_partners=False) is False
        assert table.rematch(tokens[2], ready=True, new_partners=False, seed=seed) is True
        drawn.append(by_name(table) != seats)
        host = table.host_seat
        assert host is not None and table.seats[host].token_hash == hash_token(tokens[0])
    assert any(drawn)  # seats are drawn anew (by chance one draw may give the same seats)


def test_without_teams_the_host_has_no_partners_to_draw() -> None:
    table, tokens = finished_table(teams=False)
    table.rematch(tokens[0], ready=True, new_partners=True)
    assert table.new_partners is False


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


def test_a_rematch_over_the_network_and_a_leaving_player_replaced_by_a_bot(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", dataclasses.replace(FAST, grace=30.0)) as s:
            host = await s.create("Ann", players=4, teams=True, target=11)
            assert host.table is not None
            ben = await s.join(host.table, "Ben")
            cy = await s.join(host.table, "Cy")
            assert (await host.send("set_bot", seat=3, bot=True))["ok"]
            refused(await ben.send("rematch", ready=True), "match_not_over")
            assert (await host.send("start"))["ok"]
            await play_out([host, ben, cy])

            reply = await ben.send("rematch", ready=True)
            assert reply["ok"] and reply["started"] is False, reply
            state = await host.wait_for(lambda st: st["version"] == reply["version"])
            assert state["table"]["rematch"] == {"ready": [ben.seat_now], "new_partners": False}
            reply = await host.send("rematch", ready=True, new_partners=True)
            assert reply["ok"] and reply["started"] is False, reply
            # Cy goes: a bot takes the seat and accepts, and the next match starts with new partners.
            reply = await cy.send("leave")
            assert reply["ok"], reply
            state = await host.wait_for(lambda st: st["table"]["match_number"] == 2)
            assert state["table"]["status"] == "playing"
            assert state["table"]["rematch"] == {"ready": [], "new_partners": False}
            names = [seat["name"] for seat in state["table"]["seats"]]
            assert sorted(names) == sorted(["Ann", "Ben", "Cy", "Ada"])
            assert [seat["bot"] for seat in state["table"]["seats"]].count(True) == 2
            stored = s.server.storage.table(host.table)
            assert (
                stored is not None and stored.current_match is not None and stored.current_match.number == 2
            )

    run(scenario)
