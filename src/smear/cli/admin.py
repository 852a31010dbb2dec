"""``smear admin``: the operator's tools, run against the database (and Redis, where the cluster uses
it) while the servers run.

Every action (close, ban, unban, chat delete) is written with its row of the audit in one
transaction, and logged as one line with its event name (never chat text nor a secret). The
running servers read the orders the actions leave within about a second
(:mod:`smear.server.social.moderation`). Listings and exports change nothing and are not audited.
The reports (``smear admin reports ...``) are a group of their own beside these.

Exit status: 0 done, 2 bad arguments or a target that does not exist (one line on standard error,
never a traceback).
"""

from __future__ import annotations

import csv
import datetime
import getpass
import ipaddress
import logging
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

import click

from smear.cli.base import EXIT_INVALID, DashedArguments, cli, fail
from smear.cli.secrets import secret_option
from smear.cli.serve import database_option

log = logging.getLogger("smear.admin")

# The columns of each export, in order (docs/operations.md says what each holds).
MATCH_COLUMNS: Final = (
    "match_id",
    "table",
    "match_number",
    "preset",
    "finished_at",
    "seat",
    "side",
    "name",
    "profile_id",
    "is_bot",
    "won",
    "side_score",
)
RATING_COLUMNS: Final = (
    "profile_id",
    "name",
    "is_bot",
    "preset",
    "mu",
    "sigma",
    "ordinal",
    "matches",
    "matches_in_period",
)
_DATES: Final = ["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"]
# A stored row's id: the database's integers stop there (SQLite cannot even compare a larger one).
ROW_ID: Final = click.IntRange(1, 2**31 - 1)
# A closed table's reason is shown to its people with every answer: kept short.
CLOSE_REASON_LENGTH: Final = 200

redis_option = secret_option(
    "redis",
    default=None,
    metavar="URL",
    help="The cluster's Redis URL, to show which process owns each table.",
)
by_option = click.option(
    "--by", default=None, metavar="NAME", help="Who runs the command, for the audit (default: the OS user)."
)


def _utc(moment: datetime.datetime) -> float:
    """A date given on the command line, read as UTC, in seconds since the epoch."""
    return moment.replace(tzinfo=datetime.UTC).timestamp()


def _shown(at: float | None) -> str:
    if at is None:
        return "-"
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _operator(by: str | None) -> str:
    by = " ".join((by or "").split())  # one line in the log and the audit
    if by:
        return by[:64]
    try:
        return getpass.getuser()[:64]
    except (KeyError, OSError):
        return "unknown"


@contextmanager
def _storage(database: str) -> Iterator[Any]:
    from smear.server.storage.database import Storage, StorageError

    try:
        with Storage(database) as storage:
            yield storage
    except StorageError as err:
        fail(str(err), EXIT_INVALID)


def _logged(command: str, target: str, by: str, **fields: Any) -> None:
    """The action's log line: its event, target and who ran it; never the note (it may quote chat)."""
    if not logging.getLogger().handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(event)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    extra = {"event": f"admin_{command.replace(' ', '_')}", "target": target, "by": by, **fields}
    log.info("%s %s by %s", command, target, by, extra=extra)


def _audit(command: str, target: str, note: str, by: str | None) -> Any:
    from smear.server.storage.moderationstore import Audit

    return Audit(at=time.time(), command=command, target=target, note=note, by=_operator(by))


class OneLineErrors(click.Group):
    """A group whose commands' bad arguments (an unknown option, a date that is not one) are one
    line on standard error and status 2, as their own refusals are: a script reads one line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as err:
            where = err.ctx.command_path if err.ctx is not None else ctx.command_path
            fail(f"{where}: {err.format_message()}", EXIT_INVALID)


@cli.group("admin", cls=OneLineErrors)
def admin_group() -> None:
    """The operator's tools: tables, closing, bans, chat lines, exports. Each action is audited."""


# --- tables ------------------------------------------------------------------------------------------


def _owners(redis_url: str | None, codes: list[str], storage: Any) -> dict[str, str]:
    """Each table's owner as ``host pid``: from its lease with Redis (which lapses when its owner
    stops), else the one server process, ``stopped?`` after it if it has not said it runs lately."""
    from smear.server.cluster.coordination import PREFIX, masked, owner_host_pid
    from smear.server.storage.moderationstore import STOPPED_AFTER

    if redis_url is None:
        processes = storage.moderation.processes()
        if not processes:
            return dict.fromkeys(codes, "-")
        newest = processes[0]
        owner = f"{newest.host} {newest.pid}"
        if newest.silent_for(time.time()) > STOPPED_AFTER:
            owner += f" stopped? (silent since {_shown(newest.seen_at or newest.started_at)})"
        return dict.fromkeys(codes, owner)
    import redis
    from redis.exceptions import RedisError

    try:
        client = redis.Redis.from_url(redis_url, socket_connect_timeout=5, socket_timeout=5)
        try:
            found = client.mget([f"{PREFIX}lease:{code}" for code in codes]) if codes else []
        finally:
            client.close()
    except (ValueError, RedisError) as err:
        fail(f"cannot read the leases at Redis {masked(redis_url)!r}: {type(err).__name__}", EXIT_INVALID)
    owners: dict[str, str] = {}
    for code, value in zip(codes, found, strict=True):
        name = None if value is None else (value.decode() if isinstance(value, bytes) else str(value))
        where = None if name is None else owner_host_pid(name)
        owners[code] = "-" if name is None else name if where is None else f"{where[0]} {where[1]}"
    return owners


