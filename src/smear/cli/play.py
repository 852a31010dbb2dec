"""The subcommands that play: ``smear play`` a match in the terminal against bots, ``smear arena``
seeded matches between bots."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from smear.bots import bot_names
from smear.cli.base import cli
from smear.dealing import new_match
from smear.errors import RulesError
from smear.record import dump_record, json_text
from smear.rules import PRESETS, find_rules, option_changes
from smear.terminal import TerminalGame, default_names

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
        " Also, for measuring (arena only): omniscient (sees every card) and expert-sees-auction,"
        " expert-sees-trump, expert-sees-auction-trump (the expert, shown every card at those decisions)."
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


def input_line(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "quit"
