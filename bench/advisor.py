"""How long the bid advisor takes to answer, at the budget the server gives it.

Random auction positions are drawn from seeded matches of heuristic players (house, 4 players, two
teams unless told otherwise): at each turn in the auction of a hand, with a chance of --share, the
seat to act asks for the advice (:func:`smear.bots.advisor.bid_advice`) and the call is timed, from
the view to the answer. The server answers ``bid_advice`` on a thread of its own, so this is the time
a request waits for its answer, less the network.

Usage: python bench/advisor.py [--positions 100] [--rules house] [--players 4] [--no-teams] [--seed 0]

It ends with three lines::

    median_s: X
    p95_s: Y
    cores: N
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from seeded import add_match_arguments, describe, percentile, play_seeded

from smear import Action, Phase, PlayerView
from smear.bots import HeuristicBot
from smear.bots.advisor import ADVICE_SAMPLES, ADVICE_SECONDS, bid_advice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100, help="auction positions to time")
    add_match_arguments(parser)
    parser.add_argument("--share", type=float, default=0.5, help="chance that a turn is timed")
    args = parser.parse_args()
    if args.positions < 1:
        parser.error("--positions must be at least 1")

    heuristic = HeuristicBot()
    rng = random.Random(args.seed)
    times: list[float] = []
    samples: list[int] = []
    choices: list[int] = []

    def choose(seat: int, view: PlayerView) -> Action:
        if view.phase is Phase.AUCTION and rng.random() < args.share:
            start = time.perf_counter()
            advice = bid_advice(view, rng)
            times.append(time.perf_counter() - start)
            samples.append(advice.samples)
            choices.append(len(advice.options))
        return heuristic.choose(view, rng)

    play_seeded(args, choose, lambda: len(times) >= args.positions)

    cores = os.cpu_count()
    print(f"bid advisor at the server's budget ({ADVICE_SAMPLES} samples, {ADVICE_SECONDS} s), {cores} cores")
    print(f"{describe(args)}, {len(times)} auction positions from seed {args.seed}")
    print(
        f"choices per position: median {statistics.median(choices):.0f}, max {max(choices)}; "
        f"deals searched: median {statistics.median(samples):.0f}, min {min(samples)}"
    )
    print(f"max_s: {max(times):.3f}")
    print(f"median_s: {statistics.median(times):.3f}")
    print(f"p95_s: {percentile(times, 0.95):.3f}")
    print(f"cores: {cores}")


if __name__ == "__main__":
    main()
