"""Bringing a database's schema up to date with Alembic: the migrations are in ``migrations/``.

:class:`~smear.server.storage.database.Storage` calls :func:`upgrade` each time it opens a database, and
``smear db upgrade`` calls it on its own (say before starting several servers on one database).
Three cases:

- an empty database gets today's schema at once (the models' ``create_all``) and is marked as being
  at the newest revision; ``tests/server/test_migrations.py`` checks that running every migration
  from the first gives exactly the same schema;
- a database written before the schema had migrations (it has the tables but no
  ``alembic_version``) is marked as being at the first revision, then upgraded like any other;
- any other database runs the migrations after its revision, in one transaction: if one fails,
  nothing is changed.

Servers that start together on one database take turns: on PostgreSQL an advisory lock is held for
the upgrade's transaction, on SQLite the write lock.

A database at a revision this version does not know (written by a newer one) is refused.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

from smear.errors import SmearError
from smear.server.storage.schema import Base

__all__ = ["FIRST_REVISION", "MigrationError", "Upgrade", "alembic_config", "head_revision", "upgrade"]

MIGRATIONS: Final = Path(__file__).with_name("migrations")
FIRST_REVISION: Final = "0001_first_schema"
# A table every version of the schema has: a database holding it but no revision predates migrations.
_OLDEST_TABLE: Final = "card_tables"
_LOCK_KEY: Final = 0x5E1A_0001  # the advisory lock held while a PostgreSQL database is upgraded


class MigrationError(SmearError):
    """The database's schema cannot be brought up to date (nothing was changed)."""


@dataclass(frozen=True)
class Upgrade:
    """What :func:`upgrade` found and did."""

    before: str | None  # the revision found: None for an empty database or one from before migrations
    after: str
    applied: list[str]  # the migrations run, in order
    unversioned: bool = False  # the database was written before the schema had migrations

    def describe(self) -> str:
        if self.before is None and not self.unversioned:
            return f"created the schema at revision {self.after}"
        if not self.applied:
            return f"already at revision {self.after}"
        since = "from before migrations" if self.unversioned else f"from revision {self.before}"
        return f"upgraded {since} to {self.after}: {', '.join(self.applied)}"


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for running its commands on ``connection`` (no ``alembic.ini``)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@functools.cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    """The newest revision of the schema."""
    head = _scripts().get_current_head()
    assert head is not None, "the migrations have one head"
    return head


def upgrade(engine: Engine) -> Upgrade:
    """Bring the database of ``engine`` to the newest revision, in one transaction."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if not sqlite:
            with connection.begin():
                return _upgrade(connection)
        # SQLite changes a column by copying its table, and dropping the old one would delete the
        # rows that cascade from it: foreign keys are off meanwhile (set outside any transaction,
        # where SQLite ignores it), and checked before the commit.
        raw = connection.connection.driver_connection
        assert raw is not None
        raw.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                done = _upgrade(connection)
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise MigrationError(f"the upgrade would break {len(broken)} references between rows")
                return done
        finally:
            raw.execute("PRAGMA foreign_keys=ON")


def _upgrade(connection: Connection) -> Upgrade:
    """Bring the database to the newest revision, inside the caller's transaction."""
    head = head_revision()
    if connection.dialect.name == "postgresql":
        # Servers starting together on one database upgrade it one after the other: the others
        # wait here, then find it done. (SQLite's write lock, taken at BEGIN, does the same.)
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
    context = MigrationContext.configure(connection)
    found = context.get_current_revision()
    if found is None and not inspect(connection).has_table(_OLDEST_TABLE):
        Base.metadata.create_all(connection)
        context.stamp(_scripts(), head)
        return Upgrade(None, head, [])
    if found == head:
        return Upgrade(found, head, [])
    known = {script.revision for script in _scripts().walk_revisions()}
    if found is not None and found not in known:
        raise MigrationError(
            f"the database is at revision {found!r}, which this version of Smear does not know "
            f"(its newest is {head!r}): was it written by a newer version?"
        )
    start = found or FIRST_REVISION
    applied = [script.revision for script in _scripts().iterate_revisions(head, start)]
    applied = [revision for revision in reversed(applied) if revision != start]
    config = alembic_config(connection)
    if found is None:
        command.stamp(config, FIRST_REVISION)
    command.upgrade(config, "head")
    return Upgrade(found, head, applied, unversioned=found is None)
