"""Players reporting another player: at a table (``report``) and from their history
(``POST /api/players/{player}/reports``); what a report keeps, its pace, its refusals, and the
reports' store (the chat kept with a report is emptied after 30 days)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from click.testing import CliRunner
from serverkit import FAST, Session, http_json, play_out, session, stopped_pace  # noqa: F401
from tablechecks import refused
from test_players import host_with_profile, new_profile, seat_with_profile

from smear.cli import cli
from smear.server.limits import Limits
from smear.server.storage.database import Storage
from smear.server.storage.moderationstore import Audit
from smear.server.storage.reportstore import REPORT_CHAT_KEPT_SECONDS, NewReport

LIMITS = Limits(tables_per_hour=0, connections_per_address=0)
SLOW_DEAL = dataclasses.replace(FAST, grace=30.0, hand_pause=60.0)


def run(scenario: Any) -> None:
    asyncio.run(scenario())


def test_a_seat_reports_another_and_the_report_keeps_the_table_the_reason_and_the_chat(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            ann = await new_profile(s.url, "Ann")
            host = await host_with_profile(s, "Ann", ann, players=3)
            assert host.table is not None
            rude = await s.join(host.table, "Rude")
            quiet = await s.join(host.table, "Quiet")
            assert (await rude.send("chat", text="you are all terrible"))["ok"]
            reply = await host.send("report", seat=rude.seat, reason="abusive_chat", text="insults")
            assert reply == {"ok": True}
            # Nothing is said to anyone at the table about it.
            for client in (rude, quiet):
                assert not [name for name, _ in client.received if name not in ("state", "event", "chat")]
            [report] = s.server.storage.reports.reports(only_open=True)
            made = report.made
            assert (made.table_code, made.reported_seat, made.reported_name) == (
                host.table,
                rude.seat,
                "Rude",
            )
            assert (made.reporter_profile, made.reported_profile, made.reason) == (
                ann["player"],
                None,
                "abusive_chat",
            )
            assert made.text == "insults" and made.match_number is None and made.reporter_address
            assert [line["text"] for line in made.chat] == ["you are all terrible"]
            assert report.status == "open"

    run(scenario)


def test_a_report_is_refused_for_a_bad_reason_a_long_line_oneself_a_bot_or_an_empty_seat(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        limits = dataclasses.replace(LIMITS, report_text=10)
        async with session(tmp_path / "smear.db", SLOW_DEAL, limits) as s:
            host = await s.create("Host", players=4)
            assert host.table is not None
            guest = await s.join(host.table, "Guest")
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            refused(await host.send("report", seat=guest.seat, reason="rude"), "invalid_message")
            refused(
                await host.send("report", seat=guest.seat, reason="other", text="x" * 11), "invalid_message"
            )
            refused(await host.send("report", seat=host.seat, reason="other"), "invalid_message")
            refused(await host.send("report", seat=2, reason="other"), "invalid_message")
            refused(await host.send("report", seat=3, reason="other"), "no_such_seat")
            stranger = await s.connect()  # follows no table: it may not report there
            payload = {"table": host.table, "seat": guest.seat, "reason": "other"}
            refused(await stranger.call("report", payload), "not_following")
            spectator = await s.watch(host.table)
            assert (await spectator.call("report", payload))["ok"]
            assert len(s.server.storage.reports.reports(only_open=False)) == 1

    run(scenario)


def test_reports_are_paced_per_address_whoever_reports_from_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = dataclasses.replace(LIMITS, report_burst=2, reports_per_hour=1)
        async with session(tmp_path / "smear.db", SLOW_DEAL, limits) as s:
            host = await s.create("Host", players=4)
            assert host.table is not None
            guests = [await s.join(host.table, f"Guest {i}") for i in (1, 2, 3)]
            for guest in guests[:2]:
                assert (await host.send("report", seat=guest.seat, reason="other"))["ok"]
            # The address has spent its allowance, whoever reports from it.
            refused(await host.send("report", seat=guests[2].seat, reason="other"), "rate_limited")
            refused(await guests[0].send("report", seat=guests[2].seat, reason="other"), "rate_limited")
            assert len(s.server.storage.reports.reports(only_open=False)) == 2

    run(scenario)


async def finished_match(s: Session) -> tuple[dict[str, str], dict[str, str], str, int]:
    """A match Ann and Ben (both with profiles) played to the end beside a bot and a guest: Ann's
    profile, Ben's, the match's id and Ben's seat."""
    ann, ben = await new_profile(s.url, "Ann"), await new_profile(s.url, "Ben")
    host = await host_with_profile(s, "Ann", ann, players=3, target=11)
    assert host.table is not None
    guest = await seat_with_profile(s, host.table, "Ben", ben)
    assert (await host.send("set_bot", seat=2, bot=True))["ok"]
    assert (await host.send("start"))["ok"]
    await play_out([host, guest])
    status, answer = await http_json("GET", f"{s.url}/api/players/{ann['player']}/matches")
    assert status == 200, answer
    assert guest.seat is not None
    return ann, ben, answer["matches"][0]["match"], guest.seat


