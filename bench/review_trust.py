"""Whether the review can be trusted: what it says of bots whose strength is known.

Two kinds of arena matches are played to their end and every decision of every seat is reviewed
(:func:`smear.review.review_record`, the expert's own budget, the seed of the review apart from the
match's):

- **levels**: the expert, the heuristic (Normal), the beginner and the random bot, one seat each,
  seats rotated. The mean loss a judged decision (forced ones left out) must come out in that order;
  the expert's own bids must cost almost nothing, since it is judged the way it bids.
- **naive**: one seat of the naive bot (it always passes and plays its first legal card) against three
  experts. The naive seat's total loss should exceed every expert seat's in (nearly) every match.

The first ``--again`` level matches of each preset are judged a second time with another seed: how
many verdicts (a loss, or none) stay the same says whether the deals are enough.

Usage: python bench/review_trust.py [--rules house,ten_point] [--matches 20] [--naive-matches 10]
       [--again 2] [--samples N] [--seed 0] [--workers N] [--json FILE]

It prints, per preset and level, then over every preset::

    house_expert_loss_per_decision: X
    ...
    expert_bid_loss_per_bid: Y
    naive_above_every_expert: N/M
    same_verdict_with_another_seed: Z
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from smear.arena import ArenaConfig, play_match
from smear.record import parse_record
from smear.review import review_record

LEVELS = ("expert", "heuristic", "beginner", "random")
NAIVE_LINEUP = ("naive", "expert", "expert", "expert")
REVIEW_SEED = 7  # the review's sampled deals owe nothing to the match's


@dataclass(frozen=True)
class SeatFigures:
    """One seat of one reviewed match."""

    preset: str
    kind: str  # "levels" or "naive"
    match: int
    seat: int
    bot: str
    decisions: int  # judged, forced ones left out
    loss: float
    bids: int  # auction decisions judged
    bid_loss: float
    equal: int  # decisions called equal to the best (within the margin of error)
    # Judged again with another seed (the first matches of each preset only): the decisions whose
    # verdict (a loss or none) stayed the same, and the mean change of their loss.
    reseeded: int = 0
    same_verdict: int = 0
    loss_change: float = 0.0


def review_match(job: tuple[str, str, int, int, int | None, bool]) -> list[SeatFigures]:
    """Play one arena match and review every seat of it (twice, with two seeds, if ``again``)."""
    preset, kind, index, seed, samples, again = job
    lineup = LEVELS if kind == "levels" else NAIVE_LINEUP
    config = ArenaConfig(preset, len(lineup), False, lineup, index + 1, seed)
    result = play_match(config, index, keep_record=True)
    assert result.record is not None
    record = parse_record(result.record)
    review = review_record(record, None, REVIEW_SEED, samples)
    second = review_record(record, None, REVIEW_SEED + 1, samples) if again else None
    figures = []
    for seat, bot in enumerate(result.seating):
        judged = [d for d in review.decisions if d.seat == seat and not d.forced]
        bids = [d for d in judged if d.action == "pass" or d.action.startswith("bid")]
        reseeded = same = 0
        change = 0.0
        if second is not None:
            for first, other in zip(review.decisions, second.decisions, strict=True):
                if first.seat == seat and not first.forced:
                    reseeded += 1
                    same += (first.loss > 0) == (other.loss > 0)
                    change += abs(first.loss - other.loss)
        figures.append(
            SeatFigures(
                preset,
                kind,
                index,
                seat,
                bot,
                len(judged),
                sum(d.loss for d in judged),
                len(bids),
                sum(d.loss for d in bids),
                sum(1 for d in judged if d.verdict == "equal"),
                reseeded,
                same,
                change,
            )
        )
    return figures


def report(figures: list[SeatFigures], presets: list[str]) -> list[str]:
    lines = []
    for preset in presets:
        by_bot: dict[str, list[SeatFigures]] = defaultdict(list)
        for figure in figures:
            if figure.preset == preset and figure.kind == "levels":
                by_bot[figure.bot].append(figure)
        matches = len({figure.match for figures_ in by_bot.values() for figure in figures_})
        lines.append(f"{preset}_level_matches: {matches}")
        for bot in LEVELS:
            seats = by_bot.get(bot, [])
            decisions = sum(seat.decisions for seat in seats)
            loss = sum(seat.loss for seat in seats)
            lines.append(f"{preset}_{bot}_loss_per_decision: {loss / max(1, decisions):.4f}")
            lines.append(f"{preset}_{bot}_equal_share: {sum(s.equal for s in seats) / max(1, decisions):.3f}")
    expert = [f for f in figures if f.bot == "expert"]
    bids = sum(f.bids for f in expert)
    lines.append(f"expert_bids_judged: {bids}")
    lines.append(f"expert_bid_loss_per_bid: {sum(f.bid_loss for f in expert) / max(1, bids):.4f}")
    above = total = 0
    for preset in presets:
        matches: dict[int, list[SeatFigures]] = defaultdict(list)
        for figure in figures:
            if figure.preset == preset and figure.kind == "naive":
                matches[figure.match].append(figure)
        for seats in matches.values():
            naive = next(seat.loss for seat in seats if seat.bot == "naive")
            experts = [seat.loss for seat in seats if seat.bot == "expert"]
            total += 1
            above += naive > max(experts)
    lines.append(f"naive_above_every_expert: {above}/{total}")
    reseeded = sum(f.reseeded for f in figures)
    if reseeded:
        lines.append(f"decisions_judged_again: {reseeded}")
        lines.append(f"same_verdict_with_another_seed: {sum(f.same_verdict for f in figures) / reseeded:.3f}")
        lines.append(f"loss_change_with_another_seed: {sum(f.loss_change for f in figures) / reseeded:.4f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="house,ten_point", help="Presets, comma-separated.")
    parser.add_argument("--matches", type=int, default=20, help="Matches of the levels, per preset.")
    parser.add_argument("--naive-matches", type=int, default=10, help="Matches of the naive bot, per preset.")
    parser.add_argument("--samples", type=int, default=None, help="Deals a decision (default: the expert's).")
    parser.add_argument("--seed", type=int, default=0, help="First deal seed of the matches.")
    parser.add_argument(
        "--again",
        type=int,
        default=2,
        help="Level matches per preset judged again, with another seed.",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path, default=None, help="Write every seat's figures here.")
    args = parser.parse_args()
    presets = [name for name in args.rules.split(",") if name]
    jobs = [
        (preset, kind, index, args.seed, args.samples, kind == "levels" and index < args.again)
        for preset in presets
        for kind, count in (("levels", args.matches), ("naive", args.naive_matches))
        for index in range(count)
    ]
    figures: list[SeatFigures] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for done, found in enumerate(pool.map(review_match, jobs), 1):
            figures += found
            print(f"# reviewed {done}/{len(jobs)}", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(figure) for figure in figures], indent=1), encoding="utf-8")
    for line in report(figures, presets):
        print(line)


if __name__ == "__main__":
    main()
