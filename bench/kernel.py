"""The numba kernel: random complete hands per second on one core, agreement with the reference
engine, and perfect-information solving time.

Usage:
    python bench/kernel.py [--seconds S] [--rules PRESET] [--players N] [--teams]
    python bench/kernel.py --verify N [--workers W] [--presets house,ten_point]
                                                      # N random hands of each preset, kernel vs engine
    python bench/kernel.py --solve [--positions P]    # solver time per first-trick position
                                                      # (of --rules, --players, --teams)

The hands/s figure counts whole hands (deal, random auction, trump, discards, tricks, scoring) played
by ``smear.search.playouts.play_random_hands`` after a warm-up call (the first call compiles or loads numba's
cache). ``--verify`` spreads the hands over every player count and team layout of each preset, plays
them in the kernel with their logs, replays each log through the engine in worker processes, and
prints the number of disagreements (0 expected). It ends with the ``hands/s`` line in every mode.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
import zlib

from smear import PRESETS, find_rules
from smear.search.checks import compare_with_engine
from smear.search.playouts import play_random_hands
from smear.search.tables import KernelRules, kernel_rules, unsupported_rules

CHUNK = 5_000


def hands_per_second(kr: KernelRules, seconds: float) -> tuple[int, float]:
    """Hands played in about ``seconds`` of chunks of 100,000, and the time they took."""
    play_random_hands(kr, 1_000, seed=0)  # compile or load the cache
    hands = 0
    seed = 1
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_random_hands(kr, 100_000, seed=seed)
        hands += 100_000
        seed += 1
    return hands, time.perf_counter() - start


def verify_chunk(job: tuple[str, int, bool, int, int]) -> tuple[int, int, str | None]:
    """Play a chunk in the kernel and replay it in the engine: (hands, disagreements, first one)."""
    preset, players, teams, seed, count = job
    kr = kernel_rules(find_rules(preset), players, teams)
    played = play_random_hands(kr, count, seed=seed, record=True)
    assert played.deals is not None and played.seats is not None
    assert played.legals is not None and played.codes is not None
    bad = 0
    first: str | None = None
    for h in range(count):
        problem = compare_with_engine(
            kr, played.deals[h], played.seats[h], played.legals[h], played.codes[h], played.summary[h]
        )
        if problem is not None:
            bad += 1
            if first is None:
                first = f"{preset} {players}{' teams' if teams else ''} seed {seed} hand {h}: {problem}"
    return count, bad, first


def verify(hands: int, workers: int, presets: list[str]) -> int:
    """Replay ``hands`` kernel hands of each preset in the engine; print progress; return disagreements."""
    total_bad = 0
    for preset in presets:
        rules = find_rules(preset)
        tables = [(p, False) for p in rules.player_counts] + [(p, True) for p in rules.team_player_counts]
        jobs = []
        for i, start in enumerate(range(0, hands, CHUNK)):
            players, teams = tables[i % len(tables)]
            seed = zlib.crc32(f"{preset}:{i}".encode())
            jobs.append((preset, players, teams, seed, min(CHUNK, hands - start)))
        done = bad = 0
        started = time.perf_counter()
        with multiprocessing.Pool(workers) as pool:
            for count, chunk_bad, first in pool.imap_unordered(verify_chunk, jobs):
                done += count
                bad += chunk_bad
                if first is not None:
                    print(f"  disagreement: {first}", flush=True)
                if done % (20 * CHUNK) < CHUNK or done == hands:
                    rate = done / (time.perf_counter() - started)
                    print(
                        f"  {preset}: {done:,}/{hands:,} hands replayed, {bad} disagreements ({rate:,.0f}/s)"
                    )
                    sys.stdout.flush()
        print(f"{preset}: {bad} disagreements in {done:,} hands (every player count and team layout)")
        total_bad += bad
    print(f"disagreements: {total_bad}")
    return total_bad


def solve_times(kr: KernelRules, positions: int, seed: int) -> None:
    """Solver time per random first-trick position."""
    from smear.search.solver import random_first_trick_positions, solve

    found = random_first_trick_positions(kr, positions + 20, seed)
    for position in found[:20]:  # compile or load the cache
        solve(kr, position)
    times = []
    nodes = []
    for position in found[20:]:
        start = time.perf_counter()
        result = solve(kr, position)
        times.append(time.perf_counter() - start)
        nodes.append(result.nodes)
    times.sort()
    ms = [t * 1000 for t in times]
    p95 = ms[int(0.95 * (len(ms) - 1))]
    table = f"{kr.rules.name}, {kr.players} players{', teams' if len(kr.sides) < kr.players else ''}"
    print(f"solve: {len(ms)} positions ({table}, the bidder to lead trick 1, trump known, one core)")
    print(f"solve ms: median {statistics.median(ms):.2f}, mean {statistics.fmean(ms):.2f}, p95 {p95:.2f}")
    print(f"solve nodes: median {statistics.median(nodes):.0f}, mean {statistics.fmean(nodes):.0f}")
    if not kr.rules.trump_named:  # the bidder's first lead before it has made trump: every suit held
        unmade = [position._replace(trump=None) for position in found[20:]]
        times = []
        for position in unmade:
            start = time.perf_counter()
            solve(kr, position)
            times.append(time.perf_counter() - start)
        ms = sorted(t * 1000 for t in times)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(
            f"solve ms, first lead with trump not yet made: median {statistics.median(ms):.2f}, "
            f"mean {statistics.fmean(ms):.2f}, p95 {p95:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rules", default="house")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--teams", action="store_true")
    parser.add_argument("--verify", type=int, default=0, metavar="N")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--presets", default="", help="with --verify: comma-separated (default: all)")
    parser.add_argument("--solve", action="store_true")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.verify:
        verify(
            args.verify,
            args.workers,
            args.presets.split(",")
            if args.presets
            else [name for name, rules in PRESETS.items() if not unsupported_rules(rules)],
        )
    kr = kernel_rules(find_rules(args.rules), args.players, args.teams)
    if args.solve:
        solve_times(kr, args.positions, args.seed)
    hands, elapsed = hands_per_second(kr, args.seconds)
    print(f"rules: {args.rules}, players: {args.players}, teams: {args.teams}, one core, numba")
    print(f"hands played: {hands:,} in {elapsed:.2f} s")
    print(f"hands/s: {hands / elapsed:.0f}")


if __name__ == "__main__":
    main()
