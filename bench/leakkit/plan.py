"""The leak benchmark's plan: which match is played with which settings. Match ``index`` walks the
table configurations the presets allow in turn, cycling through each one's options, and a draw seeded
by the run's seed and the index sets its target, its bots, its people and what they will try. Apart
from the benchmark's servers and clients: the plan depends only on the presets and the seed."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from smear.rules import PRESETS
from smear.server.wire.protocol import TARGETS

# Short matches for most: every state carries the result of every hand so far.
TARGET_WEIGHTS = {11: 94.0, 21: 4.0, 31: 1.5, 52: 0.5}
BOT_LEVELS = ("heuristic", "random", "expert")
# The heuristic is as quick as the random bot and ends a match in fewer hands (the random bot's bids
# are set again and again); the expert thinks for tens of milliseconds a move.
BOT_WEIGHTS = (82, 17, 1)


def configurations() -> list[tuple[str, int, bool]]:
    """Every (preset, players, teams) the presets allow."""
    found = []
    for name, rules in PRESETS.items():
        found += [(name, players, False) for players in rules.player_counts]
        found += [(name, players, True) for players in rules.team_player_counts]
    return found


@dataclass(frozen=True)
class MatchSpec:
    """One match of the run: the table's settings and what its people will do."""

    index: int
    settings: dict[str, Any]  # create_table's fields but the name
    people: int
    seed: int  # the people's choices
    hints: int  # hints asked for
    resume_after: int | None  # a person drops its connection after this many actions, then resumes
    late_watch: float | None  # a second spectator comes this many seconds after the start
    traced: bool = True  # the server traces the WebSocket frames of this match's sockets

    def label(self) -> str:
        s = self.settings
        options = [f"to {s['target']}", f"bots {s['bot_level']}"]
        options += [name for name in ("shoot_the_moon", "elimination", "kitty") if s.get(name)]
        teams = " teams" if s["teams"] else ""
        return f"match {self.index} ({s['preset']} {s['players']}{teams}, {', '.join(options)})"


def plan(index: int, seed: int, trace_every: int = 1) -> MatchSpec:
    """The settings of match ``index``: configurations in turn, each cycling through its options;
    one match in ``trace_every`` has its WebSocket frames traced in the log."""
    configs = configurations()
    preset, players, teams = configs[index % len(configs)]
    round_ = index // len(configs)
    rng = random.Random(f"{seed}:{index}")
    names = ["shoot_the_moon", "elimination"]
    if PRESETS[preset].kitty_option:
        names.insert(0, "kitty")
    options = {name: bool(round_ >> bit & 1) for bit, name in enumerate(names)}
    settings = {
        "preset": preset,
        "players": players,
        "teams": teams,
        "target": rng.choices(TARGETS, [TARGET_WEIGHTS.get(target, 1.0) for target in TARGETS])[0],
        "bot_level": rng.choices(BOT_LEVELS, BOT_WEIGHTS)[0],
        "hints": rng.random() < 0.8,
        **options,
    }
    if settings["bot_level"] == "random":
        settings["target"] = min(TARGETS)  # see the docstring of leakkit.run
    people = min(players, rng.choices((1, 2, 3), (80, 16, 4))[0])
    return MatchSpec(
        index=index,
        settings=settings,
        people=people,
        seed=rng.getrandbits(32),
        hints=rng.choice((0, 0, 0, 1, 2)),
        resume_after=rng.randint(1, 12) if rng.random() < 0.06 else None,
        late_watch=rng.uniform(0.05, 1.5) if rng.random() < 0.1 else None,
        traced=index % trace_every == 0,
    )
