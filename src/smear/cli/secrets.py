"""Options that may hold a password (a database's or Redis' URL), given so that the password is on
no command line and in no unit file: each option ``--NAME`` may also come from the environment
variable ``SMEAR_NAME``, or be read from a file, ``--NAME-file PATH`` or ``SMEAR_NAME_FILE`` (a
systemd credential, ``LoadCredential=``, is such a file). A file that cannot be read is a one-line
error and exit status 2; what the file holds is never shown."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from smear.cli.base import EXIT_INVALID, fail

_GIVEN = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def secret_option(name: str, *, default: str | None, metavar: str, help: str) -> Callable[[Any], Any]:
    """``--NAME`` (or ``SMEAR_NAME``) and ``--NAME-file`` (or ``SMEAR_NAME_FILE``): the command is
    called with ``NAME`` either way, read from the file when one is named."""
    variable = f"SMEAR_{name.upper()}"
    file_field = f"{name}_file"

    def decorate(command: Any) -> Any:
        @functools.wraps(command)
        def with_secret(*args: Any, **kwargs: Any) -> Any:
            path = kwargs.pop(file_field)
            if path is not None:
                source = click.get_current_context().get_parameter_source(name)
                if source in _GIVEN:
                    fail(f"--{name} and --{name}-file are both given: give one of them", EXIT_INVALID)
                kwargs[name] = read_secret(path, f"--{name}-file")
            return command(*args, **kwargs)

        with_secret = click.option(
            f"--{name}-file",
            file_field,
            envvar=f"{variable}_FILE",
            show_envvar=True,
            metavar="PATH",
            help=f"A file holding --{name} (its first line), so its password is on no command line.",
        )(with_secret)
        return click.option(
            f"--{name}",
            name,
            envvar=variable,
            default=default,
            show_default=default is not None,
            show_envvar=True,
            metavar=metavar,
            help=help,
        )(with_secret)

    return decorate


def read_secret(path: str, option: str) -> str:
    """The first line of the file at ``path``, without its surrounding spaces; a one-line failure
    (exit status 2) if it cannot be read or is empty."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        fail(f"{option} {path}: cannot be read ({err.strerror or type(err).__name__})", EXIT_INVALID)
    except UnicodeDecodeError:
        fail(f"{option} {path}: is not UTF-8 text", EXIT_INVALID)
    lines = text.strip().splitlines()
    if not lines or not lines[0].strip():
        fail(f"{option} {path}: is empty", EXIT_INVALID)
    return lines[0].strip()
