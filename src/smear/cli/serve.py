"""The game server's subcommands: ``smear serve`` runs it, ``smear db upgrade`` brings its database
up to date, ``smear db quarantined`` lists the tables put aside and ``smear db release`` brings one
back."""

from __future__ import annotations

import os
from typing import Any

import click

from smear.cli.base import EXIT_INVALID, DashedArguments, cli, fail
from smear.cli.secrets import secret_option
from smear.server.limits import Limits, Timing

# --- smear serve ----------------------------------------------------------------------------------

# The kinds of work nobody at a table waits for (smear.server.players.background): each has a
# queue and a pace.
_LANES = (
    ("review", "Reviews of finished matches"),
    ("replay", "Replays of finished matches"),
    ("upload", "Records sent to be replayed"),
)

# The server's settings as options: (option, field of Limits or Timing, its type, help). Each
# default is the field's own, so it is written in one place.
_SERVE_SETTINGS: tuple[tuple[str, str, Any, str], ...] = (
    (
        "--tables-per-hour",
        "tables_per_hour",
        click.IntRange(0),
        "Tables one client address may create in an hour (0: no limit).",
    ),
    (
        "--connections-per-address",
        "connections_per_address",
        click.IntRange(0),
        "Sockets one client address may hold open at once (0: no limit).",
    ),
    (
        "--stop-grace",
        "stop_grace",
        click.IntRange(0),
        "Seconds requests still under way may take, once the server is told to stop, before they are cut.",
    ),
    (
        "--spectators-per-table",
        "spectators_per_table",
        click.IntRange(0),
        "Spectators one table may have (0: no limit).",
    ),
    (
        "--max-tables",
        "max_tables",
        click.IntRange(0),
        "Tables in memory at once; more are refused (0: no limit).",
    ),
    *(
        (f"--{kind}-queue", f"{kind}_queue", click.IntRange(0), f"{what} under way or waiting (0: no limit).")
        for kind, what in _LANES
    ),
    *(
        (
            f"--{kind}-pace",
            f"{kind}_pace",
            click.FloatRange(0),
            f"{what} one address may ask a second (0: no pace).",
        )
        for kind, what in _LANES
    ),
    *(
        (f"--{kind}-burst", f"{kind}_burst", click.IntRange(1), f"{what} one address may ask at once.")
        for kind, what in _LANES
    ),
    (
        "--profile-burst",
        "profile_burst",
        click.IntRange(1),
        "New profiles one client address may make at once (a class or a family behind one address).",
    ),
    (
        "--profiles-per-hour",
        "profiles_per_hour",
        click.IntRange(0),
        "New profiles one client address may make an hour once its burst is spent (0: no pace).",
    ),
    (
        "--transfer-burst",
        "transfer_burst",
        click.IntRange(1),
        "Wrong transfer codes one client address may try at once.",
    ),
    (
        "--transfer-tries-per-hour",
        "transfer_tries_per_hour",
        click.IntRange(0),
        "Wrong transfer codes one client address may try an hour once its burst is spent (0: no pace).",
    ),
    (
        "--transfer-code-tries",
        "transfer_code_tries",
        click.IntRange(1),
        "Wrong tries at one transfer code, from any address, at once.",
    ),
    (
        "--transfer-code-tries-per-hour",
        "transfer_code_tries_per_hour",
        click.IntRange(0),
        "Wrong tries at one transfer code an hour once its burst is spent (0: no pace).",
    ),
    (
        "--report-burst",
        "report_burst",
        click.IntRange(1),
        "Reports of other players one profile, and one client address, may make at once.",
    ),
    (
        "--reports-per-hour",
        "reports_per_hour",
        click.IntRange(0),
        "Reports one profile, and one client address, may make an hour once its burst is spent (0: no pace).",
    ),
    (
        "--practice-burst",
        "practice_burst",
        click.IntRange(1),
        "Practice requests (positions and answers) one profile, and one client address, may make at once.",
    ),
    (
        "--practice-per-hour",
        "practice_per_hour",
        click.IntRange(0),
        "Practice requests one profile, and one client address, may make an hour once its burst is spent"
        " (0: no pace).",
    ),
    (
        "--relations-burst",
        "relations_burst",
        click.IntRange(1),
        "Friends' and blocks' requests one profile, and one client address, may make at once.",
    ),
    (
        "--relations-per-hour",
        "relations_per_hour",
        click.IntRange(0),
        "Friends' and blocks' requests one profile, and one client address, may make an hour once its"
        " burst is spent (0: no pace).",
    ),
    (
        "--report-text",
        "report_text",
        click.IntRange(0, 1_000),
        "The longest line, in characters, a player may add to a report.",
    ),
    (
        "--record-bytes",
        "record_bytes",
        click.IntRange(1),
        "The largest record, in bytes, sent to be replayed.",
    ),
    (
        "--record-hands",
        "record_hands",
        click.IntRange(0),
        "The most hands of a record replayed or reviewed (0: no limit).",
    ),
    (
        "--background-niceness",
        "background_niceness",
        click.IntRange(0, 19),
        "Niceness of the processes of background work (reviews, replays, records sent): 10 puts them "
        "behind everything else on the machine, 0 beside it.",
    ),
    (
        "--lobby-idle",
        "lobby_idle",
        click.FloatRange(0, min_open=True),
        "Seconds a lobby may have no player connected before it closes.",
    ),
    (
        "--match-idle",
        "match_idle",
        click.FloatRange(0, min_open=True),
        "Seconds a match may have no player connected before it is put to rest (kept, out of memory).",
    ),
    (
        "--sweep-every",
        "sweep_every",
        click.FloatRange(0, min_open=True),
        "Seconds between two looks for idle tables, finished ones to free and records to store again.",
    ),
    (
        "--finish-attempts",
        "finish_attempts",
        click.IntRange(1),
        "Tries at storing a finished match's record, one a sweep, before its table is put aside.",
    ),
    (
        "--bot-pause",
        "bot_pause",
        click.FloatRange(0),
        "Seconds a bot waits before it plays, so people can follow.",
    ),
    (
        "--hand-pause",
        "hand_pause",
        click.FloatRange(0),
        "Seconds the end of a hand stays up before the next deal.",
    ),
    (
        "--grace",
        "grace",
        click.FloatRange(0),
        "Seconds a disconnected player's turn waits before a bot plays it.",
    ),
    (
        "--match-pause",
        "match_pause",
        click.FloatRange(0),
        "Seconds between two matches at a matchmade table (the next starts with those still there).",
    ),
    (
        "--matchmade-turn",
        "matchmade_turn",
        click.IntRange(1),
        "Seconds a matchmade table gives each turn before a bot plays it.",
    ),
    (
        "--lease",
        "lease",
        click.FloatRange(0.5),
        "With --redis: seconds after which a stopped process's tables are taken over by the others.",
    ),
)
_LIMIT_SETTINGS = (
    *(f"{kind}_{setting}" for kind, _ in _LANES for setting in ("queue", "pace", "burst")),
    "record_bytes",
    "record_hands",
    "background_niceness",
    "tables_per_hour",
    "profile_burst",
    "profiles_per_hour",
    "transfer_burst",
    "transfer_tries_per_hour",
    "transfer_code_tries",
    "transfer_code_tries_per_hour",
    "report_burst",
    "reports_per_hour",
    "report_text",
    "practice_burst",
    "practice_per_hour",
    "relations_burst",
    "relations_per_hour",
    "connections_per_address",
    "stop_grace",
    "spectators_per_table",
    "max_tables",
    "lobby_idle",
    "match_idle",
    "sweep_every",
    "finish_attempts",
    "allowed_origins",
    "trusted_proxies",
)
_TIMING_SETTINGS = ("bot_pause", "hand_pause", "grace", "match_pause", "matchmade_turn", "lease")