def test_a_profile_reports_a_player_of_a_match_in_its_history(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            ann, ben, match, ben_seat = await finished_match(s)
            reports_url = f"{s.url}/api/players/{ann['player']}/reports"
            body = {"match": match, "seat": ben_seat, "reason": "cheating_or_collusion", "text": "odd plays"}
            status, answer = await http_json("POST", reports_url, body, secret="x" * 32)
            assert (status, answer["error"]["code"]) == (401, "bad_secret")
            status, answer = await http_json(
                "POST", reports_url, {**body, "match": "nope"}, secret=ann["secret"]
            )
            assert (status, answer["error"]["code"]) == (404, "no_such_match")
            status, answer = await http_json("POST", reports_url, {**body, "seat": 2}, secret=ann["secret"])
            assert (status, answer["error"]["code"]) == (400, "invalid_message")  # a bot
            status, answer = await http_json(
                "POST", reports_url, {**body, "reason": "x"}, secret=ann["secret"]
            )
            assert (status, answer["error"]["code"]) == (400, "invalid_message")
            # A match not in one's own history is as if it did not exist.
            cy = await new_profile(s.url, "Cy")
            status, answer = await http_json(
                "POST", f"{s.url}/api/players/{cy['player']}/reports", body, secret=cy["secret"]
            )
            assert (status, answer["error"]["code"]) == (404, "no_such_match")
            status, answer = await http_json("POST", reports_url, body, secret=ann["secret"])
            assert (status, answer) == (201, {"ok": True})
            [report] = s.server.storage.reports.reports(only_open=True)
            made = report.made
            assert (made.match_id, made.reported_profile, made.reported_name) == (match, ben["player"], "Ben")
            assert (made.reporter_profile, made.reason, made.text) == (
                ann["player"],
                "cheating_or_collusion",
                "odd plays",
            )

    run(scenario)


async def report_from(url: str, body: Any, secret: str, address: str) -> tuple[int, Any]:
    """``POST`` a report from history as sent by ``address`` through the trusted proxy."""
    headers = {"Authorization": f"Bearer {secret}", "X-Forwarded-For": address}
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http,
        http.post(url, json=body, headers=headers) as response,
    ):
        return response.status, await response.json()


