"""Players who come back: profiles over HTTP, the history of finished matches, statistics, ratings,
the leaderboard and replays (smear.server.players.api)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import (  # noqa: F401  (stopped_pace: a fixture, used by every test here)
    Client,
    Session,
    get_json,
    http_json,
    play_out,
    session,
    stopped_pace,
)
from sqlalchemy.exc import OperationalError
from tablechecks import cards_in

from smear.record import dump_record, parse_record, replay
from smear.server.players.ratings import BOT_START, NEW_PLAYER, Rating, rate_match
from smear.server.social import talk
from smear.server.storage.database import Storage
from smear.server.storage.playerstore import PlayerStore


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def new_profile(url: str, name: str) -> dict[str, str]:
    status, profile = await http_json("POST", f"{url}/api/players", {"name": name})
    assert status == 201, profile
    return dict(profile)


def proof(profile: dict[str, str]) -> dict[str, str]:
    return {"player": profile["player"], "secret": profile["secret"]}


async def seat_with_profile(s: Session, table: str, name: str, profile: dict[str, str]) -> Client:
    client = await s.connect()
    reply = await client.call("join_table", {"table": table, "name": name, "profile": proof(profile)})
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    return client


async def host_with_profile(s: Session, name: str, profile: dict[str, str], **settings: Any) -> Client:
    client = await s.connect()
    payload = {"name": name, "preset": "house", "players": 4, "teams": False, **settings}
    reply = await client.call("create_table", {**payload, "profile": proof(profile)})
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    return client


def test_a_profile_is_made_renamed_carried_to_another_device_and_deleted(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            url = s.url
            ann = await new_profile(url, "  Ann ")
            assert ann["name"] == "Ann" and len(ann["secret"]) >= 32 and ann["player"] != ann["secret"]
            status, shown = await get_json(f"{url}/api/players/{ann['player']}")
            assert status == 200
            assert shown == {
                "player": ann["player"],
                "name": "Ann",
                "mark": None,
                "bot": False,
                "bot_level": None,
                "since": shown["since"],
                "ratings": {},
                "stats": {},
                "finished": 0,
                "left": 0,
            }

            player_url = f"{url}/api/players/{ann['player']}"
            status, answer = await http_json("PATCH", player_url, {"name": "Annie"}, secret="x" * 32)
            assert (status, answer["error"]["code"]) == (401, "bad_secret")
            status, answer = await http_json("PATCH", player_url, {"name": "Annie"})
            assert (status, answer["error"]["code"]) == (401, "bad_secret")
            status, answer = await http_json("PATCH", player_url, {"name": ""}, secret=ann["secret"])
            assert (status, answer["error"]["code"]) == (400, "invalid_message")
            status, answer = await http_json("PATCH", player_url, {"name": "Annie"}, secret=ann["secret"])
            assert (status, answer) == (200, {"player": ann["player"], "name": "Annie"})
            assert (await get_json(player_url))[1]["name"] == "Annie"

            # Carried to a second device by a one-time code, typed in any case and without the dash.
            status, transfer = await http_json("POST", f"{player_url}/transfer", secret=ann["secret"])
            assert status == 200 and transfer["expires_in"] == 600 and len(transfer["code"]) == 9
            typed = transfer["code"].replace("-", " ").lower()
            status, second = await http_json("POST", f"{url}/api/transfer", {"code": typed})
            assert status == 200 and second["player"] == ann["player"] and second["name"] == "Annie"
            assert second["secret"] != ann["secret"]
            status, answer = await http_json("POST", f"{url}/api/transfer", {"code": transfer["code"]})
            assert (status, answer["error"]["code"]) == (404, "no_such_code")  # used once only
            for secret in (ann["secret"], second["secret"]):  # both devices hold the profile
                status, _ = await http_json("PATCH", player_url, {"name": "Ann"}, secret=secret)
                assert status == 200

            status, answer = await http_json("DELETE", player_url, secret=second["secret"])
            assert (status, answer) == (200, {"deleted": True})
            status, answer = await get_json(player_url)
            assert (status, answer["error"]["code"]) == (404, "no_such_player")
            status, answer = await http_json("PATCH", player_url, {"name": "Ann"}, secret=ann["secret"])
            assert (status, answer["error"]["code"]) == (401, "bad_secret")

    run(scenario)


def test_a_transfer_code_expires_and_a_new_one_replaces_the_old(tmp_path: Path) -> None:
    async def scenario() -> None:
        now = [1_000_000.0]
        async with session(tmp_path / "smear.db", clock=lambda: now[0]) as s:
            ann = await new_profile(s.url, "Ann")
            transfer_url = f"{s.url}/api/players/{ann['player']}/transfer"
            first = (await http_json("POST", transfer_url, secret=ann["secret"]))[1]["code"]
            second = (await http_json("POST", transfer_url, secret=ann["secret"]))[1]["code"]
            status, answer = await http_json("POST", f"{s.url}/api/transfer", {"code": first})
            assert (status, answer["error"]["code"]) == (404, "no_such_code")
            now[0] += 601
            status, answer = await http_json("POST", f"{s.url}/api/transfer", {"code": second})
            assert (status, answer["error"]["code"]) == (404, "no_such_code")

    run(scenario)


def test_a_seat_taken_with_a_wrong_secret_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            ann = await new_profile(s.url, "Ann")
            host = await host_with_profile(s, "Ann", ann)
            assert host.table is not None
            before = host.state["version"]
            client = await s.connect()
            wrong = {"player": ann["player"], "secret": "y" * 32}
            reply = await client.call("join_table", {"table": host.table, "name": "Eve", "profile": wrong})
            assert not reply["ok"] and reply["error"]["code"] == "bad_profile"
            reply = await client.call(
                "create_table",
                {"name": "Eve", "preset": "house", "players": 4, "teams": False, "profile": wrong},
            )
            assert not reply["ok"] and reply["error"]["code"] == "bad_profile"
            stored = s.server.storage.table(host.table)
            assert stored is not None and [seat.name for seat in stored.seats] == ["Ann", None, None, None]
            assert stored.seats[0].profile == ann["player"]
            assert s.server.live.tables[host.table].version == before
            assert len(s.server.live.tables) == 1

    run(scenario)


async def rating(url: str, player: str, preset: str = "house") -> dict[str, Any]:
    status, profile = await get_json(f"{url}/api/players/{player}")
    assert status == 200, profile
    return dict(profile["ratings"][preset])


def database(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """A new SQLite file, or a new database on the PostgreSQL server the tests start."""
    return tmp_path / "smear.db" if kind == "sqlite" else str(request.getfixturevalue("postgres_url"))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_finished_team_match_is_in_each_players_history_and_rates_winners_up_and_losers_down(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async def scenario() -> None:
        async with session(database(kind, tmp_path, request)) as s:
            url = s.url
            ann, ben = await new_profile(url, "Ann"), await new_profile(url, "Ben")
            bot_before = await rating(url, "bot-heuristic")
            host = await host_with_profile(s, "Ann", ann, teams=True, target=11)
            assert host.table is not None
            guest = await seat_with_profile(s, host.table, "Ben", ben)
            cy = await s.join(host.table, "Cy")  # a guest, without a profile
            assert (await host.send("set_bot", seat=3, bot=True))["ok"]
            state = await host.wait_for(lambda st: st["table"]["seats"][3]["bot"])
            seats = state["table"]["seats"]
            assert [seat["player"] for seat in seats] == [ann["player"], ben["player"], None, "bot-heuristic"]
            # Nothing played yet: a profile shows where new players start, a guest nothing.
            assert [seat["rating"] for seat in seats][:3] == [NEW_PLAYER.shown, NEW_PLAYER.shown, None]
            assert seats[3]["rating"] == BOT_START["heuristic"].shown
            assert (await host.send("start"))["ok"]
            await play_out([host, guest, cy])

            final = await host.wait_for(lambda st: st["table"]["status"] == "finished")
            by_player = {seat["player"]: seat for seat in final["table"]["seats"]}
            history: dict[str, dict[str, Any]] = {}
            for profile in (ann, ben):
                status, answer = await get_json(f"{url}/api/players/{profile['player']}/matches")
                assert status == 200 and answer["more"] is False and len(answer["matches"]) == 1
                history[profile["player"]] = answer["matches"][0]
                assert answer["matches"][0]["seat"] == by_player[profile["player"]]["seat"]
            match = history[ann["player"]]
            assert history[ben["player"]]["match"] == match["match"]
            assert match["preset"] == "house" and len(match["sides"]) == 2 and match["winner"] in (0, 1)
            names = {seat["name"]: seat for seat in match["players"]}
            assert set(names) == {
                "Ann",
                "Ben",
                "Cy",
                final["table"]["seats"][by_player["bot-heuristic"]["seat"]]["name"],
            }
            assert names["Cy"]["player"] is None and names["Cy"]["bot"] is False
            won = {
                player: any(seat in match["sides"][match["winner"]] for seat in [entry["seat"]])
                for player, entry in history.items()
            }
            assert {player: entry["won"] for player, entry in history.items()} == won
            # Ratings: up for each winner, down for each loser; the bot too.
            for player, entry in history.items():
                after = await rating(url, player)
                assert after["matches"] == 1
                assert (after["mu"] > NEW_PLAYER.mu) == entry["won"], (after, entry)
                # Shown at the table once the match is over.
                assert by_player[player]["rating"] == after["rating"]
            bot_after = await rating(url, "bot-heuristic")
            bot_side = next(
                i for i, side in enumerate(match["sides"]) if by_player["bot-heuristic"]["seat"] in side
            )
            assert (bot_after["mu"] > bot_before["mu"]) == (bot_side == match["winner"])
            # Statistics, from the record of the same match.
            status, profile = await get_json(f"{url}/api/players/{ann['player']}")
            stats = profile["stats"]["house"]
            status, record = await get_json(f"{url}/api/matches/{match['match']}")
            assert status == 200
            summary = replay(parse_record(record)).summary
            assert stats["matches"] == 1 and stats["wins"] == int(history[ann["player"]]["won"])
            assert stats["hands"] == len(summary["hands"])
            seat = history[ann["player"]]["seat"]
            side = next(i for i, members in enumerate(match["sides"]) if seat in members)
            assert stats["points"] == sum(hand["taken"][side] for hand in summary["hands"])
            assert stats["bids_won"] == sum(1 for hand in summary["hands"] if hand["bidder"] == seat)
            assert summary["scores"] == match["scores"]

    run(scenario)


def test_free_for_all_ranks_every_seat_and_the_leaderboard_is_best_first(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            url = s.url
            profiles = [await new_profile(url, name) for name in ("Ann", "Ben", "Cem")]
            host = await host_with_profile(s, "Ann", profiles[0], players=3, target=11)
            assert host.table is not None
            others = [await seat_with_profile(s, host.table, p["name"], p) for p in profiles[1:]]
            assert (await host.send("start"))["ok"]
            await play_out([host, *others])
            final = await host.wait_for(lambda st: st["table"]["status"] == "finished")
            status, answer = await get_json(f"{url}/api/players/{profiles[0]['player']}/matches")
            match = answer["matches"][0]
            scores = match["scores"]
            seat_of = {seat["player"]: seat["seat"] for seat in final["table"]["seats"]}
            mus = {p["player"]: (await rating(url, p["player"]))["mu"] for p in profiles}
            winner = next(p for p in mus if seat_of[p] == match["winner"])
            assert mus[winner] > NEW_PLAYER.mu and mus[winner] == max(mus.values())
            lowest = min(scores)
            if scores.count(lowest) == 1:  # the last alone loses the most
                last = next(p for p in mus if scores[seat_of[p]] == lowest)
                assert mus[last] < NEW_PLAYER.mu and mus[last] == min(mus.values())

            status, board = await get_json(f"{url}/api/leaderboard/house")
            assert status == 200
            ratings = [entry["rating"] for entry in board]
            assert ratings == sorted(ratings, reverse=True)
            assert {p["player"] for p in profiles} <= {entry["player"] for entry in board}
            assert {"bot-random", "bot-heuristic", "bot-expert"} <= {e["player"] for e in board if e["bot"]}
            assert set(board[0]) == {"player", "name", "mark", "rating", "matches", "bot", "bot_level"}
            # With whom Ann has played: the three of them, and no bot (none sat with them).
            status, mine = await get_json(f"{url}/api/leaderboard/house?with={profiles[0]['player']}")
            assert {entry["player"] for entry in mine} == {p["player"] for p in profiles}
            assert [e["rating"] for e in mine] == sorted((e["rating"] for e in mine), reverse=True)
            status, answer = await get_json(f"{url}/api/leaderboard/no_such_game")
            assert status == 404

    run(scenario)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_deleted_player_shows_as_deleted_in_the_others_history_and_records(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async def scenario() -> None:
        async with session(database(kind, tmp_path, request)) as s:
            url = s.url
            ann, ben = await new_profile(url, "Ann"), await new_profile(url, "Ben")
            host = await host_with_profile(s, "Ann", ann, players=3, target=11)
            assert host.table is not None
            guest = await seat_with_profile(s, host.table, "Ben", ben)
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            assert (await host.send("start"))["ok"]
            await play_out([host, guest])
            status, _ = await http_json("DELETE", f"{url}/api/players/{ben['player']}", secret=ben["secret"])
            assert status == 200
            answer = (await get_json(f"{url}/api/players/{ann['player']}/matches"))[1]
            match = answer["matches"][0]
            ben_seat = guest.seat_now
            assert match["players"][ben_seat] == {
                "seat": ben_seat,
                "name": "deleted player",
                "player": None,
                "mark": None,
                "bot": False,
                "bot_level": None,
            }
            record = (await get_json(f"{url}/api/matches/{match['match']}"))[1]
            assert record["players"][ben_seat] == "deleted player" and "Ben" not in json.dumps(record)
            table_record = (await get_json(f"{url}/tables/{host.table}/matches/1/record.json"))[1]
            assert table_record["players"][ben_seat] == "deleted player"
            status, answer = await get_json(f"{url}/api/players/{ben['player']}/matches")
            assert (status, answer["error"]["code"]) == (404, "no_such_player")

    run(scenario)


def test_a_match_of_bots_and_guests_only_is_nobodys_history(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.with_bots("Guest", players=3, target=11)
            assert (await host.send("start"))["ok"]
            await play_out([host])
            board = (await get_json(f"{s.url}/api/leaderboard/house"))[1]
            assert all(entry["matches"] == 0 for entry in board)  # the bots were not rated either

    run(scenario)


def test_replays_of_a_stored_match_and_of_an_uploaded_record(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            url = s.url
            ann = await new_profile(url, "Ann")
            host = await host_with_profile(s, "Ann", ann, players=3, target=11)
            assert host.table is not None
            for seat in (1, 2):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            assert (await host.send("start"))["ok"]
            await play_out([host])
            match = (await get_json(f"{url}/api/players/{ann['player']}/matches"))[1]["matches"][0]
            status, answer = await get_json(f"{url}/api/matches/{match['match']}/replay")
            assert status == 200 and answer["match"]["match"] == match["match"]
            view = answer["view"]
            assert (
                view["complete"] and view["scores"] == match["scores"] and view["winner"] == match["winner"]
            )
            last = view["hands"][-1]
            assert last["result"]["scores"] == match["scores"] and all(
                t["winner"] is not None for t in last["tricks"]
            )

            # The same record sent by a user replays the same; cut short, it replays as far as it goes.
            text = dump_record(answer["record"])
            status, uploaded = await http_json("POST", f"{url}/api/replay", raw=text.encode())
            assert status == 200 and uploaded["view"] == view
            cut = dict(answer["record"], hands=answer["record"]["hands"][:1])
            cut["hands"] = [dict(cut["hands"][0], actions=cut["hands"][0]["actions"][:7])]
            status, uploaded = await http_json("POST", f"{url}/api/replay", cut)
            assert status == 200 and uploaded["view"]["complete"] is False
            # A wrong record says where it is wrong; not JSON, or not a record, says so.
            bad = dict(cut, hands=[dict(cut["hands"][0], actions=["bid 9"])])
            status, refused = await http_json("POST", f"{url}/api/replay", bad)
            assert status == 400 and refused["error"]["code"] == "bad_record"
            assert "hand 1, action 1" in refused["error"]["message"]
            for raw in (b"{not json", b"[]", b'{"format": "smear-record/9"}'):
                status, refused = await http_json("POST", f"{url}/api/replay", raw=raw)
                assert status == 400 and refused["error"]["code"] == "bad_record", refused
            status, refused = await http_json("POST", f"{url}/api/replay", raw=b" " * (1 << 20 + 1))
            assert status == 413
            for path in ("/api/matches/nope", "/api/matches/" + "a" * 60 + "/replay"):
                status, answer = await get_json(url + path)
                assert (status, answer["error"]["code"]) == (404, "no_such_match")

    run(scenario)


def test_rate_match_averages_a_bot_level_over_its_seats_and_rates_no_guest() -> None:
    start = {"ann": NEW_PLAYER, "bot-heuristic": Rating(27.0, 2.0)}
    seats = ["ann", "bot-heuristic", None, "bot-heuristic"]
    new = rate_match(seats, start, [[0, 2], [1, 3]], [1, 2])
    assert set(new) == {"ann", "bot-heuristic"}
    assert new["ann"].mu > NEW_PLAYER.mu and new["ann"].sigma < NEW_PLAYER.sigma
    assert new["bot-heuristic"].mu < 27.0
    # A bot level on both sides of one match gains on one seat what it loses on the other.
    mixed = rate_match(["ann", "bot-heuristic", "bot-heuristic", "ben"], start, [[0, 2], [1, 3]], [1, 2])
    assert abs(mixed["bot-heuristic"].mu - 27.0) < 0.5
    # Ties share a rank: equal players gain nothing from it.
    tied = rate_match(["ann", "ben"], {}, [[0], [1]], [1, 1])
    assert abs(tied["ann"].mu - tied["ben"].mu) < 1e-9


def test_the_players_api_shows_no_secret_and_nothing_of_a_match_in_progress(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            url = s.url
            ann, ben = await new_profile(url, "Ann"), await new_profile(url, "Ben")
            first = await host_with_profile(s, "Ann", ann, players=3, target=11)
            assert first.table is not None
            ben_first = await seat_with_profile(s, first.table, "Ben", ben)
            assert (await first.send("set_bot", seat=2, bot=True))["ok"]
            assert (await first.send("start"))["ok"]
            await play_out([first, ben_first])
            # A second table, its match under way: Ann and Ben hold cards nobody else may see.
            second = await host_with_profile(s, "Ann", ann, players=3, target=11)
            assert second.table is not None
            ben_second = await seat_with_profile(s, second.table, "Ben", ben)
            assert (await second.send("set_bot", seat=2, bot=True))["ok"]
            assert (await second.send("start"))["ok"]
            await second.wait_for(lambda st: st["game"] is not None)
            await http_json("POST", f"{url}/api/players/{ann['player']}/transfer", secret=ann["secret"])
            await http_json("PATCH", f"{url}/api/players/{ben['player']}", {"name": "Ben"}, secret="z" * 40)

            about_players: list[Any] = []
            for profile in (ann, ben):
                about_players.append((await get_json(f"{url}/api/players/{profile['player']}"))[1])
                about_players.append((await get_json(f"{url}/api/players/{profile['player']}/matches"))[1])
                for preset in ("house", "cutthroat"):
                    query = f"{url}/api/leaderboard/{preset}?with={profile['player']}"
                    about_players.append((await get_json(query))[1])
            history = about_players[1]["matches"]
            assert len(history) == 1  # the finished match only
            finished = [
                (await get_json(f"{url}/api/matches/{history[0]['match']}"))[1],
                (await get_json(f"{url}/api/matches/{history[0]['match']}/replay"))[1],
            ]
            stored = s.server.storage.match_record(first.table, 1)
            assert finished[0] == stored and finished[1]["record"] == stored

            live = s.server.live.tables[second.table]
            assert live.status == "playing" and live.state is not None
            secrets = [
                ann["secret"],
                ben["secret"],
                *(c.token or "" for c in (first, ben_first, second, ben_second)),
            ]
            everything = json.dumps([about_players, finished])
            for secret in secrets:
                assert secret and secret not in everything
            assert second.table not in everything and first.table not in everything
            # Nothing about players names a card; the cards of the finished match are its own.
            assert cards_in(about_players) == set()
            held = {str(card) for seat in range(3) for card in live.state.hand(seat)}
            assert held and not held & cards_in(about_players)
            for record in caplog.records:
                assert not any(secret in record.getMessage() for secret in secrets)

    run(scenario)


WRONG_BODIES = [
    b"",
    b"{",
    b"[]",
    b"null",
    b'{"name": 5}',
    b'{"name": "Ann", "extra": 1}',
    b'{"name": "\\u0000"}',
    b'{"name": "' + b"n" * 25 + b'"}',
    b'{"code": ["ABCD-EFGH"]}',
    b"\xff\xfe{}",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"name": "' + b"n" * 5_000 + b'"}',
    b'{"name": NaN}',
]


def test_wrong_requests_to_the_players_api_get_a_clear_error_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(talk.TALK_PACE, "replay", (0.5, 1_000.0))  # the pace has a test of its own

    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            url = s.url
            ann = await new_profile(url, "Ann")
            player_url = f"{url}/api/players/{ann['player']}"
            before = await get_json(player_url)
            for raw in WRONG_BODIES:
                for method, where, secret in (
                    ("POST", f"{url}/api/players", None),
                    ("PATCH", player_url, ann["secret"]),
                    ("POST", f"{url}/api/transfer", None),
                    ("POST", f"{url}/api/replay", None),
                ):
                    status, answer = await http_json(method, where, raw=raw, secret=secret)
                    assert status in (400, 413, 429), (method, where, raw[:40], status, answer)
                    assert answer["error"]["code"] in (
                        "malformed_json",
                        "invalid_message",
                        "message_too_large",
                        "bad_record",
                        "rate_limited",
                    ), answer
            for path in ("/api/players/%00", "/api/players/" + "x" * 200, "/api/players/%E2%80%AE/matches"):
                status, answer = await get_json(url + path)
                assert (status, answer["error"]["code"]) == (404, "no_such_player"), path
            status, answer = await get_json(f"{player_url}/matches?limit=0")
            assert (status, answer["error"]["code"]) == (400, "invalid_message")
            status, answer = await get_json(f"{player_url}/matches?limit=" + "9" * 30)
            assert (status, answer["error"]["code"]) == (400, "invalid_message")
            for method in ("PATCH", "DELETE", "POST"):
                where = player_url if method != "POST" else f"{player_url}/transfer"
                status, answer = await http_json(method, where, {"name": "Eve"}, secret=ann["player"] * 3)
                assert (status, answer["error"]["code"]) == (401, "bad_secret")
            assert await get_json(player_url) == before
            status, board = await get_json(f"{url}/api/leaderboard/house")
            assert all(entry["bot"] for entry in board)  # no profile made by a wrong request

    run(scenario)


def test_replaying_records_is_paced_per_address(tmp_path: Path) -> None:
    # New profiles and transfer codes have paces of their own: test_profile_pace.py.
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            replays = [await http_json("POST", f"{s.url}/api/replay", raw=b"{}") for _ in range(11)]
            assert [status for status, _ in replays] == [400] * 10 + [429]

    run(scenario)


def test_a_fault_in_the_history_leaves_the_finished_match_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            ann = await new_profile(s.url, "Ann")

            def broken(*args: Any) -> None:
                raise OperationalError("INSERT", {}, Exception("disk I/O error"))

            monkeypatch.setattr(PlayerStore, "record_played", broken)
            host = await host_with_profile(s, "Ann", ann, players=3, target=11)
            assert host.table is not None
            for seat in (1, 2):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            assert (await host.send("start"))["ok"]
            await play_out([host])
            status, record = await get_json(f"{s.url}/tables/{host.table}/matches/1/record.json")
            assert status == 200 and replay(parse_record(record)).summary["winner"] is not None
            assert s.server.live.tables[host.table].status == "finished"
            answer = (await get_json(f"{s.url}/api/players/{ann['player']}/matches"))[1]
            assert answer["matches"] == []
            assert "is not in the players' history (OperationalError)" in caplog.text

    run(scenario)


def test_a_bot_level_not_yet_rated_starts_from_where_it_is_measured_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "smear.db"
    with Storage(f"sqlite:///{path}") as storage:
        storage.players.ensure_bots(["heuristic"], ["house"], 0.0)
        monkeypatch.setitem(BOT_START, "heuristic", Rating(30.0, 2.0))
        storage.players.ensure_bots(["heuristic"], ["house", "cutthroat"], 0.0)
        ratings = {
            preset: storage.players.ratings_of(["bot-heuristic"], preset)["bot-heuristic"].mu
            for preset in ("house", "cutthroat")
        }
    assert ratings == {"house": 30.0, "cutthroat": 30.0}


def test_a_new_profile_id_never_looks_like_a_bot_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    from smear.server.players import api as players
    from smear.server.players.ratings import is_bot_profile

    drawn = iter(["bot-expert12", "bot-Zz09_-aa", "Q7-person_id"])
    monkeypatch.setattr(players.secrets, "token_urlsafe", lambda _n: next(drawn))
    player = players.new_player_id()
    assert player == "Q7-person_id" and not is_bot_profile(player)
