"""``smear practice build``: self-play of the bot levels, each unforced decision solved, sound ones kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

DEFAULT_DEALS = 400


@dataclass(frozen=True)
class BuildConfig:
    presets: tuple[str, ...]
    matches: int
    deals: int
    seed: int
    workers: int


def run_build(
    config: BuildConfig, out: IO[str] | None, progress: Callable[[str], None]
) -> list[dict[str, Any]]:
    """The positions found (written to ``out`` as JSON lines as they come)."""
    progress("practice build: no solver yet")
    return []
