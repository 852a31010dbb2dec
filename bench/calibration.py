"""How well a searching bot's auction search foresees its own bids: for each bid it wins, the chance
of making it that the search gave when choosing it, against what then happened.

The matches are the arena's (``smear arena --teams --bots expert,pimc``: the same deals, the sides
swapping seats match by match). At every auction turn of a searching bot (``expert``, ``pimc``) with
a choice, its search (:meth:`smear.bots.pimc.PimcBot.evaluate`) is asked, as the bot itself would
ask it, and the bot plays the best action. When that action is a bid that wins the auction, the
share of the searched deals in which the side made it (given that it won) is set beside the hand's
outcome. A well-calibrated search makes about as many bids in each band as it expected to.

Usage: python bench/calibration.py [--rules house] [--bots expert,pimc] [--matches 60]
                                   [--workers 2] [--seed 0]

For each searching bot it prints a table by band of the searched chance, then two lines::

    expert_made: 0.812
    expert_searched: 0.803
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from collections import defaultdict
from typing import NamedTuple

from rich.progress import Progress

from smear import Phase, apply, new_match, next_hand, player_view
from smear.actions import Bid
from smear.arena import ARENA_ONLY_BOTS, ArenaConfig, parse_lineup
from smear.bots import make_bot
from smear.bots.pimc import PimcBot

# Bands of the searched chance: from, up to (not included), and how the table names them.
BANDS = (
    (0.0, 0.6, "under 0.6"),
    (0.6, 0.7, "0.6 to 0.7"),
    (0.7, 0.8, "0.7 to 0.8"),
    (0.8, 0.9, "0.8 to 0.9"),
    (0.9, 0.95, "0.9 to 0.95"),
    (0.95, 2.0, "0.95 and over"),
)


class WonBid(NamedTuple):
    bot: str
    bid: int
    searched: float  # the search's chance of making it, among the deals where the side won the bid
    made: bool


def play(job: tuple[ArenaConfig, int]) -> list[WonBid]:
    """Match ``index`` of the arena, with each searching bot's won bids and their outcomes."""
    config, index = job
    seating = config.seating(index)
    bots = [make_bot(name) for name in seating]
    rng = random.Random(f"calibration:{config.seed}:{index}")
    state = new_match(config.rules, config.players, config.teams or None, seed=config.deal_seed(index))
    chosen: dict[int, tuple[int, float]] = {}  # seat -> (its last bid, the searched chance of making it)
    won: list[WonBid] = []
    while state.public.phase is not Phase.MATCH_OVER:
        if state.public.phase is Phase.HAND_OVER:
            result = state.public.results[-1]
            if result.bidder is not None and result.bidder in chosen:
                amount, searched = chosen[result.bidder]
                if amount == result.bid:
                    won.append(WonBid(seating[result.bidder], amount, searched, result.made))
            chosen.clear()
            state = next_hand(state)
            continue
        seat = state.public.to_act
        assert seat is not None
        view = player_view(state, seat)
        bot = bots[seat]
        if isinstance(bot, PimcBot) and view.phase is Phase.AUCTION and len(view.legal_actions) > 1:
            best = bot.evaluate(view, rng).estimates[0]
            action = best.action
            if isinstance(action, Bid) and best.made is not None:
                chosen[seat] = (action.amount, best.made)
        else:
            action = bot.choose(view, rng)
        state = apply(state, action, seat)
    return won


def report(bids: list[WonBid]) -> None:
    if not bids:
        print("no bid was won by a searching bot (expert or pimc)")
        return
    by_bot: dict[str, list[WonBid]] = defaultdict(list)
    for won in bids:
        by_bot[won.bot].append(won)
    for name, mine in sorted(by_bot.items()):
        print(f"{name}: {len(mine)} bids won")
        print(f"  {'searched chance':<18}{'bids':>6}{'made':>8}{'searched':>10}")
        for low, high, label in BANDS:
            band = [won for won in mine if low <= won.searched < high]
            if band:
                made = sum(won.made for won in band) / len(band)
                searched = sum(won.searched for won in band) / len(band)
                print(f"  {label:<18}{len(band):>6}{made:>8.3f}{searched:>10.3f}")
    for name, mine in sorted(by_bot.items()):
        print(f"{name}_made: {sum(won.made for won in mine) / len(mine):.3f}")
        print(f"{name}_searched: {sum(won.searched for won in mine) / len(mine):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="house", help="preset (default house)")
    parser.add_argument("--bots", default="expert,pimc", help="the two sides' bots (default expert,pimc)")
    parser.add_argument("--matches", type=int, default=60, help="matches to play (default 60)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.matches < 1 or args.workers < 1:
        parser.error("--matches and --workers must be at least 1")
    try:
        lineup = parse_lineup(args.bots, 4, True)
        config = ArenaConfig(args.rules, 4, True, lineup, args.matches, args.seed)
        config.rules  # noqa: B018 -- an unknown preset is refused here, before any process starts
    except ValueError as err:  # an unknown bot or preset
        parser.error(str(err))
    if any(name in ARENA_ONLY_BOTS for name in lineup):
        parser.error("the bots here play from their own view: the arena-only bots cannot sit")

    jobs = [(config, index) for index in range(args.matches)]
    bids: list[WonBid] = []
    with Progress() as progress, multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        task = progress.add_task("matches", total=len(jobs))
        for won in pool.imap_unordered(play, jobs):
            bids.extend(won)
            progress.advance(task)
    print(f"{args.rules}, teams, {args.bots}, {args.matches} matches from seed {args.seed}")
    report(bids)


if __name__ == "__main__":
    main()
