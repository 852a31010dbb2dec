"""How fast ``smear practice build`` finds sound positions, and whether their answers hold.

One process plays self-play matches of house, ten_point and five_point in turn and solves their
decisions (:func:`smear.practice.build.build_match`'s steps) until ``--positions`` are kept; then
every kept position is solved again with another seed and twice the deals, and counted as holding
when the best choice is the same.

Usage: python bench/practice.py [--positions 50] [--deals 400] [--seed 0]

Prints::

    positions_per_minute: X   (one process; a build runs one per core)
    solved: N
    kept: K
    rechecked: K
    stayed_best: S
"""

from __future__ import annotations

import argparse
import itertools
import time

from smear.practice.build import position_record, selfplay_candidates, solve_candidate
from smear.practice.record import PracticePosition

PRESETS = ("house", "ten_point", "five_point")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    kept = []
    solved = 0
    started = time.perf_counter()
    for match in itertools.count():
        for preset in PRESETS:
            for candidate in selfplay_candidates(preset, match, args.seed):
                solution = solve_candidate(candidate, args.deals, args.seed)
                if solution is None:
                    continue
                solved += 1
                if solution.sound():
                    PracticePosition.model_validate(position_record(candidate, solution, args.seed))
                    kept.append((candidate, solution))
            if len(kept) >= args.positions:
                break
        if len(kept) >= args.positions:
            break
    minutes = (time.perf_counter() - started) / 60
    stayed = 0
    for candidate, solution in kept:
        again = solve_candidate(candidate, 2 * args.deals, args.seed + 1)
        stayed += again is not None and str(again.best) == str(solution.best)
    print(f"positions_per_minute: {len(kept) / minutes:.1f}")
    print(f"solved: {solved}")
    print(f"kept: {len(kept)}")
    print(f"rechecked: {len(kept)}")
    print(f"stayed_best: {stayed}")


if __name__ == "__main__":
    main()
