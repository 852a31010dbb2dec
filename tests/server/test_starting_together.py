"""Processes starting together on one database: each gives the bots their profiles and ratings as it
starts (smear.server.storage.playerstore.PlayerStore.ensure_bots), and none of them fails on the rows
another stored a moment before (a duplicate key)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import create_engine, text

from smear.bots import table_bots
from smear.rules import PRESETS
from smear.server.storage.database import Storage

ROUNDS = 6  # the old code failed in most rounds; several make a pass mean something


def test_processes_giving_the_bots_their_profiles_at_once_all_succeed(postgres_url: str) -> None:
    levels, presets = table_bots(), list(PRESETS)
    with Storage(postgres_url) as first, Storage(postgres_url) as second:
        engine = create_engine(postgres_url)
        try:
            for _ in range(ROUNDS):
                with engine.begin() as connection:  # as if neither had started before
                    connection.execute(text("DELETE FROM profiles WHERE is_bot"))
                together = threading.Barrier(2)
                with ThreadPoolExecutor(2) as pool:
                    started = [pool.submit(start_at_once, storage, together) for storage in (first, second)]
                    for done in started:
                        done.result()  # raises the StorageError of a duplicate key, if any
            with engine.connect() as connection:
                profiles = connection.execute(text("SELECT count(*) FROM profiles WHERE is_bot")).scalar()
                ratings = connection.execute(
                    text("SELECT count(*) FROM ratings WHERE profile_id LIKE 'bot-%'")
                ).scalar()
        finally:
            engine.dispose()
    assert profiles == len(levels)
    assert ratings == len(levels) * len(presets)


def start_at_once(storage: Storage, together: threading.Barrier) -> None:
    together.wait()
    storage.players.ensure_bots(table_bots(), list(PRESETS), 1.0)
