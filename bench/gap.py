"""How much of the way from a baseline bot to a bot that sees every card a bot has come, in points
per hand: (bot - baseline) / (omniscient - baseline).

Three arenas in two teams on the same deals (the sides swapping seats match by match, as in
``smear arena --teams``): the bot's side against two baselines, the omniscient bot's side against
two baselines, and baselines on both sides. Each figure is a side's score change summed over the
hands, divided by the hands. A bot that plays as well as the baseline closes 0 of the gap; one
that plays as if it saw every card, 1.

The baseline is ``counting`` unless named: the heuristic as it was when the gap was first measured
(it bids its rounded count), so that the figure does not move when the heuristic gets stronger.
``--baseline heuristic`` measures from today's heuristic instead.

Usage: python bench/gap.py [--bot expert] [--baseline counting] [--rules house] [--matches 400]
[--workers 2] [--seed 0] [--target POINTS] [--sighted]

``--target`` plays each match to another score than the preset's: shorter matches, the same
figures per hand (a quick run's, for the tests).

It prints each arena as it ends, then where each side's points came from (how often it won the
auction and was set, its points per hand bidding and defending, and of each point of the preset, the
shares of its bidding hands in which it and the other side took it), then its closing lines::

          side    bid    set  bidding  defending       high  ...       game
      counting  0.500  0.057   +3.861     +1.365  0.76/0.24  ...  0.72/0.27
        expert  0.912  0.095   +3.851     +1.335  0.83/0.17  ...  0.82/0.18
    omniscient  0.808  0.005   +4.905     +2.563  0.90/0.10  ...  0.93/0.07
    counting_points_per_hand: 2.613
    expert_points_per_hand: 3.630
    omniscient_points_per_hand: 4.455
    gap_closed: 0.552
    expert_bids_made: 0.905

``--sighted`` (with ``--bot expert``) also plays the expert shown every card at the auction, at the
choice of trump (in house, the first lead) and at both, and playing every other decision from its
own view (:class:`smear.bots.omniscient.SightedExpertBot`), each on the same deals. Each gets its
row and two closing lines, its points per hand and the gap it closes, so that the gap the expert
leaves can be set beside what seeing the cards at those decisions alone is worth::

    expert_sees_trump_points_per_hand: 4.213
    expert_sees_trump_gap_closed: 0.877
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field

from rich.progress import Progress

from smear.arena import ArenaConfig, ArenaReport, BotStats, run_arena, team_lineup
from smear.bots import ExpertBot, bot_names
from smear.bots.omniscient import SIGHTED_EXPERTS
from smear.record import parse_record, replay

PLAYERS = 4
BASELINE = "counting"
CEILING = "omniscient"
SIGHTED_BOT = ExpertBot.name  # the bot the sighted experts are shown cards as


def gap_closed(bot: float, baseline: float, omniscient: float) -> float:
    """The share of the baseline-to-omniscient gap in points per hand that ``bot`` closes."""
    if omniscient == baseline:
        raise ValueError("the omniscient bot and the baseline scored alike: there is no gap to close")
    return (bot - baseline) / (omniscient - baseline)


def side_against_baselines(report: ArenaReport, name: str) -> BotStats:
    """The figures of ``name``'s side (with baselines on both sides, the two sides averaged)."""
    return next(entry for entry in report.stats() if entry.name == name)


@dataclass
class Sources:
    """Where one bot's side's points came from, hand by hand: bidding or defending, and each point."""

    hands: int = 0
    bids: int = 0
    sets: int = 0
    bidding_change: int = 0  # the side's score change summed over the hands it bid
    defending_change: int = 0
    # Over the hands the side bid: how often it took each point, and how often the other side did.
    taken: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)

    def row(self, points: list[str]) -> list[str]:
        """Its share of hands bid, of bids set, points per hand bidding and defending, and for each
        of ``points`` the shares of its bidding hands in which it and the other side took it."""
        bids = max(self.bids, 1)
        figures = [
            f"{self.bids / max(self.hands, 1):.3f}",
            f"{self.sets / bids:.3f}",
            f"{self.bidding_change / bids:+.3f}",
            f"{self.defending_change / max(self.hands - self.bids, 1):+.3f}",
        ]
        return figures + [f"{self.taken[point] / bids:.2f}/{self.lost[point] / bids:.2f}" for point in points]


