"""The server's log on standard error: one line per record, as text (the default) or as JSON lines
(``smear serve --log-format json``), set up with the standard library's :mod:`logging.config`.

Every line carries the time (UTC), the level, the process (its pid, and its worker index under
``--workers``), the logger and the event: a stable short name per kind of line, which the server's
own calls give with ``extra={"event": ...}`` beside the fields the line names (``table``, ``seat``,
``error``...); a line without one (a library's) takes its logger's name. The JSON lines are written
by python-json-logger, each field its own key. docs/operations.md lists the events and fields.

Nothing logged may carry a card, a token, a secret or chat text: the callers pass codes, seats,
counts and error types, never what a player sent.
"""

from __future__ import annotations

import logging
import logging.config
import time
import traceback
from typing import Any, Final

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

LOG_FORMATS: Final = ("text", "json")
LOG_LEVELS: Final = ("debug", "info", "warning", "error")

# time level process logger event: message (the fields given with extra= are in the JSON lines only)
TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(where)s %(name)s %(event)s: %(message)s"
# The standard attributes a JSON line keeps, renamed; every field given with extra= is added.
JSON_FIELDS: Final = ("asctime", "levelname", "process", "name", "message")
JSON_NAMES: Final = {"asctime": "time", "levelname": "level", "process": "pid", "name": "logger"}
# Uvicorn's loggers, which it would otherwise give handlers of its own: here they reach the root's.
UVICORN_LOGGERS: Final = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


class ProcessFields(logging.Filter):
    """Gives every record the fields each line carries: its event (its logger's name when the
    caller gave none), the worker index under ``--workers`` and, for the text lines, where it was
    written (``pid`` or ``pid/wN``). A traceback keeps its frames and each exception's type, not
    its text, which may quote a card or what was being written."""

    def __init__(self, worker: int | None = None) -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "event"):
            record.event = record.name
        if self.worker is None:
            record.where = str(record.process)
        else:
            record.worker = self.worker
            record.where = f"{record.process}/w{self.worker}"
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = frames_only(record.exc_info[1])
            record.exc_info = None
        return True


def frames_only(error: BaseException) -> str:
    """``error``'s traceback (and those of the errors it came from), each exception named by its
    type alone."""
    chain: list[traceback.TracebackException] = []
    link: traceback.TracebackException | None = traceback.TracebackException.from_exception(error)
    while link is not None:
        chain.append(link)
        link = link.__cause__ or (None if link.__suppress_context__ else link.__context__)
    lines: list[str] = []
    for link in reversed(chain):
        lines += ["Traceback (most recent call last):\n", *link.stack.format()]
        lines.append(f"{link.exc_type.__module__}.{link.exc_type.__qualname__}\n" if link.exc_type else "?\n")
    return "".join(lines).rstrip("\n")


def _in_utc(formatter: logging.Formatter) -> logging.Formatter:
    """Times as ISO 8601 in UTC with milliseconds: 2026-01-31T18:04:05.123Z."""
    formatter.converter = time.gmtime
    formatter.default_time_format = "%Y-%m-%dT%H:%M:%S"
    formatter.default_msec_format = "%s.%03dZ"
    return formatter


def text_formatter() -> logging.Formatter:
    return _in_utc(logging.Formatter(TEXT_FORMAT))


def json_formatter() -> logging.Formatter:
    return _in_utc(
        JsonFormatter(list(JSON_FIELDS), rename_fields=JSON_NAMES, reserved_attrs=[*RESERVED_ATTRS, "where"])
    )


def logging_config(log_format: str, level: str, worker: int | None = None) -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of a server process."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"process": {"()": ProcessFields, "worker": worker}},
        "formatters": {"line": {"()": json_formatter if log_format == "json" else text_formatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "line",
                "filters": ["process"],
            }
        },
        "root": {"level": level.upper(), "handlers": ["stderr"]},
        "loggers": {
            **{name: {"handlers": [], "propagate": True} for name in UVICORN_LOGGERS},
            "alembic": {"level": "WARNING"},  # its info lines tell nothing an operator acts on
            # Its debug trace copies every WebSocket frame, tokens and cards in requests included:
            # never written, whatever --log-level says.
            "websockets": {"level": "WARNING"},
        },
    }


def configure_logging(log_format: str, level: str, worker: int | None = None) -> None:
    """Send every log record of this process to standard error in ``log_format`` from ``level``
    up; uvicorn's records too. Called again in each worker with its index."""
    logging.config.dictConfig(logging_config(log_format, level, worker))