def os_reason(err: OSError) -> str:
    """The system's words for ``err`` ("Address already in use"), without what Python added to them
    (``socket.create_server`` names the address again)."""
    return os.strerror(err.errno) if err.errno else str(err)


def serve_settings(command: Any) -> Any:
    """The options of :data:`_SERVE_SETTINGS`, and the two that may be given several times."""
    defaults = {**vars(Limits()), **vars(Timing())}
    for option, field, kind, text in reversed(_SERVE_SETTINGS):
        command = click.option(
            option, field, default=defaults[field], show_default=True, type=kind, help=text
        )(command)
    command = click.option(
        "--trusted-proxy",
        "trusted_proxies",
        multiple=True,
        metavar="ADDRESS",
        help="A reverse proxy's address or network whose X-Forwarded-For names the real client.",
    )(command)
    return click.option(
        "--allowed-origin",
        "allowed_origins",
        multiple=True,
        metavar="ORIGIN",
        help="Another origin (https://example.org) whose pages may open a socket; the server's own may.",
    )(command)


database_option = secret_option(
    "database",
    default="sqlite:///smear.db",
    metavar="URL",
    help="SQLAlchemy database URL; tables and every action are kept there.",
)


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@database_option
@secret_option(
    "redis",
    default=None,
    metavar="URL",
    help="Redis URL (redis://host:6379/0): serve the same tables as every other process on it.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this machine, sharing the port (above 1 needs --redis).",
)
@click.option(
    "--metrics",
    "metrics_at",
    metavar="HOST:PORT",
    callback=lambda _context, _option, value: _metrics_address(value),
    help="Serve Prometheus metrics at http://HOST:PORT/metrics (every worker's), apart from the game's port.",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="The log on standard error: text lines, or JSON lines (one object a line; docs/operations.md).",
)
@click.option(
    "--practice-starter/--no-practice-starter",
    default=True,
    show_default=True,
    help="Store the bundled practice positions in a database that has none yet (docs/practice.md).",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
    help="The least important lines written.",
)
@serve_settings
def serve_command(
    host: str,
    port: int,
    database: str,
    redis: str | None,
    workers: int,
    metrics_at: tuple[str, int] | None,
    **settings: Any,
) -> None:
    """Run the game server: tables, invite links and real-time play."""
    if metrics_at is not None and workers > 1:
        from smear.server.metrics import share_between_processes

        # Before the workers exist and record anything: they write their numbers there.
        with share_between_processes() as directory:
            _serve(host, port, database, redis, workers, settings, (metrics_at, directory))
        return
    _serve(host, port, database, redis, workers, settings, (metrics_at, None))


