"""The ``smear practice`` group: ``build`` finds practice positions in self-play of the bot levels
and solves them (see :mod:`smear.practice`); ``import`` stores a build's output in the server's
database."""

from __future__ import annotations

import os
from pathlib import Path

import click

from smear.cli.base import EXIT_INVALID, cli, fail
from smear.cli.serve import database_option
from smear.rules import PRESETS

DEFAULT_PRESETS = ("house", "ten_point", "five_point")


@cli.group("practice")
def practice() -> None:
    """Practice positions: build them from self-play, store them in the server's database."""


@practice.command("build")
@click.option("--database", help="Store the positions in this database (the server's) as well.")
@click.option(
    "--selfplay",
    "matches",
    default=20,
    show_default=True,
    type=click.IntRange(min=1),
    help="Self-play matches of the bot levels per preset.",
)
@click.option(
    "--rules",
    "presets",
    multiple=True,
    type=click.Choice(list(PRESETS)),
    help="A preset to play (repeat for several; default house, ten_point, five_point).",
)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the positions here (JSON lines)."
)
@click.option("--deals", type=click.IntRange(min=8), help="Deals searched per position (default: measured).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seeds the matches and the searches.")
@click.option("--workers", type=click.IntRange(min=1), help="Processes (default: one per core).")
def build_command(
    database: str | None,
    matches: int,
    presets: tuple[str, ...],
    out: Path | None,
    deals: int | None,
    seed: int,
    workers: int | None,
) -> None:
    """Play self-play matches, solve their unforced decisions and keep the sound ones."""
    from smear.practice.build import DEFAULT_DEALS, BuildConfig, run_build

    if out is None and database is None:
        raise click.UsageError("say where the positions go: --out FILE.jsonl and/or --database URL")
    config = BuildConfig(
        presets=presets or DEFAULT_PRESETS,
        matches=matches,
        deals=deals or DEFAULT_DEALS,
        seed=seed,
        workers=workers or os.cpu_count() or 1,
    )
    try:
        handle = out.open("w", encoding="utf-8") if out is not None else None
    except OSError as err:
        fail(f"cannot write {out}: {err.strerror}", EXIT_INVALID)
    records = run_build(config, handle, progress=lambda text: click.echo(text, err=True))
    if handle is not None:
        handle.close()
    click.echo(f"positions: {len(records)}", err=True)
    if database is not None:
        from smear.server.storage.practicestore import import_positions

        try:
            imported, skipped = import_positions(database, records)
        except Exception as err:  # a database the store cannot reach or use: one line, no traceback
            fail(
                f"cannot store the positions: {type(err).__name__}: {str(err).splitlines()[0]}", EXIT_INVALID
            )
        click.echo(f"imported: {imported}")
        click.echo(f"skipped: {skipped}")


@practice.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@database_option
def import_command(file: Path, database: str) -> None:
    """Store the positions of a build's FILE.jsonl in the database; those already stored are skipped."""
    import json

    from smear.server.storage.database import StorageError
    from smear.server.storage.practicestore import BadPositionRecord, import_positions, parse_position

    positions = []
    try:
        with file.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    positions.append(parse_position(json.loads(line)))
                except json.JSONDecodeError:
                    fail(f"{file}: line {number}: not JSON", EXIT_INVALID)
                except BadPositionRecord as err:
                    fail(f"{file}: line {number}: {err}", EXIT_INVALID)
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {getattr(err, 'strerror', None) or type(err).__name__}", EXIT_INVALID)
    try:
        imported, skipped = import_positions(database, positions)
    except StorageError as err:
        fail(f"cannot store the positions: {err}", EXIT_INVALID)
    click.echo(f"imported: {imported}")
    click.echo(f"skipped: {skipped}")
