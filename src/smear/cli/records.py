"""The subcommands on match records: ``smear replay`` checks one and summarises it, ``smear review``
judges its decisions with the expert's search, and ``smear selfplay`` writes one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from smear.bots import random_action
from smear.cards import Suit
from smear.cli.base import EXIT_ILLEGAL, EXIT_INTERNAL, EXIT_INVALID, cli, fail
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
from smear.rules import PRESETS, Rules, find_rules
from smear.state import Phase, State
from smear.transitions import apply

MAX_SELFPLAY_HANDS = 2000


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
        fail(str(err), EXIT_ILLEGAL)
    except SmearError as err:  # a RecordError, or a deal the engine refused
        fail(f"invalid record: {err}", EXIT_INVALID)
    except Exception as err:  # a bug: still one line, but say so
        fail(f"internal error: {type(err).__name__}: {err}", EXIT_INTERNAL)
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
    type=click.IntRange(min=2),
    help="Sampled deals per decision (default: as many as the expert searches when it plays). "
    "Fewer is faster, with wider margins of error.",
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
    that moment (never the cards it could not see), the way the expert makes that decision: its
    best action, the expected value of it and of the action taken (the side's score change minus
    the other side's), and the loss between them when it exceeds the margin of error (closer, the
    two are called equal). Exits 1 if the record breaks the rules, 2 if FILE is not a valid record
    or a seat is not at its table.
    """
    from rich.progress import Progress

    from smear.review import check_seats, count_decisions, review_record, review_text

    try:
        record = load_record(file)
    except SmearError as err:
        fail(f"invalid record: {err}", EXIT_INVALID)
    try:
        chosen = check_seats(record, seats or None)
    except ValueError as err:  # a seat the record does not have
        fail(f"--seat: {err}", EXIT_INVALID)
    try:
        total = count_decisions(record, chosen)
    except ReplayError as err:
        fail(str(err), EXIT_ILLEGAL)
    except SmearError as err:  # a deal the engine refused
        fail(f"invalid record: {err}", EXIT_INVALID)
    except Exception as err:  # a bug: still one line, but say so
        fail(f"internal error: {type(err).__name__}: {err}", EXIT_INTERNAL)
    try:
        console = Console(stderr=True)
        # Only on a terminal: a script reading standard error gets nothing but errors.
        with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
            task = progress.add_task("reviewing", total=total)
            review = review_record(record, chosen, seed, samples, on_decision=lambda: progress.advance(task))
    except Exception as err:  # the record replayed above: anything now is a bug
        fail(f"internal error: {type(err).__name__}: {err}", EXIT_INTERNAL)
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
