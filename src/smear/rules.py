"""Rules as data: one field per rule, and the presets as values.

>>> find_rules("house").max_bid
6
>>> find_rules("ten_point").points
('high', 'low', 'jack', 'jick', 'big_joker', 'little_joker', 'game', 'trey')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from smear.cards import BIG_JOKER_INDEX, FULL_DECK_MASK, JOKERS_MASK, SUIT_MASK_BITS
from smear.errors import RulesError


class JokerRank(Enum):
    """Where the two jokers stand in the trump order."""

    LOWEST = "lowest"  # below the lowest trump: A K Q J T ... 2 BJ LJ (house)
    BELOW_JICK = "below_jick"  # A K Q J jick BJ LJ T 9 ... 2 (ten_point)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule of a Smear game. Presets are values of this class (see :data:`PRESETS`)."""

    name: str
    # Player counts allowed without teams, and with teams (partners across the table).
    player_counts: tuple[int, ...]
    team_player_counts: tuple[int, ...]
    # Cards dealt to each player; ``deal_by_players`` overrides it for some counts: ((6, 8), (8, 6)).
    cards_dealt: int
    deal_by_players: tuple[tuple[int, int], ...] = ()
    # Cards each player keeps after the discard (and plays): there are this many tricks.
    hand_size: int = 6
    # Remove the lowest ranks until every player gets ``cards_dealt`` and this many cards sleep
    # (even, odd player count); when False the whole 54-card deck is used.
    trim_deck: bool = False
    sleeping_even: int = 6
    sleeping_odd: int = 4
    # The auction: one round, bids from min_bid to max_bid, each higher than the last.
    min_bid: int = 2
    max_bid: int = 6
    # When everyone else has passed, the dealer may not pass (and bids min_bid or more).
    dealer_must_bid: bool = True
    # True: the bidder names trump after the auction. False: the suit of the first lead is trump.
    trump_named: bool = False
    # The jack of the other suit of trump's colour is a trump, just below the jack of trump.
    jick: bool = False
    joker_rank: JokerRank = JokerRank.LOWEST
    # The bidder's first lead must be a trump when the bidder holds one.
    bidder_leads_trump: bool = False
    # A player able to follow a non-trump suit may play a trump instead (the All Fours rule).
    may_trump_instead: bool = False
    # Low goes to the player who played it (True) or to the side that captures it (False).
    low_to_player: bool = True
    # Value of the three of trump (Trey); 0 means the point is not played.
    trey_points: int = 0
    # The score that ends the match.
    target: int = 21
    # Jokers in the deck: 2 (big and little), or 1 (only the big joker, BJ).
    jokers: int = 2
    # For an untrimmed deck, ranks removed at some table sizes: (players, lowest, highest), so
    # (4, 3, 8) takes the threes to the eights out of a 4-player game and keeps the twos.
    removed_ranks: tuple[tuple[int, int, int], ...] = ()
    # With teams, two teams whose members alternate around the table (instead of pairs across).
    alternate_teams: bool = False
    # Shoot the moon: one bid above max_bid; made (every point of the hand), the bidding side wins
    # the match at once (from a negative score it is only reset to 0); set, it loses the match.
    shoot_the_moon: bool = False
    # Elimination: a side whose score falls to this (a negative number) or below loses; 0 is off.
    elimination: int = 0
    # A kitty: after the auction the bidder takes this many undealt cards (the first ones) and
    # discards as many, face down; 0 means no kitty.
    kitty: int = 0
    # The kitty this preset offers as an option (the size ``kitty`` takes when it is on); 0: none.
    kitty_option: int = 0
    # The two jokers are identical: when both fall in one trick, the one played second ranks higher
    # (they still score as two points, each to the side that captures it).
    identical_jokers: bool = False
    # When several sides reach the target in one hand, the highest score wins and a tie goes to the
    # bidding side (McLeod's game), instead of the bidding side being checked first.
    highest_score_wins: bool = False
    # A widow: the bidder takes this many undealt cards (the first ones) with the ``widow`` action,
    # before naming trump; 0 means no widow.
    widow: int = 0
    # The players other than the bidder discard their non-trumps and are dealt back up to a hand
    # from the stock, in turn from the bidder's left; the bidder discards last.
    refill: bool = False
    # The bidder takes every card left in the stock just before discarding.
    take_stock: bool = False
    # A discard may hold a trump only once it holds every non-trump.
    keep_trumps: bool = False
    # ... and a scoring trump (see smear.scoring.scoring_trumps) only once it holds every other trump.
    keep_scoring_trumps: bool = False
    # The Two: the two of trump scores this many points for the player who holds it (who recovers it
    # from any trick), in place of Low; 0 means Low is played.
    two_points: int = 0
    # The Ten: the ten of trump scores a point for the side that captures it, in place of Game.
    ten_for_game: bool = False
    # Only trumps are played: a player with no trump left is out of the hand, which goes on until
    # nobody holds one; a player holding more than a hand plays the extra cards to the first trick
    # (with ``refill`` it discards only its non-trumps and keeps every trump).
    trumps_only: bool = False
    # With ``refill``: the bidder discards and refills too, first (instead of last).
    refill_bidder: bool = False
    # The jokers score for the side of the player who holds (and so plays) them, whoever captures them.
    jokers_to_holder: bool = False
    # Only the bidding side can win the match: when it makes its bid at or above the target.
    only_bidder_wins: bool = False

    @property
    def top_bid(self) -> int:
        """The highest bid there is: the moon where it may be shot, else ``max_bid``."""
        return self.max_bid + 1 if self.shoot_the_moon else self.max_bid

    @property
    def joker_mask(self) -> int:
        """The jokers in this deck, as a bitmask."""
        return JOKERS_MASK if self.jokers == 2 else 1 << BIG_JOKER_INDEX

    @property
    def points(self) -> tuple[str, ...]:
        """The names of the points of a hand, in the order records list them."""
        names = ["high", "two" if self.two_points else "low", "jack"]
        if self.jick:
            names.append("jick")
        names += ["big_joker", "little_joker"] if self.jokers == 2 else ["big_joker"]
        names.append("ten" if self.ten_for_game else "game")
        if self.trey_points:
            names.append("trey")
        return tuple(names)

    @property
    def point_values(self) -> Mapping[str, int]:
        special = {"trey": self.trey_points, "two": self.two_points}
        return {name: special.get(name, 1) for name in self.points}

    def allows(self, players: int, teams: bool) -> bool:
        """Whether this many players may play, with or without teams."""
        return players in (self.team_player_counts if teams else self.player_counts)

    def refusal(self, players: int, teams: bool) -> str | None:
        """Why this many players may not play, with or without teams (``None`` when they may)."""
        if self.allows(players, teams):
            return None
        allowed = self.team_player_counts if teams else self.player_counts
        kind = "with teams" if teams else "without teams"
        if not allowed:
            return f"{self.name} is not played {kind}"
        return f"{self.name} is played by {', '.join(map(str, allowed))} players {kind}, not {players}"

    def dealt_for(self, players: int) -> int:
        """Cards dealt to each player at this table size."""
        return dict(self.deal_by_players).get(players, self.cards_dealt)

    def deck_mask(self, players: int) -> int:
        """The cards in play at this table size, as a bitmask."""
        if not self.trim_deck:
            mask = FULL_DECK_MASK & ~JOKERS_MASK | self.joker_mask
            for count, lowest, highest in self.removed_ranks:
                if count == players:
                    ranks = ((1 << (highest - lowest + 1)) - 1) << (lowest - 2)
                    for suit in range(4):
                        mask &= ~(ranks << (13 * suit))
            return mask
        sleeping = self.sleeping_even if players % 2 == 0 else self.sleeping_odd
        plain = self.dealt_for(players) * players + sleeping - self.jokers
        if plain % 4 or not 4 <= plain <= 52:
            raise RulesError(f"{self.name}: no trimmed deck fits {players} players")
        ranks = plain // 4
        lowest_kept = 13 - ranks  # index within a suit of the lowest rank kept
        kept = (SUIT_MASK_BITS >> lowest_kept) << lowest_kept
        mask = self.joker_mask
        for suit in range(4):
            mask |= kept << (13 * suit)
        return mask

    def with_changes(self, **changes: Any) -> Rules:
        """A copy with some fields changed, checked field by field."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        for key, value in changes.items():
            if key not in fields or key == "name":
                raise RulesError(f"unknown rule: {key!r}")
            current = getattr(self, key)
            if key == "joker_rank":
                try:
                    changes[key] = JokerRank(value)
                except ValueError:
                    raise RulesError(f"joker_rank must be one of lowest, below_jick: {value!r}") from None
            elif isinstance(current, bool):
                if not isinstance(value, bool):
                    raise RulesError(f"rule {key} takes true or false, not {value!r}")
            elif isinstance(current, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RulesError(f"rule {key} takes a whole number, not {value!r}")
            elif isinstance(current, tuple):
                changes[key] = _tuple_value(key, value)
        rules = dataclasses.replace(self, **changes)
        rules.check()
        return rules

    def check(self) -> None:
        """Refuse rule values that cannot make a game."""
        if not 1 <= self.min_bid <= self.max_bid:
            raise RulesError(f"bids must go from a minimum of 1 up: {self.min_bid}..{self.max_bid}")
        if self.target < 1:
            raise RulesError(f"the target must be positive, not {self.target}")
        if self.jokers not in (1, 2):
            raise RulesError(f"jokers must be 1 or 2, not {self.jokers}")
        if self.elimination > 0:
            raise RulesError(f"elimination is a score at or below zero (0 is off), not {self.elimination}")
        if self.kitty < 0 or self.widow < 0:
            raise RulesError("neither the kitty nor the widow can hold a negative number of cards")
        if self.kitty and self.widow:
            raise RulesError("a game has a kitty or a widow, not both")
        if self.two_points < 0:
            raise RulesError(f"the Two cannot score {self.two_points} points")
        if (
            self.keep_trumps or self.keep_scoring_trumps or self.refill or self.trumps_only
        ) and not self.trump_named:
            raise RulesError("discards that depend on trump need trump named before the discard")
        for entry in self.removed_ranks:
            if len(entry) != 3 or not 2 <= entry[1] <= entry[2] <= 14:
                raise RulesError(f"removed_ranks takes [players, lowest, highest] with ranks 2-14: {entry!r}")
        if self.hand_size < 1:
            raise RulesError(f"hand_size must be positive, not {self.hand_size}")
        for players in set(self.player_counts) | set(self.team_player_counts):
            if players < 2:
                raise RulesError(f"a game needs at least 2 players, not {players}")
            dealt = self.dealt_for(players)
            if dealt < self.hand_size:
                raise RulesError(f"{dealt} cards dealt is fewer than a hand of {self.hand_size}")
            if dealt * players + self.kitty + self.widow > self.deck_mask(players).bit_count():
                raise RulesError(
                    f"{players} players x {dealt} cards and the kitty or widow are more than the deck"
                )
        for players in self.team_player_counts:
            if players % 2:
                raise RulesError(f"teams need an even number of players, not {players}")


def _tuple_value(key: str, value: Any) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple):
        raise RulesError(f"rule {key} takes a list, not {value!r}")
    items: list[Any] = []
    for item in value:
        if isinstance(item, list | tuple):
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in item):
                raise RulesError(f"rule {key} takes whole numbers, not {item!r}")
            items.append(tuple(item))
        elif isinstance(item, int) and not isinstance(item, bool):
            items.append(item)
        else:
            raise RulesError(f"rule {key} takes whole numbers, not {item!r}")
    return tuple(items)


HOUSE = Rules(
    name="house",
    player_counts=(3, 4, 5, 6, 7, 8),
    team_player_counts=(4, 6, 8),
    cards_dealt=6,
    trim_deck=True,
    min_bid=2,
    max_bid=6,
)

TEN_POINT = Rules(
    name="ten_point",
    player_counts=(3, 4, 5, 6),
    team_player_counts=(4, 6, 8),
    cards_dealt=10,
    deal_by_players=((6, 8), (8, 6)),
    min_bid=2,
    max_bid=10,
    trump_named=True,
    jick=True,
    joker_rank=JokerRank.BELOW_JICK,
    bidder_leads_trump=True,
    may_trump_instead=True,
    low_to_player=False,
    trey_points=3,
)

# The ten-point game without the jick (and so without the Trey): High, Low, Jack, both jokers, Game.
NO_JICK = dataclasses.replace(TEN_POINT, name="no_jick", jick=False, trey_points=0, max_bid=6)

# The ten-point game for three players on their own, bidding at least 3.
CUTTHROAT = dataclasses.replace(
    TEN_POINT, name="cutthroat", player_counts=(3,), team_player_counts=(), min_bid=3
)

# Two teams whose members alternate seats; one joker, always the lowest trump; five points.
FIVE_POINT = Rules(
    name="five_point",
    player_counts=(),
    team_player_counts=(4, 6, 8),
    cards_dealt=6,
    jokers=1,
    removed_ranks=((4, 3, 8), (6, 3, 5)),
    alternate_teams=True,
    min_bid=2,
    max_bid=5,
    kitty_option=3,
)

# McLeod's partnership game: after naming trump the bidder takes the whole stock; discards keep
# trumps; the jokers are identical; bids from 1. With 6 players 8 cards are dealt (60 would not fit).
MCLEOD = dataclasses.replace(
    TEN_POINT,
    name="mcleod",
    player_counts=(),
    team_player_counts=(4, 6),
    deal_by_players=((6, 8),),
    min_bid=1,
    take_stock=True,
    keep_trumps=True,
    identical_jokers=True,
    highest_score_wins=True,
)

# Nine cards and a widow of four: the bidder takes the widow, names trump, the others trade their
# non-trumps for cards from the stock, then the bidder takes the rest and discards. The Two replaces
# Low and the Ten of trump replaces Game. Three or four players (with more the stock runs dry).
WIDOW = dataclasses.replace(
    TEN_POINT,
    name="widow",
    player_counts=(3, 4),
    team_player_counts=(4,),
    cards_dealt=9,
    deal_by_players=(),
    min_bid=4,
    widow=4,
    refill=True,
    take_stock=True,
    keep_trumps=True,
    keep_scoring_trumps=True,
    bidder_leads_trump=False,
    two_points=1,
    ten_for_game=True,
)

# Parlett's nine-card game: everyone trades its non-trumps for stock cards, only trumps are played,
# players drop out as their trumps run out; the jokers score for their holders; only the bidding
# side can win the match.
NINE_CARD = dataclasses.replace(
    TEN_POINT,
    name="nine_card",
    player_counts=(3, 4, 5, 6),
    team_player_counts=(4, 6),
    cards_dealt=9,
    deal_by_players=(),
    refill=True,
    refill_bidder=True,
    trumps_only=True,
    jokers_to_holder=True,
    only_bidder_wins=True,
)

PRESETS: Mapping[str, Rules] = {
    rules.name: rules
    for rules in (HOUSE, TEN_POINT, NO_JICK, CUTTHROAT, FIVE_POINT, MCLEOD, WIDOW, NINE_CARD)
}


# The score at which the elimination option puts a side out.
ELIMINATION_SCORE = -21


def option_changes(
    rules: Rules,
    *,
    target: int | None = None,
    shoot_the_moon: bool = False,
    elimination: bool = False,
    kitty: bool = False,
) -> dict[str, Any]:
    """The rule fields a table's options change from ``rules`` (a preset), for ``with_changes``.

    The kitty takes the size the preset offers (``kitty_option``); check that it offers one.
    """
    changes: dict[str, Any] = {}
    if target is not None and target != rules.target:
        changes["target"] = target
    if shoot_the_moon:
        changes["shoot_the_moon"] = True
    if elimination:
        changes["elimination"] = ELIMINATION_SCORE
    if kitty:
        changes["kitty"] = rules.kitty_option
    return changes


def find_rules(name: str) -> Rules:
    """The preset of that name."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown preset: {name!r} (presets: {', '.join(PRESETS)})") from None
