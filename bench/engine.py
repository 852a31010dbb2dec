"""Random complete hands per second through the public API (house rules, 4 players, one core).

Actions are drawn by ``smear.bots.random_action`` (uniform cards, a cautious random auction).

Each hand: deal, auction, six tricks, scoring. Prints hands/s, and the cost of player_view and
legal_actions per call. Usage: python bench/engine.py [--seconds S] [--rules PRESET] [--players N]
"""

from __future__ import annotations

import argparse
import random
import time

import smear.state
from smear import Phase, apply, find_rules, legal_actions, new_match, next_hand, player_view
from smear.bots import random_action


def play_hands(preset: str, players: int, teams: bool, seconds: float, seed: int) -> tuple[int, int, float]:
    rules = find_rules(preset)
    rng = random.Random(seed)
    state = new_match(rules, players, teams, seed=seed)
    hands = actions = 0
    match_seed = seed
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        while state.public.to_act is not None:
            state = apply(state, random_action(legal_actions(state), rng))
            actions += 1
        hands += 1
        if state.public.phase is Phase.MATCH_OVER:
            match_seed += 1
            state = new_match(rules, players, teams, seed=match_seed)
        else:
            state = next_hand(state)
        if hands % 200 == 0 and time.perf_counter() >= deadline:
            break
    return hands, actions, time.perf_counter() - start


def per_call_cost(preset: str, players: int, teams: bool, samples: int) -> tuple[float, float]:
    """Mean microseconds of player_view and legal_actions over states met in random play."""
    rules = find_rules(preset)
    rng = random.Random(99)
    states = []
    state = new_match(rules, players, teams, seed=99)
    while len(states) < samples:
        if state.public.to_act is None:
            state = (
                next_hand(state)
                if state.public.phase is Phase.HAND_OVER
                else new_match(rules, players, teams, seed=len(states))
            )
            continue
        states.append(state)
        state = apply(state, random_action(legal_actions(state), rng))
    start = time.perf_counter()
    for state in states:
        player_view(state, state.public.to_act)  # type: ignore[arg-type]
    view_us = (time.perf_counter() - start) / len(states) * 1e6
    start = time.perf_counter()
    for state in states:
        legal_actions(state)
    legal_us = (time.perf_counter() - start) / len(states) * 1e6
    return view_us, legal_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rules", default="house")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--teams", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    play_hands(args.rules, args.players, args.teams, 0.5, args.seed)  # warm the caches
    hands, actions, elapsed = play_hands(args.rules, args.players, args.teams, args.seconds, args.seed)
    view_us, legal_us = per_call_cost(args.rules, args.players, args.teams, 20_000)
    build = "compiled with mypyc" if smear.state.__file__.endswith(".so") else "pure Python"
    print(f"rules: {args.rules}, players: {args.players}, teams: {args.teams}, engine: {build}")
    print(f"hands played: {hands} in {elapsed:.2f} s ({actions} actions, {actions / elapsed:,.0f} actions/s)")
    print(f"player_view: {view_us:.2f} us/call")
    print(f"legal_actions: {legal_us:.2f} us/call")
    print(f"hands/s: {hands / elapsed:.0f}")


if __name__ == "__main__":
    main()
