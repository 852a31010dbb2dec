"""The kernel held to the reference engine: a kernel hand replayed step by step through
the engine (``smear.transitions``), its legal actions, trick winners and result compared with the engine's.

The tests (``tests/test_kernel.py``) and ``bench/kernel.py --verify`` run these checks on many random
hands of every preset the kernel plays, so the kernel and the engine cannot drift apart unseen.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

from smear.actions import Action, Bid, NameTrump, Pass, Play
from smear.cards import DECK_SIZE, CardSet, Suit
from smear.dealing import new_match
from smear.legal import legal_actions
from smear.search.codes import BID, DISCARD, TRUMP, action_code, code_action
from smear.search.tables import (
    POINT_NAMES,
    S_BID,
    S_BIDDER,
    S_DEALER,
    S_DELTA,
    S_GAME,
    S_MADE,
    S_POINTS,
    S_STEPS,
    S_TAKEN,
    S_TRUMP,
    S_WINNERS,
    Int64Array,
    KernelRules,
)
from smear.state import Deal, HandResult, State
from smear.transitions import apply


def legal_mask(actions: Sequence[Action]) -> int:
    """The kernel's legal mask for the engine's legal actions of a play, auction or trump step."""
    mask = 0
    for action in actions:
        kind = type(action)
        if kind is Play:
            mask |= 1 << action.card  # type: ignore[union-attr]
        elif kind is Bid:
            mask |= 1 << action.amount  # type: ignore[union-attr]
        elif kind is NameTrump:
            mask |= 1 << action.suit  # type: ignore[union-attr]
        elif kind is Pass:
            mask |= 1
        else:
            raise ValueError(f"no legal mask for {action!r}")
    return mask


def legal_codes(code: int, legal: int, hand_size: int) -> frozenset[int]:
    """Every action code a step's legal mask allows; ``code`` (the step's action) gives its kind."""
    if code & DISCARD:
        cards = [c for c in range(DECK_SIZE) if legal >> c & 1]
        return frozenset(
            DISCARD | sum(1 << c for c in combo)
            for combo in itertools.combinations(cards, len(cards) - hand_size)
        )
    bits = [b for b in range(64) if legal >> b & 1]
    if 0 <= code < DECK_SIZE:
        return frozenset(bits)
    if TRUMP <= code < TRUMP + 4:
        return frozenset(TRUMP + b for b in bits)
    return frozenset(BID + b for b in bits)


class KernelResult(NamedTuple):
    """A summary row in the engine's terms, to compare with a :class:`smear.HandResult`."""

    bidder: int | None
    bid: int
    trump: Suit | None
    points: dict[str, int | None]
    game_points: tuple[int, ...]
    taken: tuple[int, ...]
    made: bool
    scores: tuple[int, ...]  # score changes (the hand started from zero)
    winners: tuple[int, ...]


def kernel_result(kr: KernelRules, summary: Int64Array) -> KernelResult:
    """Read a summary row."""
    sides = len(kr.sides)
    bidder = int(summary[S_BIDDER])
    names = kr.rules.points
    points = {name: _side_or_none(summary[S_POINTS + POINT_NAMES.index(name)]) for name in names}
    tricks = kr.rules.hand_size if bidder >= 0 else 0
    return KernelResult(
        bidder=None if bidder < 0 else bidder,
        bid=int(summary[S_BID]),
        trump=None if summary[S_TRUMP] < 0 else Suit(int(summary[S_TRUMP])),
        points=points,
        game_points=tuple(int(x) for x in summary[S_GAME : S_GAME + sides]),
        taken=tuple(int(x) for x in summary[S_TAKEN : S_TAKEN + sides]),
        made=bool(summary[S_MADE]),
        scores=tuple(int(x) for x in summary[S_DELTA : S_DELTA + sides]),
        winners=tuple(int(x) for x in summary[S_WINNERS : S_WINNERS + tricks]),
    )


def _side_or_none(value: Any) -> int | None:
    return None if value < 0 else int(value)


def reference_result(result: HandResult, tricks_winners: Sequence[int]) -> KernelResult:
    """A finished hand of the engine in the same terms (scores as changes from zero)."""
    return KernelResult(
        bidder=result.bidder,
        bid=result.bid,
        trump=result.trump,
        points=dict(result.points),
        game_points=result.game_points,
        taken=result.taken,
        made=result.made,
        scores=result.scores,
        winners=tuple(tricks_winners),
    )


def new_hand_state(kr: KernelRules, dealt: Sequence[int], dealer: int) -> State:
    """The engine's state for a kernel deal: a new match (scores at zero) with that deal and dealer."""
    deal = Deal(tuple(CardSet(int(mask)) for mask in dealt[: kr.players]))
    teams = kr.sides if any(len(side) > 1 for side in kr.sides) else None
    return new_match(kr.rules, kr.players, teams, dealer=dealer, deal=deal)


def compare_with_engine(
    kr: KernelRules,
    dealt: Sequence[int],
    seats: Sequence[int],
    legals: Sequence[int],
    codes: Sequence[int],
    summary: Int64Array,
    full_discards: bool = False,
) -> str | None:
    """Replay a kernel hand through the reference engine; describe the first disagreement, or None.

    At every step the seat to act and the legal actions must match, the kernel's action must apply;
    at the end the trick winners and the result (points, game points, taken, made, score changes)
    must match. Discard steps compare the hand and the count (the engine allows every combination of
    that many cards) unless ``full_discards`` lists the combinations.
    """
    state = new_hand_state(kr, dealt, int(summary[S_DEALER]))
    steps = int(summary[S_STEPS])
    # Plain ints: numpy scalars are slow to index one at a time and print as np.int64(...).
    seats = [int(x) for x in seats[:steps]]
    legals = [int(x) for x in legals[:steps]]
    codes = [int(x) for x in codes[:steps]]
    hand_size = kr.rules.hand_size
    for step in range(steps):
        pub = state.public
        if pub.to_act != seats[step]:
            return f"step {step}: the engine has seat {pub.to_act} to act, the kernel {seats[step]}"
        code = codes[step]
        if code & DISCARD and not full_discards:
            hand = state.hands[pub.to_act]
            if hand != legals[step]:
                return f"step {step}: discard from {CardSet(hand)} in the engine, {CardSet(legals[step])}"
        elif code & DISCARD:
            engine = frozenset(action_code(a) for a in legal_actions(state))
            kernel = legal_codes(code, legals[step], hand_size)
            if engine != kernel:
                return f"step {step}: the discards differ ({len(engine)} in the engine, {len(kernel)})"
        else:
            engine_mask = legal_mask(legal_actions(state))
            if engine_mask != legals[step]:
                kernel = legal_codes(code, legals[step], hand_size)
                engine = legal_codes(code, engine_mask, hand_size)
                return f"step {step}: legal actions {sorted(engine)} in the engine, {sorted(kernel)} here"
        state = apply(state, code_action(code))
    pub = state.public
    if pub.to_act is not None or not pub.results:
        return f"the engine's hand is not over after the kernel's {steps} steps"
    result = pub.results[-1]
    engine_result = reference_result(result, [trick.winner for trick in pub.tricks])
    ours = kernel_result(kr, summary)
    if engine_result != ours:
        return f"results differ: engine {engine_result}, kernel {ours}"
    return None
