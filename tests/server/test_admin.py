"""``smear admin`` against a running server on one database (smear.cli.admin, and the orders carried
out by smear.server.social.moderation): the live tables with their owner's host and pid, a table
closed, bans and unbans, chat lines deleted, the CSV exports, each action in the audit."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from serverkit import Client, create, http_json, join, play_out, running_server, session
from test_cluster import two_server_processes
from test_hardening import refusal
from test_players import host_with_profile, new_profile, proof, seat_with_profile

from smear.cli import cli
from smear.cli.admin import MATCH_COLUMNS, RATING_COLUMNS
from smear.server.storage import moderationstore
from smear.server.storage.database import Storage
from smear.server.storage.rows import SeatRow
from smear.server.wire.errorcodes import error_payload


def run(scenario: Any) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 120))


def admin(database: str, *args: str) -> tuple[int, str]:
    """``smear admin ARGS --database DATABASE`` in a thread (the server keeps its event loop)."""
    result = CliRunner().invoke(cli, ["admin", *args, "--database", database], prog_name="smear")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    # What a script reads: standard output on success, the one line of standard error on failure.
    return result.exit_code, result.stdout if result.exit_code == 0 else result.stderr


async def admin_async(database: str, *args: str) -> tuple[int, str]:
    return await asyncio.to_thread(admin, database, *args)


def keep(client: Client, *names: str) -> Client:
    for name in names:
        client.sio.on(name, client._keeper(name))
    return client


async def wait_for_got(client: Client, name: str, predicate: Any = bool) -> Any:
    async def found() -> Any:
        while True:
            for data in client.got(name):
                if predicate(data):
                    return data
            client.changed.clear()
            await client.changed.wait()

    return await asyncio.wait_for(found(), 30)


async def eventually(check: Any, timeout: float = 30.0) -> Any:
    """``await check()``'s first true answer: the servers read the operator's orders every second."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (found := await check()):
        assert asyncio.get_running_loop().time() < deadline, "the order was not carried out"
        await asyncio.sleep(0.05)
    return found


async def api_status(url: str, path: str, body: Any, secret: str | None = None) -> tuple[int, Any]:
    return await http_json("POST", f"{url}{path}", body, secret)


