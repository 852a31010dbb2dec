"""The ``smear`` command line: ``smear serve`` runs the game server (``smear db upgrade`` brings its
database up to date), ``smear play`` a match in the terminal against bots, ``smear arena`` matches
between bots, ``smear replay`` checks a match record and ``smear selfplay`` writes one, ``smear
review`` judges the decisions of a record with the expert's search, ``smear practice build`` finds
solved positions for the Practice page and ``smear practice import`` stores them.

Each subcommand is a function registered on the :data:`cli` group (``smear.cli.base``), in the
module of its kind: ``records`` (replay, review, selfplay), ``play`` (play, arena), ``serve``
(serve, db), ``admin`` (the operator's tools), ``reports`` (``smear admin reports``) and
``practice`` (build, import). Exit
status: 0 success, 1 a record whose play breaks the rules, 2 an invalid record or bad arguments,
3 a fault of the program's own while replaying. Errors are one line on standard error, never a traceback.
"""

from smear.cli import admin, play, practice, records, reports, serve  # each registers its commands
from smear.cli.base import cli, main
from smear.cli.records import selfplay_match

__all__ = ["admin", "cli", "main", "play", "practice", "records", "reports", "selfplay_match", "serve"]
