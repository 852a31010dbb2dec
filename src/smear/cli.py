"""The ``smear`` command line: ``smear serve`` runs the game server (``smear db upgrade`` brings its
database up to date), ``smear play`` a match in the terminal against bots, ``smear arena`` matches
between bots, ``smear replay`` checks a match record and ``smear selfplay`` writes one, ``smear
review`` judges the decisions of a record with the expert's search.

Each subcommand is a function registered on the :data:`cli` group. Exit status: 0 success, 1 a
record whose play breaks the rules, 2 an invalid record or bad arguments, 3 a fault of the
program's own while replaying. Errors are one line on standard error, never a traceback.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.console import Console

from smear.bots import bot_names, random_action
from smear.cards import Suit
from smear.dealing import new_match, next_hand
from smear.errors import RulesError, SmearError
from smear.legal import legal_actions
from smear.record import (
    Record,
    Replay,
    ReplayError,
    dump_record,
    json_text,
    load_record,
    record_of,
    replay,
    whose_turn,
)
from smear.rules import PRESETS, Rules, find_rules, option_changes
from smear.server.limits import Limits, Timing
from smear.state import Phase, State
from smear.terminal import TerminalGame, default_names
from smear.transitions import apply

# A random match that has not ended after this many hands is a bug in the engine or in the policy.
MAX_SELFPLAY_HANDS = 2000

EXIT_ILLEGAL = 1
EXIT_INVALID = 2
EXIT_INTERNAL = 3


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Smear, the Midwest trick-taking card game."""


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``smear`` command (and of ``python -m smear``)."""
    cli.main(args=None if argv is None else list(argv), prog_name="smear")


def _fail(message: str, status: int) -> NoReturn:
    # One line, whatever the message holds, so scripts can read it.
    click.echo(" ".join(message.splitlines()), err=True)
    raise SystemExit(status)


# --- smear replay ---------------------------------------------------------------------------------


@cli.command("replay")
@click.argument("file", metavar="FILE|-")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def replay_command(file: str, as_json: bool) -> None:
    """Check every action of a match record and summarise its hands.

    Exits 1 at the first illegal or malformed action, 2 if FILE is not a valid record.
    """
    try:
        record = load_record(file)
        result = replay(record)
    except ReplayError as err:
        _fail(str(err), EXIT_ILLEGAL)
    except SmearError as err:  # a RecordError, or a deal the engine refused
        _fail(f"invalid record: {err}", EXIT_INVALID)
    except Exception as err:  # a bug: still one line, but say so
        _fail(f"internal error: {type(err).__name__}: {err}", EXIT_INTERNAL)
    if as_json:
        click.echo(json_text(result.summary))
    else:
        click.echo(summary_text(record, result))


_POINT_HEADERS = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "jick": "Jick",
    "big_joker": "BJ",
    "little_joker": "LJ",
    "game": "Game",
    "trey": "Trey",
}


def side_names(record: Record) -> list[str]:
    """What to call each side: the player's name, or ``Team 1``, ``Team 2``... with teams."""
    if record.teams is None:
        return list(record.players)
    return [f"Team {side + 1}" for side in range(len(record.teams))]


def _team_members(record: Record) -> list[str]:
    """``Team 1 (Ayse & You)``; without teams just the names."""
    if record.teams is None:
        return list(record.players)
    return [
        f"Team {number} ({' & '.join(record.players[seat] for seat in side)})"
        for number, side in enumerate(record.teams, 1)
    ]