def test_tables_lists_each_live_table_with_its_seats_and_the_owner_s_host_and_pid(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"

    async def scenario() -> None:
        async with running_server(database) as (_, url):
            host = await create(url, "Hélène", players=3)
            for seat in (1, 2):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            status, output = await admin_async(database, "tables")
            await host.close()
        assert status == 0, output
        line = next(line for line in output.splitlines() if line.startswith(host.table or "?"))
        _, table_status, owner, seats = line.split("\t")
        assert table_status == "lobby"
        assert owner == f"{socket.gethostname()} {os.getpid()}"  # the server runs in this process
        assert seats.split(" ")[0] == "0:Hélène(person)" and seats.split(" ")[1].endswith("(bot)")

    run(scenario)


def test_tables_says_stopped_when_the_one_server_has_not_said_it_runs_lately(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Redis the owner is the server process noted last: it notes it runs (here at every
    read of the orders), and once silent for longer than STOPPED_AFTER it is shown "stopped?"."""
    database = f"sqlite:///{tmp_path / 'admin.db'}"
    monkeypatch.setattr(moderationstore, "HEARTBEAT_EVERY", 0.0)

    async def scenario() -> None:
        async with running_server(database) as (_, url):
            host = await create(url, "Host", players=3)

            async def beating() -> bool:
                with Storage(database) as storage:
                    (process,) = storage.moderation.processes()
                return process.seen_at is not None and process.seen_at > process.started_at

            await eventually(beating)
            status, output = await admin_async(database, "tables")
            assert status == 0 and output.split("\t")[2] == f"{socket.gethostname()} {os.getpid()}", output
            await host.close()
        with Storage(database) as storage:
            (process,) = storage.moderation.processes()
            storage.moderation.heartbeat(process.process, time.time() - moderationstore.STOPPED_AFTER - 1)
        status, output = await admin_async(database, "tables")
        owner = output.split("\t")[2]
        assert status == 0 and owner.startswith(
            f"{socket.gethostname()} {os.getpid()} stopped? (silent since "
        )

    run(scenario)


def test_a_closed_table_s_people_are_told_why_and_cannot_act_and_its_match_is_kept(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"

    async def scenario() -> None:
        async with running_server(database) as (_, url):
            host = keep(await create(url, "Host", players=3), "error")
            guest = keep(await join(url, host.table or "", "Guest"), "error")
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            assert (await host.send("start"))["ok"]
            await host.wait_for(lambda s: s["game"] is not None)
            status, output = await admin_async(
                database, "close", host.table or "", "--reason", "abuse", "--by", "ops"
            )
            assert (status, output) == (0, f"closed table {host.table}\n")
            for client in (host, guest):
                told = await wait_for_got(client, "error", lambda e: e["code"] == "table_closed")
                assert told["args"] == {"note": "abuse"}
            state = host.state
            legal = (state["game"] or {}).get("legal") or [{"text": "pass"}]
            reply = await host.send("act", version=state["version"], action=legal[0]["text"])
            assert not reply["ok"] and reply["error"]["code"] == "table_closed", reply
            assert reply["error"]["args"] == {"note": "abuse"}
            # Whoever opens the link later learns it was closed, and why.
            latecomer = await Client(url).connect()
            for event, extra in (("join_table", {"name": "Late"}), ("watch_table", {})):
                reply = await latecomer.call(event, {"table": host.table, **extra})
                assert (reply["ok"], reply["error"]["code"]) == (False, "table_closed"), reply
                assert reply["error"]["args"] == {"note": "abuse"}
            for client in (host, guest, latecomer):
                await client.close()
        with Storage(database) as storage:
            assert storage.table(host.table or "") is not None  # kept
            assert [t.code for t in storage.quarantine.quarantined()] == [host.table]
            audit = storage.moderation.audit(10)
        assert [(a.command, a.target, a.note, a.by) for a in audit] == [("close", host.table, "abuse", "ops")]

    run(scenario)


def test_a_banned_address_is_refused_at_connect_and_by_the_api_then_let_in_after_unban(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"

    async def scenario() -> None:
        async with running_server(database) as (_, url):
            open_socket = Client(url)
            await open_socket.connect()
            assert (await admin_async(database, "ban", "address", "127.0.0.0/8", "--reason", "spam"))[0] == 0
            refused = await eventually(lambda: refusal(url))
            assert refused["code"] == "banned", refused
            status, body = await api_status(url, "/api/players", {"name": "Mallory"})
            assert (status, body["error"]["code"]) == (403, "banned")
            # The socket open when the ban came is closed by the server.
            await asyncio.wait_for(open_socket.sio.wait(), 10)
            status, output = await admin_async(database, "bans")
            assert status == 0 and output.startswith("address\t127.0.0.0/8\t")
            assert output.splitlines()[0].endswith("\t-\tspam")  # no end, and the reason
            assert (await admin_async(database, "unban", "address", "127.0.0.0/8"))[0] == 0

            async def let_in() -> bool:
                return (await api_status(url, "/api/players", {"name": "Mallory"}))[0] == 201

            await eventually(let_in)
            assert await refusal(url) is None

    run(scenario)


def test_a_banned_profile_is_refused_at_table_creation_and_by_the_api_then_let_in_after_unban(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"

    async def scenario() -> None:
        async with session(database) as s:
            profile = await new_profile(s.url, "Mallory")
            player, secret = profile["player"], profile["secret"]
            status, output = await admin_async(database, "ban", "profile", "Mallory", "--until", "2999-01-01")
            assert status == 0 and output.startswith(f"banned profile {player} until 2999-01-01"), output
            client = await s.connect()
            payload = {
                "name": "M",
                "preset": "house",
                "players": 3,
                "teams": False,
                "profile": proof(profile),
            }

            async def refused() -> bool:
                reply = await client.call("create_table", payload)
                return not reply["ok"] and reply["error"]["code"] == "banned"

            await eventually(refused)
            status, body = await api_status(s.url, f"/api/players/{player}/transfer", None, secret)
            assert (status, body["error"]["code"]) == (403, "banned")
            status, output = await admin_async(database, "unban", "profile", player)
            assert status == 0, output

            async def let_in() -> bool:
                return bool((await client.call("create_table", payload))["ok"])

            await eventually(let_in)
            assert (await api_status(s.url, f"/api/players/{player}/transfer", None, secret))[0] == 200
            status, output = await admin_async(database, "ban", "profile", "bot-heuristic")
            assert (status, output) == (2, "bot-heuristic is a bot's profile: it cannot be banned\n")
            # A profile deleted while banned: its id still lifts the ban.
            status, output = await admin_async(database, "ban", "profile", player)
            assert status == 0, output
            status, _ = await http_json("DELETE", f"{s.url}/api/players/{player}", secret=secret)
            assert status in (200, 204)
            assert await admin_async(database, "unban", "profile", player) == (
                0,
                f"unbanned profile {player}\n",
            )
        with Storage(database) as storage:
            commands = [(a.command, a.target) for a in storage.moderation.audit(10)]
            assert storage.moderation.bans(0) == []
        assert commands == [("unban profile", player), ("ban profile", player)] * 2

    run(scenario)


def test_a_profile_id_name_or_table_code_that_begins_with_a_dash_is_never_read_as_options(
    tmp_path: Path,
) -> None:
    """Profile ids and table codes are URL-safe base64: one in 64 begins with "-"."""
    database = f"sqlite:///{tmp_path / 'admin.db'}"
    with Storage(database) as storage:
        storage.players.create_profile("-dash9ab_c", "Dana", "0" * 64, time.time())
        storage.players.create_profile("p-other-12", "-Sam", "1" * 64, time.time())
    for target, chosen in (("-dash9ab_c", "-dash9ab_c"), ("-Sam", "p-other-12")):
        # ("-dash9ab_c" alone was read as the options -d -a -s -h, and printed the help.)
        status, output = admin(database, "ban", "profile", target, "--reason", "-spam")
        assert status == 0 and output.startswith(f"banned profile {chosen} "), output
        assert admin(database, "unban", "profile", "--reason=-ok", target) == (
            0,
            f"unbanned profile {chosen}\n",
        )
    assert admin(database, "ban", "profile", "-nobody")[0] == 2  # still a one-line refusal
    # A table code too ("-h..." was the help).
    settings = {"preset": "house", "players": 4, "teams": True}
    with Storage(database) as storage:
        storage.create_table(
            "-hdash-table-1", settings, 0, [SeatRow(0, "Ann", "x" * 64, False, None)], time.time()
        )
    assert admin(database, "close", "-hdash-table-1", "--reason", "spam") == (
        0,
        "closed table -hdash-table-1\n",
    )
    with Storage(database) as storage:
        assert storage.moderation.bans(0) == []
        notes = [(entry.command, entry.note) for entry in storage.moderation.audit(10)]
    assert notes == [("close", "spam")] + [("unban profile", "-ok"), ("ban profile", "-spam")] * 2, notes


def test_bad_arguments_are_one_line_errors_and_change_nothing(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"
    assert admin(database, "ban", "address", "not-an-ip")[0] == 2
    assert admin(database, "ban", "profile", "nobody")[0] == 2
    assert admin(database, "unban", "address", "10.0.0.1")[0] == 2
    assert admin(database, "close", "NOSUCH", "--reason", "x")[0] == 2
    assert admin(database, "chat", "delete", "--table", "NOSUCH")[0] == 2
    assert admin(database, "export", "matches", "--since", "2026-02-01", "--until", "2026-01-01")[0] == 2
    assert admin(database, "export", "matches", "--since", "yesterday", "--until", "2026-01-01")[0] == 2
    status, output = admin(database, "ban", "address", "10.0.0.1", "--until", "2000-01-01")
    assert (status, output) == (2, "--until is in the past\n")
    # What click refuses is one line too, naming the command.
    status, output = admin(database, "export", "matches", "--since", "2026-13-01", "--until", "2027-01-01")
    assert status == 2 and output.startswith("smear admin export: Invalid value for '--since'"), output
    assert output.count("\n") == 1
    for args in (
        ("chat", "delete", "--table", "T", "--line", str(2**31)),  # past the database's integers
        ("reports", "show", "9" * 30),
        ("close",),
        ("ban", "person", "Mallory"),
    ):
        status, output = admin(database, *args)
        assert status == 2 and output.count("\n") == 1 and output.startswith("smear admin "), (args, output)
    # A closed table's people are shown the reason: neither blank nor long.
    for reason in ("", " \n ", "x" * 201):
        status, output = admin(database, "close", "T", "--reason", reason)
        assert (status, output) == (2, "--reason must be 1 to 200 characters: its people are shown it\n")
    with Storage(database) as storage:
        assert storage.moderation.audit(10) == [] and storage.moderation.bans(0) == []
    # Who ran it is one line in the audit and the log.
    assert admin(database, "ban", "address", "10.0.0.1", "--by", "ops\nroot")[0] == 0
    with Storage(database) as storage:
        assert [a.by for a in storage.moderation.audit(10)] == ["ops root"]


def test_deleted_chat_lines_leave_every_page_and_storage(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"

    async def scenario() -> None:
        async with session(database) as s:
            host = keep(await s.create("Host", players=3), "chat_removed")
            guest = keep(await s.join(host.table or "", "Guest"), "chat_removed")
            first = await host.send("chat", text="first line")
            second = await guest.send("chat", text="second line")
            status, output = await admin_async(
                database, "chat", "delete", "--table", host.table or "", "--line", str(first["id"])
            )
            assert (status, output) == (0, f"deleted 1 chat lines of table {host.table}\n")
            for client in (host, guest):
                assert (await wait_for_got(client, "chat_removed")) == {"lines": [first["id"]]}
            history = await guest.call("chat_history", {"table": host.table})
            assert [line["id"] for line in history["lines"]] == [second["id"]]
            with Storage(database) as storage:
                assert [line.id for line in storage.chat.chat(host.table or "", 0).lines] == [second["id"]]
            again = ("chat", "delete", "--table", host.table or "", "--line", str(first["id"]))
            assert (await admin_async(database, *again)) == (
                2,
                f"table {host.table} has no chat line {first['id']}\n",
            )
            with Storage(database) as storage:
                assert len(storage.moderation.audit(10)) == 1  # the refused one is not noted
            assert (await admin_async(database, "chat", "delete", "--table", host.table or ""))[0] == 0
            assert (
                await wait_for_got(host, "chat_removed", lambda d: d["lines"] == [second["id"]])
            ) is not None
            assert (await guest.call("chat_history", {"table": host.table}))["lines"] == []

    run(scenario)


def test_chat_delete_by_profile_takes_the_lines_it_wrote_from_any_seat_and_no_other(tmp_path: Path) -> None:
    """Mallory writes from seat 1, leaves, Bob takes seat 1 and writes, Mallory comes back at seat 2
    and writes: ``--profile`` deletes Mallory's two lines (by writer, not by seat) and no other."""
    database = f"sqlite:///{tmp_path / 'admin.db'}"

    async def scenario() -> None:
        async with session(database) as s:
            host = keep(await s.create("Host", players=3), "chat_removed")
            code = host.table or ""
            mallory = await new_profile(s.url, "Mallory")
            first_seat = await seat_with_profile(s, code, "Mallory", mallory)
            assert first_seat.seat == 1
            first = await first_seat.send("chat", text="from seat 1")
            assert (await first_seat.send("leave"))["ok"]
            bob = await s.join(code, "Bob")
            assert bob.seat == 1
            bobs = await bob.send("chat", text="bob at seat 1")
            second_seat = await seat_with_profile(s, code, "Mallory", mallory)
            assert second_seat.seat == 2
            second = await second_seat.send("chat", text="from seat 2")
            hosts = await host.send("chat", text="the host's line")
            status, output = await admin_async(
                database, "chat", "delete", "--table", code, "--profile", "Mallory"
            )
            assert (status, output) == (0, f"deleted 2 chat lines of table {code}\n")
            assert (await wait_for_got(host, "chat_removed")) == {"lines": [first["id"], second["id"]]}
            kept = [bobs["id"], hosts["id"]]
            assert [
                line["id"] for line in (await host.call("chat_history", {"table": code}))["lines"]
            ] == kept
            with Storage(database) as storage:
                assert [line.id for line in storage.chat.chat(code, 0).lines] == kept
                audit = storage.moderation.audit(1)
            assert [(a.command, a.target) for a in audit] == [
                ("chat delete", f"{code} profile={mallory['player']}")
            ]
            status, output = await admin_async(
                database, "chat", "delete", "--table", code, "--profile", "Nobody"
            )
            assert (status, output) == (2, "there is no profile with the id or name 'Nobody'\n")

    run(scenario)


def test_the_exports_are_csv_with_the_documented_columns(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'admin.db'}"

    async def scenario() -> None:
        async with session(database) as s:
            profile = await new_profile(s.url, "Ann")
            host = await host_with_profile(s, "Ann", profile, players=3, target=11)
            for seat in (1, 2):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            assert (await host.send("start"))["ok"]
            await play_out([host])
            await host.wait_for(lambda st: st["table"]["status"] == "finished")
            await s.close()
        period = ("--since", "2000-01-01", "--until", "2999-01-01")
        status, output = await admin_async(database, "export", "matches", *period)
        assert status == 0, output
        rows = list(csv.DictReader(io.StringIO(output)))
        assert tuple(rows[0]) == MATCH_COLUMNS and len(rows) == 3
        assert {row["table"] for row in rows} == {host.table}
        assert [row["name"] for row in rows if row["profile_id"] == profile["player"]] == ["Ann"]
        assert sum(row["won"] == "True" for row in rows) >= 1
        status, output = await admin_async(database, "export", "ratings", *period)
        assert status == 0, output
        ratings = list(csv.DictReader(io.StringIO(output)))
        assert tuple(ratings[0]) == RATING_COLUMNS
        mine = next(row for row in ratings if row["profile_id"] == profile["player"])
        assert (mine["name"], mine["preset"], mine["matches_in_period"]) == ("Ann", "house", "1")
        status, output = await admin_async(
            database, "export", "matches", "--since", "2000-01-01", "--until", "2000-01-02"
        )
        assert (status, output) == (0, ",".join(MATCH_COLUMNS) + "\n")

    run(scenario)


def test_every_command_against_a_live_two_process_cluster(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Two ``smear serve`` processes on PostgreSQL and Redis: the owner is shown by host and pid,
    deleted chat lines leave the pages of both processes, a report made on the process that does not
    own the table is listed, read and resolved, a closed table's people on both are told
    and cannot act, a banned address and profile are refused by both and let in after unban, and
    the export opens in csv."""

    async def scenario() -> None:
        async with two_server_processes(tmp_path, postgres_url, redis_url) as (first, second):
            host = keep(await create(first.url, "Host", players=3), "error", "chat_removed")
            guest = keep(await join(second.url, host.table or "", "Guest"), "error", "chat_removed")
            code = host.table or ""
            status, output = await admin_async(postgres_url, "tables", "--redis", redis_url)
            assert status == 0, output
            (line,) = [line for line in output.splitlines() if line.startswith(code)]
            assert line.split("\t")[2] == f"{socket.gethostname()} {first.process.pid}"

            said = await guest.send("chat", text="a line to delete")
            status, _ = await admin_async(
                postgres_url, "chat", "delete", "--table", code, "--line", str(said["id"])
            )
            assert status == 0
            for client in (host, guest):
                assert (await wait_for_got(client, "chat_removed")) == {"lines": [said["id"]]}
            assert (await host.call("chat_history", {"table": code}))["lines"] == []
            with Storage(postgres_url) as storage:
                assert storage.chat.chat(code, 0).lines == []

            # A report made on the process that does not own the table, read and resolved.
            reply = await guest.send("report", seat=0, reason="abusive_chat", text="rude to me")
            assert reply == {"ok": True}, reply
            status, output = await admin_async(postgres_url, "reports")
            (listed,) = output.splitlines()
            assert status == 0 and f"abusive_chat\t{code}" in listed, output
            made = listed.split("\t")[0]
            status, output = await admin_async(postgres_url, "reports", "show", made)
            assert status == 0 and "reason: abusive_chat" in output and "text: rude to me" in output
            status, output = await admin_async(postgres_url, "reports", "resolve", made, "--note", "warned")
            assert (status, output) == (0, f"resolved report {made}\n")
            assert await admin_async(postgres_url, "reports") == (0, "")

            status, _ = await admin_async(postgres_url, "close", code, "--reason", "spam")
            assert status == 0
            for client in (host, guest):
                told = await wait_for_got(client, "error", lambda e: e["code"] == "table_closed")
                assert told["args"] == {"note": "spam"}
                reply = await client.send("set_bot", seat=2, bot=True)
                assert not reply["ok"] and reply["error"]["code"] in ("table_closed", "not_host"), reply
            reply = await host.send("set_bot", seat=2, bot=True)
            assert reply["error"] == error_payload("table_closed", note="spam"), reply

            profile = await new_profile(first.url, "Mallory")
            assert (await admin_async(postgres_url, "ban", "profile", profile["player"]))[0] == 0
            payload = {
                "name": "M",
                "preset": "house",
                "players": 3,
                "teams": False,
                "profile": proof(profile),
            }
            for server in (first, second):
                client = await Client(server.url).connect()

                async def refused(client: Client = client) -> bool:
                    reply = await client.call("create_table", payload)
                    return not reply["ok"] and reply["error"]["code"] == "banned"

                await eventually(refused)
                await client.close()
            assert (await admin_async(postgres_url, "unban", "profile", profile["player"]))[0] == 0

            assert (await admin_async(postgres_url, "ban", "address", "127.0.0.1"))[0] == 0
            for server in (first, second):
                refused_socket = await eventually(lambda url=server.url: refusal(url))
                assert refused_socket["code"] == "banned"
                status, body = await api_status(server.url, "/api/players", {"name": "Eve"})
                assert (status, body["error"]["code"]) == (403, "banned")
            assert (await admin_async(postgres_url, "unban", "address", "127.0.0.1/32"))[0] == 0
            for server in (first, second):

                async def let_in(url: str = server.url) -> bool:
                    return await refusal(url) is None

                await eventually(let_in)
                client = await Client(server.url).connect()
                reply = await client.call("create_table", payload)  # the profile is let in too
                assert reply["ok"], reply
                await client.close()
            for client in (host, guest):
                await client.close()

        status, output = await admin_async(
            postgres_url, "export", "matches", "--since", "2000-01-01", "--until", "2999-01-01"
        )
        assert status == 0 and tuple(next(csv.reader(io.StringIO(output)))) == MATCH_COLUMNS
        with Storage(postgres_url) as storage:
            commands = [a.command for a in reversed(storage.moderation.audit(20))]
        assert commands == [
            "chat delete",
            "reports resolve",
            "close",
            "ban profile",
            "unban profile",
            "ban address",
            "unban address",
        ]

    run(scenario)