def sources_table(found: dict[str, Sources]) -> list[str]:
    """One line per bot's side under a heading, the columns aligned."""
    # A side that never bid has no points counted: the heading names those of every side.
    points = list(dict.fromkeys(point for entry in found.values() for point in entry.taken))
    rows = [["side", "bid", "set", "bidding", "defending", *points]]
    rows += [[name, *entry.row(points)] for name, entry in found.items()]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return ["  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)) for row in rows]


def sources(report: ArenaReport, name: str) -> Sources:
    """Where the points of ``name``'s sides came from, over the arena's records (kept by the run);
    with ``name`` on both sides, each side counts."""
    found = Sources()
    for result in report.results:
        if result.record is None:
            raise ValueError("the arena was run without its records")
        state = replay(parse_record(result.record)).state
        pub = state.public
        for side, seats in enumerate(pub.sides):
            if result.seating[seats[0]] != name:
                continue
            before = pub.start_scores[side]
            for hand in pub.results:
                change, before = hand.scores[side] - before, hand.scores[side]
                found.hands += 1
                if hand.bidder is None or pub.seat_side[hand.bidder] != side:
                    found.defending_change += change
                    continue
                found.bids += 1
                found.sets += not hand.made
                found.bidding_change += change
                for point, winner in hand.points.items():
                    found.taken[point] += winner == side
                    found.lost[point] += winner is not None and winner != side
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="expert", help="the bot measured (default expert)")
    parser.add_argument(
        "--baseline", default=BASELINE, help=f"the bot on the other side, the gap's zero (default {BASELINE})"
    )
    parser.add_argument("--rules", default="house", help="preset, played in two teams of two (default house)")
    parser.add_argument("--matches", type=int, default=400, help="matches per arena (default 400)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="deal seed of the first match (default 0)")
    parser.add_argument("--target", type=int, help="the score that wins a match (default: the preset's)")
    parser.add_argument(
        "--sighted",
        action="store_true",
        help="also the expert shown every card at the auction, at the choice of trump, and at both",
    )
    args = parser.parse_args()
    if args.sighted and args.bot != SIGHTED_BOT:
        parser.error(f"--sighted shows the cards to the {SIGHTED_BOT}: measure it with --bot {SIGHTED_BOT}")
    if args.matches < 1 or args.workers < 1:
        parser.error("--matches and --workers must be at least 1")
    baseline = args.baseline
    if CEILING in (args.bot, baseline):
        parser.error("the omniscient bot is the ceiling: it is neither the bot measured nor the baseline")
    for name in (args.bot, baseline):
        if name not in bot_names():
            known = ", ".join(bot_names())
            parser.error(f"unknown bot: {name!r} (bots: {known})")
    if args.bot == baseline:
        parser.error(f"{baseline} is the baseline: name another bot to measure from it")
    changes = () if args.target is None else (("target", args.target),)
    configs = {
        name: ArenaConfig(
            args.rules, PLAYERS, True, team_lineup(name, baseline, PLAYERS), args.matches, args.seed, changes
        )
        for name in (baseline, args.bot, *(SIGHTED_EXPERTS if args.sighted else ()), CEILING)
    }
    try:
        rules = configs[baseline].rules
    except ValueError as err:  # an unknown preset, a target below 1
        parser.error(str(err))
    if PLAYERS not in rules.team_player_counts:
        parser.error(f"{args.rules} is not played in two teams of two")

    sides: dict[str, BotStats] = {}
    found: dict[str, Sources] = {}
    with Progress() as progress:
        for name, config in configs.items():
            task = progress.add_task(f"{name} against {baseline}", total=args.matches)
            report = run_arena(
                config, args.workers, keep_records=True, on_result=lambda _, task=task: progress.advance(task)
            )
            sides[name] = side = side_against_baselines(report, name)
            found[name] = sources(report, name)
            made = f", bids made {side.made}/{side.bids}" if side.bids else ""
            progress.console.print(
                f"{name} against {baseline}: {side.as_json()['points_per_hand']:+.3f} points per hand over "
                f"{side.hands} hands, {side.wins}/{side.matches} matches won{made}"
            )
    per_hand = {name: side.as_json()["points_per_hand"] for name, side in sides.items()}
    arenas = f"{args.matches} matches per arena" + (
        "" if args.target is None else f" to {args.target} points"
    )
    print(f"{args.rules}, two teams, {arenas} from seed {args.seed}, from {baseline}")
    print("where each side's points came from (bid, set: shares of hands and of bids; points per hand")
    print("bidding and defending; each point: shares of its bidding hands it and the other side took it)")
    for line in sources_table(found):
        print(line)
    for name in (baseline, args.bot, CEILING):
        print(f"{name}_points_per_hand: {per_hand[name]:.3f}")
    print(f"gap_closed: {gap_closed(per_hand[args.bot], per_hand[baseline], per_hand[CEILING]):.3f}")
    bot = sides[args.bot]
    print(f"{args.bot}_bids_made: {bot.made / bot.bids if bot.bids else 0.0:.3f}")
    for name in SIGHTED_EXPERTS if args.sighted else ():
        key = name.replace("-", "_")
        print(f"{key}_points_per_hand: {per_hand[name]:.3f}")
        print(f"{key}_gap_closed: {gap_closed(per_hand[name], per_hand[baseline], per_hand[CEILING]):.3f}")


if __name__ == "__main__":
    main()
