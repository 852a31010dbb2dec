"""What the benchmarks that time a bot's decisions share: positions drawn from seeded matches played
to their end, and the percentile they report."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from smear import Action, Phase, PlayerView, State, apply, find_rules, new_match, next_hand, player_view


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """Which matches are played: ``--rules``, ``--players``, ``--no-teams`` and ``--seed``."""
    parser.add_argument("--rules", default="house")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-teams", action="store_true")
    parser.add_argument("--seed", type=int, default=0)


def describe(args: argparse.Namespace) -> str:
    teams = "no teams" if args.no_teams else "teams"
    return f"{args.rules}, {args.players} players, {teams}"


def play_seeded(
    args: argparse.Namespace,
    choose: Callable[[int, PlayerView], Action],
    enough: Callable[[], bool],
    watch: Callable[[State, int, Action], None] | None = None,
) -> None:
    """Plays the matches of seeds ``args.seed``, ``args.seed + 1``... with ``choose(seat, view)`` taking
    every action, until ``enough()``. ``watch(state, seat, action)``, if given, sees each action with
    the whole state it is taken in, before it is applied."""
    rules = find_rules(args.rules)
    seed = args.seed
    while not enough():
        state = new_match(rules, args.players, not args.no_teams, seed=seed)
        seed += 1
        while state.public.phase is not Phase.MATCH_OVER and not enough():
            if state.public.phase is Phase.HAND_OVER:
                state = next_hand(state)
                continue
            seat = state.public.to_act
            assert seat is not None
            action = choose(seat, player_view(state, seat))
            if watch is not None:
                watch(state, seat, action)
            state = apply(state, action, seat)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
