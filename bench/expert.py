"""How long the expert takes to decide, at its default budget, on one core.

The expert sits in seat 0 of seeded matches against heuristic players (house, 4 players, two
teams unless told otherwise) and every decision it makes is timed, from the view to the action.
The figures are given over every decision and over the searched ones only (a forced move or a
discard is answered without search), and per phase.

Usage: python bench/expert.py [--decisions 600] [--rules house] [--players 4] [--no-teams] [--seed 0]

It ends with two lines::

    median_s: X
    p95_s: Y
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from smear import Phase, apply, find_rules, new_match, next_hand, player_view
from smear.bots import ExpertBot, HeuristicBot


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=600, help="expert decisions to time")
    parser.add_argument("--rules", default="house")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-teams", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.decisions < 1:
        parser.error("--decisions must be at least 1")

    rules = find_rules(args.rules)
    expert, heuristic = ExpertBot(), HeuristicBot()
    rng = random.Random(args.seed)
    times: list[float] = []
    searched: list[float] = []
    by_phase: dict[str, list[float]] = defaultdict(list)
    samples: list[int] = []
    seed = args.seed
    while len(times) < args.decisions:
        state = new_match(rules, args.players, not args.no_teams, seed=seed)
        seed += 1
        while state.public.phase is not Phase.MATCH_OVER and len(times) < args.decisions:
            if state.public.phase is Phase.HAND_OVER:
                state = next_hand(state)
                continue
            seat = state.public.to_act
            assert seat is not None
            view = player_view(state, seat)
            if seat == 0:
                start = time.perf_counter()
                advice = expert.advise(view, rng)
                spent = time.perf_counter() - start
                action = advice.action
                times.append(spent)
                by_phase[view.phase.value].append(spent)
                if advice.samples:
                    searched.append(spent)
                    samples.append(advice.samples)
            else:
                action = heuristic.choose(view, rng)
            state = apply(state, action, seat)

    teams = "no teams" if args.no_teams else "teams"
    print(f"expert at its default budget ({expert.samples} samples, {expert.seconds} s), one core")
    print(f"{args.rules}, {args.players} players, {teams}, {len(times)} decisions from seed {args.seed}")
    print(f"{'decisions':<22}{'count':>7}{'median s':>10}{'p95 s':>9}{'max s':>9}")
    rows = [("all", times), ("searched", searched), *sorted(by_phase.items())]
    for name, values in rows:
        if values:
            print(
                f"{name:<22}{len(values):>7}{statistics.median(values):>10.3f}"
                f"{percentile(values, 0.95):>9.3f}{max(values):>9.3f}"
            )
    if samples:
        print(f"deals searched per searched decision: median {statistics.median(samples):.0f}")
    print(f"median_s: {statistics.median(times):.3f}")
    print(f"p95_s: {percentile(times, 0.95):.3f}")


if __name__ == "__main__":
    main()
