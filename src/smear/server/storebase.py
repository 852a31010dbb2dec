"""What the parts of :class:`smear.server.storage.Storage` kept in modules of their own rely on."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from sqlalchemy.orm import Session


class StoragePart:
    """A part of the storage: each of its methods is one transaction, opened with these (given by
    :class:`~smear.server.storage.Storage`, which every part is mixed into)."""

    _transaction: Callable[[str], AbstractContextManager[Session]]
    _reading: Callable[[str], AbstractContextManager[Session]]
