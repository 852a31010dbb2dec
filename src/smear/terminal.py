"""A Smear match in the terminal: one person against bots.

The person sits at seat 0 and types actions in record notation (``bid 3``, ``pass``, ``Ah``,
``trump h``, ``discard 2c 3d 4h 5s``). The screen shows the hand sorted with trump first and the
legal cards marked, the trick, the auction and the scores, and after each hand who won each point.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from smear.actions import Action, Bid, Discard, NameTrump, Pass, Play, TakeWidow, parse_action
from smear.bots import Bot, make_bot
from smear.bots.advisor import BidAdvice, bid_advice
from smear.cards import Card, CardSet
from smear.dealing import new_match, next_hand
from smear.errors import ActionError, IllegalActionError
from smear.rules import Rules
from smear.state import HandResult, Phase, PublicState, State
from smear.transitions import apply
from smear.trick import display_order
from smear.views import PlayerView, player_view

POINT_NAMES = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "jick": "Jick",
    "big_joker": "Big joker",
    "little_joker": "Little joker",
    "game": "Game",
    "trey": "Trey",
    "two": "Two",
    "ten": "Ten of trump",
}
HELP = (
    "Type an action: 'pass', 'bid 3', a card such as 'Ah' or '10d', 'widow', 'trump h', "
    "'discard 2c 3d 4h 5s'. 'hint' asks the expert (in the auction, with every bid's chances; "
    "'advice' too), 'help' shows this, 'quit' leaves."
)

ReadLine = Callable[[str], str]


class Quit(Exception):
    """The person left the table."""


def card_style(card: Card) -> str:
    if card.is_joker:
        return "bold magenta"
    return "red" if card.suit is not None and card.suit in (1, 2) else "bold"


def hand_text(view: PlayerView) -> Text:
    """The hand sorted with trump first; cards that may be played now are bright, others dim."""
    rules = view.public.rules
    playable = {action.card for action in view.legal_actions if isinstance(action, Play)}
    text = Text()
    for card in display_order(view.hand, view.trump, rules):
        style = card_style(card)
        if view.phase is Phase.PLAY and view.is_my_turn and card not in playable:
            style = "dim"
        elif card in playable:
            style += " underline"
        text.append(f"{card} ", style=style)
    return text


def side_name(public_sides: Sequence[Sequence[int]], names: Sequence[str], side: int | None) -> str:
    if side is None:
        return "nobody"
    return " & ".join(names[seat] for seat in public_sides[side])


def describe_action(name: str, action: Action, you: bool = False) -> str:
    """``Kemal bids 3`` (or ``You bid 3``)."""
    ending = "" if you else "s"
    if isinstance(action, Pass):
        return f"{name} pass{'' if you else 'es'}"
    if isinstance(action, Bid):
        return f"{name} bid{ending} {action.amount}"
    if isinstance(action, NameTrump):
        return f"{name} name{ending} {action.suit.plural} trump"
    if isinstance(action, Discard):
        return f"{name} discard{ending} {len(action.cards)} cards"
    if isinstance(action, TakeWidow):
        return f"{name} take{ending} the widow"
    return f"{name} play{ending} {action.card}"


class TerminalGame:
    """One match: the person at seat 0, bots elsewhere."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        teams: bool,
        seed: int,
        names: Sequence[str],
        console: Console,
        read_line: ReadLine,
        bot: str = "heuristic",
    ) -> None:
        self.state: State = new_match(rules, players, teams, seed=seed)
        self.bots: list[Bot] = [make_bot(bot) for _ in range(players)]
        self.names = [escape(name) for name in names]  # names are shown through rich markup
        self.console = console
        self.read_line = read_line
        self.bot_rng = random.Random(seed)

    def play(self) -> int | None:
        """Play to the end of the match; the winning side, or None if the person quit."""
        try:
            while True:
                phase = self.state.public.phase
                if phase is Phase.MATCH_OVER:
                    break
                if phase is Phase.HAND_OVER:
                    self.state = next_hand(self.state)
                    self.announce_hand()
                    continue
                self.step()
        except Quit:
            self.console.print("You left the table.")
            return None
        winner = self.state.public.winner
        self.console.print(
            f"[bold]Match over: {side_name(self.state.public.sides, self.names, winner)} won.[/bold]"
        )
        return winner

    def announce_hand(self) -> None:
        pub = self.state.public
        self.console.rule(f"Hand {pub.hand_number}: {self.names[pub.dealer]} deals")

    def step(self) -> None:
        pub = self.state.public
        seat = pub.to_act
        assert seat is not None
        if pub.hand_number == 1 and not pub.bids and seat == (pub.dealer + 1) % pub.players:
            self.announce_hand()
        if seat == 0:
            action = self.ask()
        else:
            action = self.bots[seat].choose(player_view(self.state, seat), self.bot_rng)
        before = pub
        self.state = apply(self.state, action, seat)
        self.console.print(describe_action(self.names[seat], action, you=seat == 0))
        self.after(before)

    def after(self, before: PublicState) -> None:
        pub = self.state.public
        if len(pub.tricks) > len(before.tricks):
            trick = pub.tricks[-1]
            plays = ", ".join(f"{self.names[s]} {c}" for s, c in trick.plays())
            self.console.print(
                f"  Trick {len(pub.tricks)}: {plays} -> [bold]{self.names[trick.winner]}[/bold]"
            )
        if pub.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
            self.show_result(pub.results[-1])

    def ask(self) -> Action:
        view = player_view(self.state, 0)
        self.show(view)
        while True:
            line = self.read_line("> ").strip()
            if line.lower() in ("quit", "exit", "q"):
                raise Quit
            if line.lower() in ("hint", "advice") and view.phase is Phase.AUCTION:
                self.show_advice(bid_advice(view, random.Random()))
                continue
            if line.lower() == "hint":
                suggestion = make_bot("expert").choose(view, random.Random())
                self.console.print(f"The expert would {describe_action('', suggestion, you=True).strip()}.")
                continue
            if line.lower() in ("help", "?", ""):
                self.console.print(HELP)
                self.console.print("Legal now: " + ", ".join(str(a) for a in view.legal_actions[:20]))
                continue
            try:
                action = parse_action(line)
                apply(self.state, action, 0)  # check it; the state itself never changes
            except (ActionError, IllegalActionError) as err:
                self.console.print(f"[red]{err}[/red]")
                continue
            return action

    def show_advice(self, advice: BidAdvice) -> None:
        """Each auction choice with its chances, as the expert's samples see them; the best marked."""
        table = Table(title=f"Bid advice ({advice.samples} deals sampled)", show_header=True)
        table.add_column("Choice")
        table.add_column("Side wins the bid", justify="right")
        table.add_column("Makes it", justify="right")
        table.add_column("Expected score change", justify="right")
        table.add_column("")
        best = advice.best
        for option in advice.options:
            mark = option is best
            table.add_row(
                str(option.action),
                percent(option.win),
                "-" if option.make is None else percent(option.make),
                f"{option.expected:+.1f}",
                "<- best" if mark else "",
                style="bold" if mark else None,
            )
        self.console.print(table)
        self.console.print(f"The expert would {describe_action('', best.action, you=True).strip()}.")

    def show(self, view: PlayerView) -> None:
        pub = view.public
        scores = "  ".join(
            f"{side_name(pub.sides, self.names, side)} {score}" for side, score in enumerate(pub.scores)
        )
        self.console.print(f"[dim]Scores:[/dim] {scores}")
        if pub.bids:
            auction = ", ".join(f"{self.names[s]} {'pass' if a is None else a}" for s, a in pub.bid_history())
            self.console.print(f"[dim]Auction:[/dim] {auction}")
        if pub.bidder is not None and pub.phase is not Phase.AUCTION:
            trump = pub.trump.plural if pub.trump is not None else "set by the first lead"
            self.console.print(f"[dim]Bid:[/dim] {self.names[pub.bidder]} {pub.bid}, trump {trump}")
        if view.trick:
            self.console.print(
                "[dim]Trick:[/dim] " + ", ".join(f"{self.names[s]} {c}" for s, c in view.trick)
            )
        self.console.print(Text("Your hand: ") + hand_text(view))
        prompts = {
            Phase.AUCTION: "Bid or pass; 'hint' shows each bid's chances",
            Phase.WIDOW: "Take the widow (widow)",
            Phase.TRUMP: "Name trump (trump c/d/h/s)",
        }
        options = view.discard_options()
        if options is not None:
            prompts[Phase.DISCARD] = f"Discard {options.size} cards"
            if options.required:
                prompts[Phase.DISCARD] += f", {' '.join(map(str, options.required))} among them"
            if options.free < options.size:
                chosen = " ".join(map(str, options.choosable))
                prompts[Phase.DISCARD] += f", and {options.free} of {chosen}" if options.free else ""
        if pub.phase is Phase.PLAY:
            playable = display_order(
                (a.card for a in view.legal_actions if isinstance(a, Play)), pub.trump, pub.rules
            )
            self.console.print(f"Play a card: {' '.join(map(str, playable))} ('help' for help)")
        else:
            self.console.print(f"{prompts[pub.phase]} ('help' for help)")

    def show_result(self, result: HandResult) -> None:
        pub = self.state.public
        table = Table(title=f"Hand {result.number}", show_header=True)
        table.add_column("Point")
        table.add_column("Won by")
        for point, side in result.points.items():
            table.add_row(POINT_NAMES[point], side_name(pub.sides, self.names, side))
        self.console.print(table)
        if result.bidder is not None:
            verdict = "made it" if result.made else "was set"
            self.console.print(f"{self.names[result.bidder]} bid {result.bid} and {verdict}.")
        sleeping = CardSet(result.out)
        if sleeping:
            self.console.print(f"Cards out of play: {sleeping}")
        for side, score in enumerate(result.scores):
            self.console.print(
                f"  {side_name(pub.sides, self.names, side)}: +{result.taken[side]} "
                f"(game points {result.game_points[side]}) -> {score}"
            )


def percent(share: float) -> str:
    """A share as a whole percentage: ``percent(0.456)`` is ``'46%'``."""
    return f"{round(share * 100)}%"


def default_names(players: int, you: str) -> list[str]:
    bots = ["Ayse", "Kemal", "Sam", "Noor", "Lars", "Inez", "Tomas"]
    return [you, *bots[: players - 1]]