@admin_group.command("tables")
@database_option
@redis_option
def tables_command(database: str, redis: str | None) -> None:
    """List the live tables (in a lobby or playing, not put aside nor resting): code, status, the
    owner process's host and pid (- when no process holds it now; without --redis, "stopped?" when
    the server has not said it runs for a minute), and who sits where."""
    with _storage(database) as storage:
        tables = storage.unfinished_tables()
        owners = _owners(redis, [t.code for t in tables], storage)
    for table in tables:
        seats = " ".join(
            f"{s.seat}:{'-' if s.name is None else s.name}({'bot' if s.is_bot else 'person'})"
            for s in table.seats
        )
        click.echo(f"{table.code}\t{table.status}\t{owners[table.code]}\t{seats}")
    click.echo(f"{len(tables)} live tables", err=True)


# The code may begin with "-" (DashedArguments): taken as the code, not as options.
@admin_group.command("close", cls=DashedArguments)
@click.argument("code")
@click.option("--reason", required=True, help="Why: shown to the table's people and kept in the audit.")
@database_option
@by_option
def close_command(code: str, reason: str, database: str, by: str | None) -> None:
    """Close table CODE: its people are told why and can no longer act; its match is kept, put
    aside (``smear db quarantined`` lists it, ``smear db release`` would bring it back)."""
    reason = " ".join(reason.split())
    if not reason or len(reason) > CLOSE_REASON_LENGTH:
        fail(f"--reason must be 1 to {CLOSE_REASON_LENGTH} characters: its people are shown it", EXIT_INVALID)
    audit = _audit("close", code, reason, by)
    with _storage(database) as storage:
        if not storage.moderation.close_table(code, audit):
            fail(f"there is no table {code!r}", EXIT_INVALID)
    _logged("close", code, audit.by, table=code)
    click.echo(f"closed table {code}")


# --- bans --------------------------------------------------------------------------------------------

_KINDS: Final = click.Choice(["profile", "address"])


def _ban_target(storage: Any, kind: str, target: str) -> str:
    """The profile's id (given its id or its one name) or the network (an IP is a /32 or /128)."""
    if kind == "address":
        try:
            return str(ipaddress.ip_network(target, strict=False))
        except ValueError:
            fail(f"{target!r} is not an IP address or network (203.0.113.7, 2001:db8::/32)", EXIT_INVALID)
    return _profile_id(storage, target)


def _profile_id(storage: Any, target: str) -> str:
    """The id of the profile whose id, or whose one person's name, is ``target``."""
    found = storage.moderation.profile_ids(target)
    if not found:
        fail(f"there is no profile with the id or name {target!r}", EXIT_INVALID)
    if len(found) > 1:
        fail(f"{len(found)} profiles are called {target!r}: give one's id ({', '.join(found)})", EXIT_INVALID)
    return str(found[0])


@admin_group.command("ban", cls=DashedArguments)
@click.argument("kind", type=_KINDS)
@click.argument("target")
@click.option(
    "--until", type=click.DateTime(_DATES), default=None, help="When the ban ends (UTC); none: until unban."
)
@click.option("--reason", default="", help="Why, for the audit.")
@database_option
@by_option
def ban_command(
    kind: str, target: str, until: datetime.datetime | None, reason: str, database: str, by: str | None
) -> None:
    """Keep a profile (its id or name) or an address (an IP or a network) out: refused at connect,
    at table creation and by the players' API, with the code ``banned``."""
    ends = None if until is None else _utc(until)
    if ends is not None and ends <= time.time():
        fail("--until is in the past", EXIT_INVALID)
    from smear.server.players.ratings import BOT_PREFIX

    with _storage(database) as storage:
        chosen = _ban_target(storage, kind, target)
        if chosen.startswith(BOT_PREFIX):
            fail(f"{chosen} is a bot's profile: it cannot be banned", EXIT_INVALID)
        audit = _audit(f"ban {kind}", chosen, reason, by)
        storage.moderation.ban(kind, chosen, ends, audit)
    _logged(f"ban {kind}", chosen, audit.by)
    click.echo(f"banned {kind} {chosen} until {_shown(ends) if ends is not None else 'unbanned'}")


