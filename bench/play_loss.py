"""Where a bot's card play loses against the true deal: for each card it chooses (with more than one
legal), the kernel solver values every legal card with every hand seen, and the chosen card's
shortfall from the best is its loss.

The bot takes the seats of the first side (seats 0 and 2 in two teams of two, else seat 0), the
heuristic the others. A card's value is its side's score change minus the other side's, the bid
counted (two sides), or its side's points minus every other side's (more sides), both sides playing
perfectly from there. No player that cannot see the hidden cards reaches a loss of 0: the figures
show where the distance to a bot that sees them lies. Where the first lead sets trump, that lead's
loss is split into the suit it named (the best card of the best suit against the best card of the
suit led) and the card within that suit.

Usage: python bench/play_loss.py [--bot expert] [--hands 120] [--rules house] [--players 4]
       [--no-teams] [--seed 0]

It prints the loss by trick, leading and following, then::

    loss_per_hand: X
    first_lead_share: Y
    trump_suit_share: Z
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from dataclasses import dataclass, field

from rich.progress import Progress
from seeded import add_match_arguments, describe, play_seeded

from smear import Action, Phase, PlayerView, State, find_rules, player_view
from smear.actions import Play
from smear.arena import ARENA_ONLY_BOTS
from smear.bots import HeuristicBot, bot_names, make_bot
from smear.bots.expert import SOLVER_CARDS, card_worths
from smear.bots.lookahead import CardSolver
from smear.cards import Card
from smear.errors import RulesError


@dataclass
class Losses:
    """The losses found, by trick (0-based) and whether the card led the trick."""

    by_place: dict[tuple[int, bool], list[float]] = field(default_factory=lambda: defaultdict(list))
    trump_suit: float = 0.0  # the part of first leads' losses owed to the suit they named
    hands: int = 0  # hands whose card play began
    done: bool = False  # the next hand's first lead came after the last hand asked for

    @property
    def total(self) -> float:
        return sum(sum(found) for found in self.by_place.values())

    def share(self, part: float) -> float:
        total = self.total
        return part / total if total else 0.0


def suit_part(worths: dict[int, float], chosen: int) -> float:
    """Of a trump-setting lead's loss, the part owed to the suit: the best card of any suit against
    the best card of the suit of ``chosen``."""
    suit = Card(chosen).suit
    return max(worths.values()) - max(worth for card, worth in worths.items() if Card(card).suit == suit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="expert", help="the bot measured (default expert)")
    parser.add_argument("--hands", type=int, default=120, help="hands to play (default 120)")
    add_match_arguments(parser)
    args = parser.parse_args()
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.bot not in bot_names() or args.bot in ARENA_ONLY_BOTS:
        known = ", ".join(name for name in bot_names() if name not in ARENA_ONLY_BOTS)
        parser.error(f"unknown bot: {args.bot!r} (bots: {known})")
    try:
        rules = find_rules(args.rules)
    except ValueError as err:
        parser.error(str(err))
    refusal = rules.refusal(args.players, not args.no_teams)
    if refusal:
        parser.error(refusal)
    if args.players * rules.hand_size > SOLVER_CARDS:
        cards = args.players * rules.hand_size
        parser.error(f"{cards} cards in the hands are more than the solver takes ({SOLVER_CARDS})")

    bot, heuristic = make_bot(args.bot), HeuristicBot()
    solver = CardSolver()
    rng = random.Random(args.seed)
    losses = Losses()

    def choose(seat: int, view: PlayerView) -> Action:
        measured = view.public.seat_side[seat] == 0
        return (bot if measured else heuristic).choose(view, rng)

    with Progress() as progress:
        task = progress.add_task(f"{args.bot}: hands", total=args.hands)

        def watch(state: State, seat: int, action: Action) -> None:
            pub = state.public
            if pub.phase is not Phase.PLAY:
                return
            trick, leads = len(pub.tricks), not pub.trick_plays
            if trick == 0 and leads:
                if losses.hands == args.hands:  # the hands asked for are over: measure no more
                    losses.done = True
                    return
                losses.hands += 1
                progress.advance(task)
            if pub.seat_side[seat] != 0 or len(player_view(state, seat).legal_actions) < 2:
                return
            assert isinstance(action, Play)
            try:
                worths = {card: float(margin) for card, (margin, _) in card_worths(solver, state).items()}
            except RulesError as err:
                raise SystemExit(f"the solver does not play these rules: {err}") from err
            chosen = int(action.card)
            losses.by_place[(trick, leads)].append(max(worths.values()) - worths[chosen])
            if trick == 0 and leads and pub.trump is None:
                losses.trump_suit += suit_part(worths, chosen)

        play_seeded(args, choose, lambda: losses.done, watch)

    print(f"{args.bot} in the first side's seats against heuristics, {describe(args)}, from seed {args.seed}")
    total = losses.total
    print(f"{'trick':>5} {'place':>6} {'cards':>6} {'mean loss':>9} {'share':>6}")
    for (trick, leads), found in sorted(
        losses.by_place.items(), key=lambda item: (item[0][0], not item[0][1])
    ):
        place, lost = "lead" if leads else "follow", sum(found)
        mean = lost / len(found)
        print(f"{trick + 1:>5} {place:>6} {len(found):>6} {mean:>9.3f} {losses.share(lost):>6.3f}")
    print(f"loss_per_hand: {total / losses.hands:.3f}")
    print(f"first_lead_share: {losses.share(sum(losses.by_place.get((0, True), []))):.3f}")
    print(f"trump_suit_share: {losses.share(losses.trump_suit):.3f}")


if __name__ == "__main__":
    main()