def summary_text(record: Record, result: Replay) -> str:
    """The human summary of a replay: one table row per hand, then the scores and the winner."""
    summary: dict[str, Any] = result.summary
    players = record.players
    sides = side_names(record)
    points = list(record.rules.points)

    def side(value: int | None) -> str:
        return "-" if value is None else sides[value]

    headers = ["Hand", "Dealer", "Bidder", "Bid", "Trump"]
    headers += [_POINT_HEADERS.get(name, name.replace("_", " ").capitalize()) for name in points]
    headers += ["Result", "Scores"]
    score_width = max(len(str(score)) for entry in summary["hands"] for score in entry.get("scores", [0]))
    rows = []
    for number, (hand, entry) in enumerate(zip(record.hands, summary["hands"], strict=False), 1):
        bidder = entry.get("bidder")
        trump = entry.get("trump")
        row = [
            str(number),
            players[hand.dealer],
            "" if bidder is None else players[bidder],
            "" if entry.get("bid") is None else str(entry["bid"]),
            "" if trump is None else Suit("cdhs".index(trump)).plural,
        ]
        if "points" in entry:
            row += [side(entry["points"][name]) for name in points]
            made = entry["made"]
            row.append("thrown in" if made is None else "made" if made else "set")
            row.append("  ".join(str(score).rjust(score_width) for score in entry["scores"]))
        else:  # the hand the record stops in
            row += [""] * len(points) + ["in play", ""]
        rows.append(row)
    numeric = {0, 3, len(headers) - 1}
    widths = [max(len(line[col]) for line in [headers, *rows]) for col in range(len(headers))]

    def line(cells: list[str]) -> str:
        parts = [
            cell.rjust(width) if col in numeric else cell.ljust(width)
            for col, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    members = _team_members(record)
    teams = "" if record.teams is None else f" in {len(sides)} teams"
    title = f"{record.rules.name}, {len(players)} players{teams}: {', '.join(members)} (scores in this order)"
    out = [title, ""]
    out += [line(headers), line(["-" * width for width in widths])]
    out += [line(row) for row in rows]
    out.append("")
    scores = ", ".join(f"{name} {score}" for name, score in zip(members, summary["scores"], strict=True))
    out.append(f"Scores: {scores}")
    state = result.state
    if not summary["complete"]:
        out.append(
            f"The record stops in hand {state.public.hand_number} after {len(state.actions)} actions, "
            f"with {whose_turn(state, players)}."
        )
    elif summary["winner"] is not None:
        out.append(f"Winner: {members[summary['winner']]}")
    else:
        out.append("No winner yet: the match goes on.")
    return "\n".join(out)


# --- smear review ---------------------------------------------------------------------------------


@cli.command("review")
@click.argument("file", metavar="FILE|-")
@click.option(
    "--seat",
    "seats",
    type=int,
    multiple=True,
    help="A seat to review (from 0; may be given several times). Default: every seat.",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Seeds the sampled deals.")
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    help="Sampled deals per decision (default: the expert's own, 48). Fewer is faster and rougher.",
)
@click.option(
    "--top",
    default=20,
    show_default=True,
    type=click.IntRange(min=0),
    help="Costliest decisions to list (0: all). Not used with --json, which lists every decision.",
)
@click.option("--json", "as_json", is_flag=True, help="Print every decision and the totals as JSON.")
def review_command(
    file: str, seats: tuple[int, ...], seed: int, samples: int | None, top: int, as_json: bool
) -> None:
    """Judge every decision of a match record with the expert's search.

    Each bid, pass, discard, trump and card of the chosen seats is judged from that seat's view at
    that moment (never the cards it could not see): the expert's best action, the expected points
    of it and of the action taken, and the loss between them. Exits 1 if the record breaks the
    rules, 2 if FILE is not a valid record or a seat is not at its table.
    """
    from rich.progress import Progress

    from smear.review import check_seats, count_decisions, review_record, review_text

    try:
        record = load_record(file)
    except SmearError as err:
        _fail(f"invalid record: {err}", EXIT_INVALID)
    try:
        chosen = check_seats(record, seats or None)
    except ValueError as err:  # a seat the record does not have
        _fail(f"--seat: {err}", EXIT_INVALID)
    try:
        total = count_decisions(record, chosen)
    except ReplayError as err:
        _fail(str(err), EXIT_ILLEGAL)
    except SmearError as err:  # a deal the engine refused
        _fail(f"invalid record: {err}", EXIT_INVALID)
    except Exception as err:  # a bug: still one line, but say so
        _fail(f"internal error: {type(err).__name__}: {err}", EXIT_INTERNAL)
    try:
        console = Console(stderr=True)
        # Only on a terminal: a script reading standard error gets nothing but errors.
        with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
            task = progress.add_task("reviewing", total=total)
            review = review_record(record, chosen, seed, samples, on_decision=lambda: progress.advance(task))
    except Exception as err:  # the record replayed above: anything now is a bug
        _fail(f"internal error: {type(err).__name__}: {err}", EXIT_INTERNAL)
    if as_json:
        click.echo(json_text(review.to_json()))
    else:
        click.echo(review_text(record, review, top))


# --- smear selfplay -------------------------------------------------------------------------------


def selfplay_match(rules: Rules, players: int, teams: bool, seed: int) -> State:
    """Play one seeded match to its end with random legal actions.

    The choices come from :func:`smear.bots.random_action` (a cautious random auction, so that
    the match ends) drawing from ``random.Random(seed)``; the deals from the same seed.
    """
    rng = random.Random(seed)
    state = new_match(rules, players, teams, seed=seed)
    while state.public.phase is not Phase.MATCH_OVER:
        if state.public.phase is Phase.HAND_OVER:
            if state.public.hand_number >= MAX_SELFPLAY_HANDS:
                raise SmearError(f"no side won within {MAX_SELFPLAY_HANDS} hands")
            state = next_hand(state)
        else:
            state = apply(state, random_action(legal_actions(state), rng))
    return state


@cli.command("selfplay")
@click.option(
    "--rules", "preset", required=True, type=click.Choice(list(PRESETS)), help="The preset to play."
)
@click.option("--players", required=True, type=click.IntRange(min=2), help="Number of players.")
@click.option("--teams", is_flag=True, help="Partners across the table.")
@click.option("--seed", required=True, type=int, help="Seeds the deals and every choice.")
@click.option(
    "--out", "out", default="-", show_default=True, metavar="FILE|-", help="Where to write the record."
)
def selfplay_command(preset: str, players: int, teams: bool, seed: int, out: str) -> None:
    """Play one match with random legal actions and write its record.

    The same arguments write the same bytes.
    """
    rules = find_rules(preset)
    try:
        state = selfplay_match(rules, players, teams, seed)
    except RulesError as err:
        raise click.BadParameter(str(err), param_hint="--players") from None
    except SmearError as err:
        raise click.ClickException(str(err)) from None
    names = [f"Player {seat + 1}" for seat in range(players)]
    data = dump_record(record_of(state, names)).encode("utf-8")
    if out == "-":
        click.echo(data, nl=False)  # bytes go to the binary stream as they are
        return
    try:
        Path(out).write_bytes(data)
    except OSError as err:
        raise click.ClickException(f"cannot write {out}: {err.strerror or err}") from None
    pub = state.public
    sides = [" & ".join(names[seat] for seat in side) for side in pub.sides]
    winner = "nobody" if pub.winner is None else sides[pub.winner]
    scores = ", ".join(map(str, pub.scores))
    click.echo(
        f"wrote {out}: {preset}, {players} players, {len(pub.results)} hands; {winner} won ({scores})",
        err=True,
    )


# --- smear play -----------------------------------------------------------------------------------


@cli.command("play")
@click.option("--rules", "preset", default="house", show_default=True, type=click.Choice(list(PRESETS)))
@click.option("--players", default=4, show_default=True, type=click.IntRange(min=2))
@click.option("--teams", is_flag=True, help="Partners across the table.")
@click.option("--seed", type=int, default=None, help="Seeds the deals and the bots (random if not given).")
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option("--bot", default="heuristic", show_default=True, type=click.Choice(list(bot_names())))
def play_command(preset: str, players: int, teams: bool, seed: int | None, name: str, bot: str) -> None:
    """Play a match in the terminal against bots; type 'help' at any prompt."""
    rules = find_rules(preset)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    console = Console(highlight=False)
    try:
        game = TerminalGame(
            rules, players, teams, seed, default_names(players, name), console, read_line=input_line, bot=bot
        )
    except RulesError as err:
        raise click.BadParameter(str(err), param_hint="--players") from None
    console.print(f"Smear, {preset} rules, seed {seed}. Type 'help' at any prompt.")
    game.play()


# --- smear arena ----------------------------------------------------------------------------------


@cli.command("arena")
@click.option("--rules", "preset", default="house", show_default=True, type=click.Choice(list(PRESETS)))
@click.option("--players", default=4, show_default=True, type=click.IntRange(min=2))
@click.option("--teams", is_flag=True, help="Two sides of partners; name one bot per side.")
@click.option(
    "--bots",
    "lineup_text",
    default="heuristic,random",
    show_default=True,
    help=(
        "Bots by seat, comma-separated (the last fills the other seats); with --teams, one per side."
        " Also omniscient (sees every card; arena only, for measuring)."
    ),
)
@click.option("--matches", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=int, help="First deal seed.")
@click.option("--workers", type=click.IntRange(min=1), help="Processes (default: one per core).")
@click.option("--records", type=click.Path(file_okay=False), help="Write every match record here.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--target", type=click.Choice(["11", "21", "31", "52"]), help="Option: the match target.")
@click.option(
    "--shoot-the-moon", "moon", is_flag=True, help="Option: a bid above the top wins or loses the match."
)
@click.option("--elimination", is_flag=True, help="Option: a side at -21 or below loses.")
@click.option("--kitty", is_flag=True, help="Option (five_point): the bidder exchanges with a kitty.")
def arena_command(
    preset: str,
    players: int,
    teams: bool,
    lineup_text: str,
    matches: int,
    seed: int,
    workers: int | None,
    records: str | None,
    as_json: bool,
    target: str | None,
    moon: bool,
    elimination: bool,
    kitty: bool,
) -> None:
    """Play seeded matches between bots, seats rotated, and print how each did."""
    import os

    from rich.progress import Progress
    from rich.table import Table as RichTable

    from smear.arena import ArenaConfig, format_table, parse_lineup, run_arena

    rules = find_rules(preset)
    if kitty and not rules.kitty_option:
        raise click.BadParameter(f"{preset} has no kitty", param_hint="--kitty")
    changes = option_changes(
        rules,
        target=None if target is None else int(target),
        shoot_the_moon=moon,
        elimination=elimination,
        kitty=kitty,
    )
    if not rules.allows(players, teams):
        try:
            new_match(rules, players, teams, seed=0)
        except RulesError as err:
            raise click.BadParameter(str(err), param_hint="--players") from None
    try:
        lineup = parse_lineup(lineup_text, players, teams)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None
    config = ArenaConfig(preset, players, teams, lineup, matches, seed, tuple(changes.items()))
    folder = Path(records) if records else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{preset}, {players} players", total=matches)

        def done(result: Any) -> None:
            if folder is not None and result.record is not None:
                (folder / f"match-{result.index:05d}.json").write_text(dump_record(result.record))
            progress.advance(task)

        report = run_arena(
            config, workers or os.cpu_count() or 1, keep_records=folder is not None, on_result=done
        )
    if as_json:
        click.echo(json_text(report.as_json()))
        return
    table = RichTable(title=f"{preset}, {players} players{' in teams' if teams else ''}, {matches} matches")
    headings = ("bot", "matches", "wins", "win rate [95% interval]", "points/hand", "made/set", "avg bid")
    for heading in headings:
        table.add_column(heading)
    for row in format_table(report):
        table.add_row(*row)
    Console().print(table)


# --- smear serve ----------------------------------------------------------------------------------

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
        "--lease",
        "lease",
        click.FloatRange(0.5),
        "With --redis: seconds after which a stopped process's tables are taken over by the others.",
    ),
)
_LIMIT_SETTINGS = (
    "tables_per_hour",
    "connections_per_address",
    "spectators_per_table",
    "max_tables",
    "lobby_idle",
    "match_idle",
    "allowed_origins",
    "trusted_proxies",
)
_TIMING_SETTINGS = ("bot_pause", "hand_pause", "grace", "lease")


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


