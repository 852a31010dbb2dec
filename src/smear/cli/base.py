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


class DashedArguments(click.Command):
    """A command whose arguments may begin with "-" (table codes and profile ids are URL-safe
    base64, so one in 64 does): a word that is none of its options, nor an option's value, is an
    argument. Click alone reads "-dash9ab" as the short options -d, -a, -s, -h (its help)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        options: dict[str, bool] = {}  # an option's name -> whether it takes a value
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                for name in (*param.opts, *param.secondary_opts):
                    options[name] = not (param.is_flag or param.count)
        kept: list[str] = []  # the options, their values, and the arguments before a dashed one
        moved: list[str] = []  # the arguments from the first dashed one on, in their order
        takes_value = False
        for index, arg in enumerate(args):
            if arg == "--":
                moved.extend(args[index + 1 :])
                break
            if takes_value:
                kept.append(arg)
                takes_value = False
            elif arg.split("=", 1)[0] in options:
                kept.append(arg)
                takes_value = "=" not in arg and options[arg]
            elif moved or (arg.startswith("-") and len(arg) > 1):
                moved.append(arg)
            else:
                kept.append(arg)
        return super().parse_args(ctx, [*kept, "--", *moved] if moved else kept)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``smear`` command (and of ``python -m smear``)."""
    cli.main(args=None if argv is None else list(argv), prog_name="smear")


def fail(message: str, status: int) -> NoReturn:
    # One line, whatever the message holds, so scripts can read it.
    click.echo(" ".join(message.splitlines()), err=True)
    raise SystemExit(status)
