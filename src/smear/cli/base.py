"""The ``smear`` group, its entry point, and how a subcommand fails: one line on standard error and
an exit status (0 success, 1 a record whose play breaks the rules, 2 an invalid record or bad
arguments, 3 a fault of the program's own while replaying)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

import click

EXIT_ILLEGAL = 1
EXIT_INVALID = 2
EXIT_INTERNAL = 3


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Smear, the Midwest trick-taking card game."""


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``smear`` command (and of ``python -m smear``)."""
    cli.main(args=None if argv is None else list(argv), prog_name="smear")


def fail(message: str, status: int) -> NoReturn:
    # One line, whatever the message holds, so scripts can read it.
    click.echo(" ".join(message.splitlines()), err=True)
    raise SystemExit(status)