database_option = click.option(
    "--database",
    default="sqlite:///smear.db",
    show_default=True,
    help="SQLAlchemy database URL; tables and every action are kept there.",
)


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@database_option
@click.option(
    "--redis",
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
@serve_settings
def serve_command(
    host: str, port: int, database: str, redis: str | None, workers: int, **settings: Any
) -> None:
    """Run the game server: tables, invite links and real-time play."""
    import gc
    from functools import partial

    import uvicorn
    from sqlalchemy.engine import make_url

    from smear.server.app import create_app
    from smear.server.cluster import ClusterError, masked, reach_redis
    from smear.server.storage import Storage, StorageError
    from smear.server.workers import UVICORN_SETTINGS, run_workers

    if workers > 1 and redis is None:
        _fail(
            "--workers above 1 needs --redis URL: the processes share their tables through it", EXIT_INVALID
        )

    limits = Limits(**{name: settings[name] for name in _LIMIT_SETTINGS})
    timing = Timing(**{name: settings[name] for name in _TIMING_SETTINGS})

    # A server holds many live tables whose states are all tracked by the cycle collector; with
    # the default thresholds its full collections pause every table for a noticeable moment.
    # Collecting the youngest objects less often keeps the pauses short (states have no cycles).
    gc.set_threshold(50_000, 50, 100)

    build = partial(create_app, database, timing, limits, redis=redis)
    try:
        if redis is not None:
            reach_redis(redis)
        if workers > 1:
            with Storage(database):  # the schema brought up to date once, before the workers start
                pass
        else:
            app = build()
    except (StorageError, ClusterError) as err:
        _fail(str(err), EXIT_INVALID)
    shown = make_url(database).render_as_string()  # the password, if any, as ***
    shared = "" if redis is None else f", Redis {masked(redis)}"
    processes = "" if workers == 1 else f", {workers} processes"
    click.echo(
        f"Smear is ready: open http://{host}:{port} in a browser (database {shown}{shared}{processes})",
        err=True,
    )
    if workers > 1:
        run_workers(build, host, port, workers)
        return
    uvicorn.run(app, host=host, port=port, **UVICORN_SETTINGS)


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
    from smear.server.storage import Storage, StorageError

    try:
        with Storage(database) as storage:
            click.echo(storage.schema.describe())
    except StorageError as err:
        _fail(str(err), EXIT_INVALID)


def input_line(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "quit"


if __name__ == "__main__":
    main()
