"""The errors the library raises. Every one is a ``ValueError`` whose message quotes the bad input.

An :class:`IllegalActionError` also carries a machine-readable ``code`` and ``args`` (codes and
numbers only, for clients that translate messages) and can name the player: ``err.describe("Kemal")`` gives
``"Kemal cannot play Ks: hearts were led and Kemal holds a heart"``, while ``str(err)`` speaks to
the player directly ("you cannot play Ks: hearts were led and you hold a heart").
"""

from __future__ import annotations

from collections.abc import Mapping


class SmearError(ValueError):
    """Base class of every error of this library."""


class CardError(SmearError):
    """Text that is not a card, a suit or a set of cards."""


class RulesError(SmearError):
    """An unknown preset, an unknown rule field, or a player count or team layout the rules forbid."""


class ActionError(SmearError):
    """Text that is not an action in record notation (``pass``, ``bid 3``, ``trump h``, ``Ah``...)."""


class RecordError(SmearError):
    """A match record that is not valid ``smear-record/1``."""


# Why an action is refused. Placeholders: {who} is the player ("you" or a name), and the verbs
# {hold}/{have}/{are}/{do}/{must} agree with it. {phase_action}, {led} and {led_one} are the English
# words of the ``phase`` and ``led_suit`` args; the other placeholders are args.
REASONS: Mapping[str, str] = {
    "match_over": "the match is over",
    "hand_over": "the hand is over; the next hand has not been dealt",
    "not_your_turn": "it is seat {to_act}'s turn",
    "wrong_phase": "it is time to {phase_action}",
    "bid_out_of_range": "bids go from {min_bid} to {max_bid}",
    "bid_too_low": "the bid must be higher than {highest}",
    "dealer_must_bid": "everyone else passed, so the dealer must bid",
    "not_bidder": "only the bidder names trump",
    "not_in_hand": "{who} {do} not hold {card}",
    "joker_first_lead": "a joker may not be led to the first trick",
    "must_lead_trump": "the bidder must lead a trump and {who} {hold} one",
    "must_follow": "{led} were led and {who} {hold} a {led_one}",
    "must_follow_trump": "trump ({led}) was led and {who} {hold} a trump",
    "no_trump_instead": "{led} were led and {who} {hold} a {led_one}, so {who} may not trump",
    "discard_count": "{who} {must} discard exactly {expected} cards, not {given}",
    "keep_trumps": "a trump may be discarded only with every non-trump",
    "only_trumps": "only trumps are played in this game",
    "keep_scoring_trumps": "a scoring trump may be discarded only with every other card",
}

# What the seat to act does in each phase, in English words (the suit led is worded by ``Suit``).
# Only the sentence uses them; ``args`` keeps the codes.
PHASE_WORDS: Mapping[str, str] = {
    "auction": "bid or pass",
    "widow": "take the widow",
    "trump": "name trump",
    "discard": "discard",
    "play": "play a card",
}

_SECOND_PERSON = {"hold": "hold", "have": "have", "are": "are", "do": "do", "must": "must"}
_THIRD_PERSON = {"hold": "holds", "have": "has", "are": "is", "do": "does", "must": "must"}


class IllegalActionError(SmearError):
    """An action the rules refuse in this state. Nothing was changed.

    ``code`` is a key of :data:`REASONS`; ``args`` (codes and numbers, never English words) fill its
    placeholders; ``seat`` is the seat that tried it (``None`` when the refusal does not depend on
    who acted); ``action`` is its record text.
    """

    def __init__(self, code: str, action: str, seat: int | None = None, **args: str | int) -> None:
        self.code = code
        self.action = action
        self.seat = seat
        self.args_map: dict[str, str | int] = dict(args)
        # The sentence is made when it is read (str): whoever tries many actions to see which are
        # refused pays for none it does not read. ``code`` and ``action`` are what a copy (pickle)
        # is made again from.
        super().__init__(code, action)

    def __str__(self) -> str:
        return self.describe(None)

    def reason(self, name: str | None = None) -> str:
        """Why the action is refused, speaking of ``name`` (or to the player when ``None``)."""
        verbs = _SECOND_PERSON if name is None else _THIRD_PERSON
        return REASONS[self.code].format(who=name or "you", **verbs, **self.args_map, **self._words())

    def _words(self) -> dict[str, str]:
        """The English words of the codes among ``args``, for the sentence."""
        words: dict[str, str] = {}
        phase = self.args_map.get("phase")
        if isinstance(phase, str):
            words["phase_action"] = PHASE_WORDS[phase]
        suit = self.args_map.get("led_suit")
        if isinstance(suit, str):
            from smear.cards import parse_suit  # here: cards imports this module

            led = parse_suit(suit)
            words["led"], words["led_one"] = led.plural, led.singular
        return words

    def describe(self, name: str | None = None) -> str:
        """``"Kemal cannot play Ks: hearts were led and Kemal holds a heart"``."""
        return f"{name or 'you'} cannot {self.action_phrase()}: {self.reason(name)}"

    def action_phrase(self) -> str:
        if self.action == "pass":
            return "pass"
        if self.action == "widow":
            return "take the widow"
        if self.action.startswith(("bid ", "discard ")):
            return self.action
        if self.action.startswith("trump "):
            return f"name trump {self.action[6:]}"
        return f"play {self.action}"


class NotYourTurnError(IllegalActionError):
    """The seat that acted is not the seat to act."""
