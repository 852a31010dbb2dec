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

from seeded import add_match_arguments, describe, percentile, play_seeded

from smear import Action, PlayerView
from smear.bots import ExpertBot, HeuristicBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=600, help="expert decisions to time")
    add_match_arguments(parser)
    args = parser.parse_args()
    if args.decisions < 1:
        parser.error("--decisions must be at least 1")

    expert, heuristic = ExpertBot(), HeuristicBot()
    rng = random.Random(args.seed)
    times: list[float] = []
    searched: list[float] = []
    by_phase: dict[str, list[float]] = defaultdict(list)
    samples: list[int] = []

    def choose(seat: int, view: PlayerView) -> Action:
        if seat != 0:
            return heuristic.choose(view, rng)
        start = time.perf_counter()
        advice = expert.advise(view, rng)
        spent = time.perf_counter() - start
        times.append(spent)
        by_phase[view.phase.value].append(spent)
        if advice.samples:
            searched.append(spent)
            samples.append(advice.samples)
        return advice.action

    play_seeded(args, choose, lambda: len(times) >= args.decisions)

    print(f"expert at its default budget ({expert.samples} samples, {expert.seconds} s), one core")
    print(f"{describe(args)}, {len(times)} decisions from seed {args.seed}")
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