def _store_starter_positions(database: str) -> None:
    import logging

    from smear.server.storage.practicestore import import_starter

    stored = import_starter(database)
    if stored:
        found = {"event": "practice_starter", "positions": stored}
        logging.getLogger("smear.server").info("%d starter practice positions stored", stored, extra=found)


def _metrics_address(value: str | None) -> tuple[str, int] | None:
    from smear.server.metrics import parse_address

    try:
        return None if value is None else parse_address(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def _serve(
    host: str,
    port: int,
    database: str,
    redis: str | None,
    workers: int,
    settings: dict[str, Any],
    metrics: tuple[tuple[str, int] | None, str | None],
) -> None:
    import gc
    import logging
    from functools import partial

    from sqlalchemy.engine import make_url

    from smear.server.app import create_app
    from smear.server.cluster.coordination import ClusterError, masked, reach_redis
    from smear.server.logs import configure_logging
    from smear.server.metrics import Metrics, aggregated_registry, serve_metrics, worker_gone
    from smear.server.storage.database import Storage, StorageError
    from smear.server.workers import listen, run_workers, serve

    if workers > 1 and redis is None:
        fail("--workers above 1 needs --redis URL: the processes share their tables through it", EXIT_INVALID)
    log_format, log_level = settings["log_format"], settings["log_level"]
    configure_logging(log_format, log_level)

    limits = Limits(**{name: settings[name] for name in _LIMIT_SETTINGS})
    timing = Timing(**{name: settings[name] for name in _TIMING_SETTINGS})

    # A server holds many live tables whose states are all tracked by the cycle collector; with
    # the default thresholds its full collections pause every table for a noticeable moment.
    # Collecting the youngest objects less often keeps the pauses short (states have no cycles).
    gc.set_threshold(50_000, 50, 100)

    metrics_at, directory = metrics

    def build() -> Any:  # in each worker: its own metrics, written where the parent reads them
        return create_app(database, timing, limits, redis=redis, metrics=Metrics(metrics_at is not None))

    try:
        if redis is not None:
            reach_redis(redis)
        if settings["practice_starter"]:  # before the workers start: one process stores them
            _store_starter_positions(database)
        if workers > 1:
            with Storage(database):  # the schema brought up to date once, before the workers start
                pass
            registry = None if directory is None else aggregated_registry(directory)
        else:
            single = Metrics(metrics_at is not None)
            app = create_app(database, timing, limits, redis=redis, metrics=single)
            registry = single.registry
    except (StorageError, ClusterError) as err:
        fail(str(err), EXIT_INVALID)
    if metrics_at is not None and registry is not None:
        try:
            serve_metrics(metrics_at, registry)
        except OSError as err:  # the port taken, or an address not of this machine
            where = f"{metrics_at[0]}:{metrics_at[1]}"
            fail(f"the metrics cannot be served at {where}: {os_reason(err)}", EXIT_INVALID)
    try:  # bound before the server says it is ready: a port taken is an error, not a ready server
        listener = listen(host, port)
    except OSError as err:
        fail(f"the server cannot listen at {host}:{port}: {os_reason(err)}", EXIT_INVALID)
    shown = make_url(database).render_as_string()  # the password, if any, as ***
    shared = "" if redis is None else f", Redis {masked(redis)}"
    processes = "" if workers == 1 else f", {workers} processes"
    logging.getLogger("smear.server").info(
        f"Smear is ready: open http://{host}:{port} in a browser (database {shown}{shared}{processes})",
        extra={
            "event": "server_ready",
            "host": host,
            "port": port,
            "database": shown,
            "redis": None if redis is None else masked(redis),
            "workers": workers,
        },
    )
    if workers > 1:
        gone = None if directory is None else partial(worker_gone, directory)
        setup = partial(configure_logging, log_format, log_level)  # each worker's lines name it
        run_workers(build, listener, workers, limits.stop_grace, gone=gone, setup=setup)
        return
    serve(app, limits.stop_grace, sockets=[listener])


# --- smear db -------------------------------------------------------------------------------------


@cli.group("db")
def db_group() -> None:
    """The game server's database."""


@db_group.command("upgrade")
@database_option
def db_upgrade_command(database: str) -> None:
    """Bring the database's schema to the newest revision (creating it if it is empty).

    The server does the same as it starts; run this before starting several servers on one
    database, or to see what an upgrade does.
    """
    from smear.server.storage.database import Storage, StorageError

    try:
        with Storage(database) as storage:
            click.echo(storage.schema.describe())
    except StorageError as err:
        fail(str(err), EXIT_INVALID)


@db_group.command("quarantined")
@database_option
def db_quarantined_command(database: str) -> None:
    """List the tables put aside: each code, what failed (restore or finish), the error's type and
    since when (UTC). None of them is served until it is released."""
    import datetime

    from smear.server.storage.database import Storage, StorageError

    try:
        with Storage(database) as storage:
            tables = storage.quarantine.quarantined()
    except StorageError as err:
        fail(str(err), EXIT_INVALID)
    for table in tables:
        since = datetime.datetime.fromtimestamp(table.since, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"{table.code}\t{table.reason}\t{table.error}\t{since}")
    click.echo(f"{len(tables)} quarantined", err=True)


# A table code may begin with "-" (DashedArguments): taken as the code, not as options.
@db_group.command("release", cls=DashedArguments)
@click.argument("code")
@database_option
def db_release_command(code: str, database: str) -> None:
    """Take table CODE out of quarantine, once what failed is fixed: the next server start (or the
    next person to open it) brings it back, or puts it aside again if it still fails."""
    from smear.server.storage.database import Storage, StorageError

    try:
        with Storage(database) as storage:
            released = storage.quarantine.release(code)
    except StorageError as err:
        fail(str(err), EXIT_INVALID)
    if not released:
        fail(f"table {code!r} is not quarantined", EXIT_INVALID)
    click.echo(f"released table {code}")