@admin_group.command("unban", cls=DashedArguments)
@click.argument("kind", type=_KINDS)
@click.argument("target")
@click.option("--reason", default="", help="Why, for the audit.")
@database_option
@by_option
def unban_command(kind: str, target: str, reason: str, database: str, by: str | None) -> None:
    """Let a banned profile or address in again."""
    with _storage(database) as storage:
        banned = {ban.target for ban in storage.moderation.bans(0.0) if ban.kind == kind}
        # A profile deleted since its ban has no name left: its id still lifts the ban.
        chosen = target if target in banned else _ban_target(storage, kind, target)
        audit = _audit(f"unban {kind}", chosen, reason, by)
        if not storage.moderation.unban(kind, chosen, audit):
            fail(f"{kind} {chosen} is not banned", EXIT_INVALID)
    _logged(f"unban {kind}", chosen, audit.by)
    click.echo(f"unbanned {kind} {chosen}")


@admin_group.command("bans")
@database_option
def bans_command(database: str) -> None:
    """List the bans in force: kind, target, since, until (UTC) and reason."""
    with _storage(database) as storage:
        bans = storage.moderation.bans(time.time())
    for ban in bans:
        reason = " ".join(ban.reason.split())
        click.echo(f"{ban.kind}\t{ban.target}\t{_shown(ban.since)}\t{_shown(ban.until)}\t{reason}")
    click.echo(f"{len(bans)} bans", err=True)


@admin_group.command("audit")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
@database_option
def audit_command(limit: int, database: str) -> None:
    """List the newest actions of the audit: when (UTC), who, the command, its target and note."""
    with _storage(database) as storage:
        rows = storage.moderation.audit(limit)
    for row in rows:
        click.echo(f"{_shown(row.at)}\t{row.by}\t{row.command}\t{row.target}\t{' '.join(row.note.split())}")


# --- chat --------------------------------------------------------------------------------------------


@admin_group.group("chat")
def chat_group() -> None:
    """A table's chat lines."""


@chat_group.command("delete")
@click.option("--table", "code", required=True, help="The table's code.")
@click.option(
    "--profile",
    default=None,
    metavar="ID|NAME",
    help="Only the lines this profile wrote at the table, from any seat it held (lines stored by a "
    "server older than the chat lines' writer are not reached: delete them by --line).",
)
@click.option("--line", type=ROW_ID, default=None, help="Only this line (its id).")
@click.option("--reason", default="", help="Why, for the audit.")
@database_option
@by_option
def chat_delete_command(
    code: str, profile: str | None, line: int | None, reason: str, database: str, by: str | None
) -> None:
    """Delete a table's chat lines (all, a profile's or one) from storage and from every page."""
    with _storage(database) as storage:
        writer = None if profile is None else _profile_id(storage, profile)
        target = code + (f" profile={writer}" if writer else "") + (f" line={line}" if line else "")
        audit = _audit("chat delete", target, reason, by)
        deleted = storage.moderation.delete_chat(code, writer, line, audit)
    if deleted is None:
        fail(f"there is no table {code!r}", EXIT_INVALID)
    if line is not None and not deleted:
        fail(f"table {code} has no chat line {line}" + (f" by {writer}" if writer else ""), EXIT_INVALID)
    _logged("chat delete", target, audit.by, table=code, lines=len(deleted))
    click.echo(f"deleted {len(deleted)} chat lines of table {code}")


# --- exports -----------------------------------------------------------------------------------------


@admin_group.command("export")
@click.argument("what", type=click.Choice(["matches", "ratings"]))
@click.option("--since", type=click.DateTime(_DATES), required=True, help="From this date (UTC), included.")
@click.option("--until", type=click.DateTime(_DATES), required=True, help="To this date (UTC), excluded.")
@database_option
def export_command(what: str, since: datetime.datetime, until: datetime.datetime, database: str) -> None:
    """CSV on standard output: each seat of the matches finished in the period, or the ratings of
    the profiles that finished a match in it (docs/operations.md lists the columns)."""
    start, end = _utc(since), _utc(until)
    if end <= start:
        fail("--until must be after --since", EXIT_INVALID)
    columns: tuple[str, ...] = MATCH_COLUMNS if what == "matches" else RATING_COLUMNS
    with _storage(database) as storage:
        if what == "matches":
            rows = storage.moderation.played_seats(start, end)
        else:
            rows = storage.moderation.period_ratings(start, end)
    writer = csv.DictWriter(sys.stdout, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        if "finished_at" in row:
            row = {**row, "finished_at": _shown(row["finished_at"])}
        writer.writerow(row)
    click.echo(f"{len(rows)} rows", err=True)