def test_reports_are_paced_per_profile_whatever_address_it_reports_from(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = dataclasses.replace(
            LIMITS, report_burst=2, reports_per_hour=1, trusted_proxies=("127.0.0.1",)
        )
        async with session(tmp_path / "smear.db", limits=limits) as s:
            ann, ben, match, ben_seat = await finished_match(s)
            ann_url = f"{s.url}/api/players/{ann['player']}/reports"
            body = {"match": match, "seat": ben_seat, "reason": "other"}
            for address in ("203.0.113.1", "203.0.113.2"):
                assert await report_from(ann_url, body, ann["secret"], address) == (201, {"ok": True})
            # Ann's profile has spent its allowance: a fresh address does not give her another.
            status, answer = await report_from(ann_url, body, ann["secret"], "203.0.113.3")
            assert (status, answer["error"]["code"]) == (429, "rate_limited")
            # That address was not charged for her refusal: Ben reports from it.
            ben_url = f"{s.url}/api/players/{ben['player']}/reports"
            seats = s.server.storage.reports.played_seats(match)
            [ann_seat] = [i for i, seat in enumerate(seats) if seat.profile == ann["player"]]
            ben_body = {"match": match, "seat": ann_seat, "reason": "other"}
            assert await report_from(ben_url, ben_body, ben["secret"], "203.0.113.3") == (201, {"ok": True})
            reporters = [r.made.reporter_profile for r in s.server.storage.reports.reports(only_open=False)]
            assert reporters == [ann["player"], ann["player"], ben["player"]]

    run(scenario)


def report(at: float, text: str = "") -> NewReport:
    line = {"id": 1, "at": at, "seat": 1, "name": "Rude", "text": "a rude line"}
    return NewReport(
        at, "p1", "203.0.113.9", None, "Rude", 1, "TABLE001", 1, None, "abusive_chat", text, [line]
    )


def test_the_store_lists_resolves_with_its_audit_and_empties_the_chat_of_old_reports(tmp_path: Path) -> None:
    with Storage(f"sqlite:///{tmp_path / 'smear.db'}") as storage:
        store = storage.reports
        old = store.add_report(report(1_000.0, "old"))
        new = store.add_report(report(1_000.0 + REPORT_CHAT_KEPT_SECONDS + 10, "new"))
        assert [r.id for r in store.reports(only_open=True)] == [old, new]
        audit = Audit(at=5_000.0, command="reports resolve", target=str(old), note="warned", by="op")
        assert store.resolve(old, audit) is True
        assert store.resolve(old, audit) is False  # already resolved: nothing noted again
        assert store.resolve(999, audit) is False
        assert [r.id for r in store.reports(only_open=True)] == [new]
        resolved = store.report(old)
        assert resolved is not None and (resolved.status, resolved.resolution) == ("resolved", "warned")
        assert [(a.command, a.target, a.note) for a in storage.moderation.audit(10)] == [
            ("reports resolve", str(old), "warned")
        ]
        assert store.forget_chat_before(1_000.0 + REPORT_CHAT_KEPT_SECONDS) == 1
        kept_old, kept_new = store.report(old), store.report(new)
        assert kept_old is not None and kept_old.made.chat == [] and kept_old.made.text == "old"
        assert kept_new is not None and len(kept_new.made.chat) == 1


def admin(database: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["admin", *args, "--database", database])
    return result.exit_code, result.stdout, result.stderr


def test_smear_admin_reports_lists_shows_and_resolves_a_report_and_audits_the_resolution(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = f"sqlite:///{tmp_path / 'smear.db'}"
    with Storage(database) as storage:
        made = storage.reports.add_report(report(1_000.0, "insults"))
    code, out, _ = admin(database, "reports")
    assert code == 0 and out.startswith(f"{made}\t") and "abusive_chat\tTABLE001" in out and "Rude" in out
    code, out, _ = admin(database, "reports", "show", str(made))
    assert code == 0 and "reason: abusive_chat" in out and "text: insults" in out
    assert "Rude (seat 2): a rude line" in out
    with caplog.at_level(logging.INFO, logger="smear.admin"):
        code, out, _ = admin(
            database, "reports", "resolve", str(made), "--note", "warned the player", "--by", "op"
        )
    assert (code, out) == (0, f"resolved report {made}\n")
    assert "warned" not in caplog.text and "rude" not in caplog.text  # the note and chat stay out of the logs
    assert admin(database, "reports")[1] == ""
    code, out, _ = admin(database, "reports", "--all")
    assert f"{made}\t" in out and "resolved" in out
    code, out, _ = admin(database, "reports", "show", str(made))
    assert "resolved" in out and "warned the player" in out
    assert admin(database, "reports", "resolve", str(made), "--note", "again")[0] == 2
    code, _, err = admin(database, "reports", "show", "99")
    assert code == 2 and "no report 99" in err and "Traceback" not in err
    with Storage(database) as storage:
        [audit] = storage.moderation.audit(10)
    assert (audit.command, audit.target, audit.note, audit.by) == (
        "reports resolve",
        str(made),
        "warned the player",
        "op",
    )
    assert admin(database, "reports", "purge")[:2] == (0, "emptied the chat lines of 1 reports\n")
