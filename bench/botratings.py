"""Where each bot level stands on the players' rating scale: the measure behind
``smear.server.players.ratings.BOT_START``.

Every pair of levels plays house matches in two teams (each level one side, the sides swapping
seats), and the matches, interleaved pair by pair, are rated by the server's model (openskill,
every level starting as a new player does; without the server's bound on wins over bots, which
would hold each level a step above the one it beats). A new player therefore starts at the bots'
average.

The levels are those players meet (random, beginner, heuristic, expert) unless ``--levels`` names
others; the bots kept for measuring (``pimc``, ``counting``) are left out.

Usage: python bench/botratings.py [--levels random,beginner,heuristic,expert] [--matches 60]
[--workers 2] [--seed 0]

It ends with one line per level::

    heuristic: mu 27.1 sigma 1.9 rating 21.4
"""

from __future__ import annotations

import argparse
import itertools

from rich.progress import Progress

from smear.arena import ArenaConfig, MatchResult, run_arena, team_lineup
from smear.bots import bot_names
from smear.server.players.ratings import Rating, bot_profile_id, rate_match

LEVELS = ("random", "beginner", "heuristic", "expert")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default=",".join(LEVELS), help="the bots rated, comma-separated")
    parser.add_argument("--matches", type=int, default=60, help="matches per pair of levels")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in levels if name not in bot_names()]
    if unknown:
        parser.error(f"unknown bot: {unknown[0]!r} (bots: {', '.join(bot_names())})")
    if len(set(levels)) < 2 or len(set(levels)) != len(levels):
        parser.error("--levels names at least two different bots, each once")
    if args.matches < 1 or args.workers < 1:
        parser.error("--matches and --workers must be at least 1")

    pairs = list(itertools.combinations(levels, 2))
    played: dict[tuple[str, str], list[MatchResult]] = {}
    with Progress() as progress:
        task = progress.add_task("matches", total=args.matches * len(pairs))
        for first, second in pairs:
            config = ArenaConfig("house", 4, True, team_lineup(first, second, 4), args.matches, args.seed)
            report = run_arena(config, args.workers, on_result=lambda _: progress.advance(task))
            played[(first, second)] = report.results

    ratings: dict[str, Rating] = {}
    for round_ in zip(*played.values(), strict=True):  # pair by pair, so no pair is rated last
        for result in round_:
            seats: list[str | None] = [bot_profile_id(name) for name in result.seating]
            ranks = [1 if side == result.winner else 2 for side in range(len(result.sides))]
            ratings |= rate_match(seats, ratings, [list(side) for side in result.sides], ranks)
    for (first, second), results in played.items():
        wins = sum(1 for r in results if r.winner is not None and r.seating[r.sides[r.winner][0]] == first)
        print(f"{first} v {second}: {first} won {wins} of {len(results)}")
    for name in levels:
        rating = ratings[bot_profile_id(name)]
        print(f"{name}: mu {rating.mu:.1f} sigma {rating.sigma:.1f} rating {rating.ordinal:.1f}")


if __name__ == "__main__":
    main()
