"""Moving a match on: ``apply`` takes one action of the seat to act and returns the new state, or
refuses it with an :class:`~smear.errors.IllegalActionError` and changes nothing. A hand's last card
scores it (:func:`smear.scoring.settle_hand`)."""

from __future__ import annotations

from smear.actions import Action, Bid, Discard, NameTrump, Pass, Play, TakeWidow
from smear.cards import Card, CardSet, Suit
from smear.errors import IllegalActionError, NotYourTurnError
from smear.knowledge import plays_by_seat
from smear.legal import dealer_forced, options_for_discard, play_mask
from smear.scoring import above_target, hand_points, settle_hand
from smear.state import HandOutcome, HandResult, Phase, PublicState, State
from smear.trick import Trick, TrumpOrder, order_for, winning_index

_SUITS = tuple(Suit)
_PLAY = Phase.PLAY

# Positions of the fields the hot paths change, so they can copy a state as a list.
_PHASE = PublicState._fields.index("phase")
_TO_ACT = PublicState._fields.index("to_act")
_SCORES = PublicState._fields.index("scores")
_RESULTS = PublicState._fields.index("results")
_WINNER = PublicState._fields.index("winner")
_BIDS = PublicState._fields.index("bids")
_BIDDER = PublicState._fields.index("bidder")
_BID = PublicState._fields.index("bid")
_TRUMP = PublicState._fields.index("trump")
_LEADER = PublicState._fields.index("leader")
_TRICK = PublicState._fields.index("trick")
_TRICKS = PublicState._fields.index("tricks")
_ORDER = PublicState._fields.index("order")
_new_tuple = tuple.__new__


def apply(state: State, action: Action, seat: int | None = None) -> State:
    """The state after the seat to act takes ``action``.

    When ``seat`` is given it must be the seat to act. An illegal action raises
    :class:`IllegalActionError` (a :class:`NotYourTurnError` for the wrong seat) and the state
    passed in is unchanged, as always.
    """
    pub = state.public
    to_act = pub.to_act
    if type(action) is Play and pub.phase is _PLAY and (seat is None or seat == to_act):
        return _apply_play(state, action.card, to_act)  # type: ignore[arg-type]
    if to_act is None:
        code = "match_over" if pub.phase is Phase.MATCH_OVER else "hand_over"
        raise IllegalActionError(code, str(action), seat)
    if seat is not None and seat != to_act:
        raise NotYourTurnError("not_your_turn", str(action), seat, to_act=to_act)
    phase = pub.phase
    kind = type(action)
    if phase is Phase.AUCTION and (kind is Bid or kind is Pass):
        return _apply_auction(state, action, to_act)
    if phase is Phase.TRUMP and kind is NameTrump:
        return _apply_trump(state, action, to_act)  # type: ignore[arg-type]
    if phase is Phase.WIDOW and kind is TakeWidow:
        return _before_play(_draw(state, to_act, pub.rules.widow))
    if phase is Phase.DISCARD and kind is Discard:
        return _apply_discard(state, action, to_act)  # type: ignore[arg-type]
    if kind not in (Play, Bid, Pass, NameTrump, TakeWidow, Discard):
        raise TypeError(f"not an action: {action!r}")
    raise IllegalActionError("wrong_phase", str(action), to_act, phase=phase.value)


def _apply_auction(state: State, action: Action, seat: int) -> State:
    pub = state.public
    rules = pub.rules
    fields = list(pub)
    if type(action) is Pass:
        if dealer_forced(pub):
            raise IllegalActionError("dealer_must_bid", "pass", seat)
        bids = (*pub.bids, None)
    else:
        assert isinstance(action, Bid)
        amount = action.amount
        if not rules.min_bid <= amount <= rules.top_bid:
            raise IllegalActionError(
                "bid_out_of_range", str(action), seat, min_bid=rules.min_bid, max_bid=rules.top_bid
            )
        if amount <= pub.bid:
            raise IllegalActionError("bid_too_low", str(action), seat, highest=pub.bid)
        bids = (*pub.bids, amount)
        fields[_BIDDER] = seat
        fields[_BID] = amount
    fields[_BIDS] = bids
    n = pub.players
    if len(bids) < n:
        fields[_TO_ACT] = seat + 1 if seat + 1 < n else 0
    else:
        bidder = fields[_BIDDER]
        if bidder is None:  # everyone passed and the dealer may pass too: the hand is thrown in
            fields[_TO_ACT] = None
            return _finish_thrown_in(state._replace(public=_new_tuple(PublicState, fields)))
        fields[_TO_ACT] = fields[_LEADER] = bidder
        public: PublicState = _new_tuple(PublicState, fields)
        state = state._replace(public=public)
        if rules.widow:
            return state._replace(public=public._replace(phase=Phase.WIDOW))
        if rules.kitty:  # the bidder takes the first undealt cards
            state = _draw(state, public.to_act, rules.kitty)  # type: ignore[arg-type]
        return _before_play(state)
    return _new_tuple(State, (_new_tuple(PublicState, fields), *state[1:]))


def _draw(state: State, seat: int, count: int | None, refill: bool = False) -> State:
    """``seat`` takes the next ``count`` undealt cards (``None``: all that are left); they count as
    taken by the bidder (``took``) unless they are a ``refill``."""
    pub = state.public
    start = pub.drawn
    end = len(state.out) if count is None else start + count
    cards = 0
    for card in state.out[start:end]:
        cards |= 1 << card
    took = pub.took + (end - start if seat == pub.bidder and not refill else 0)
    hands = _replace_at(state.hands, seat, state.hands[seat] | cards)
    return state._replace(public=pub._replace(took=took, drawn=end), hands=hands)


def _before_play(state: State) -> State:
    """Once the auction (and the widow) is over: the bidder names trump where it does; then the
    discard round where anyone holds more than a hand; then the bidder leads."""
    pub = state.public
    if pub.rules.trump_named and pub.trump is None:
        return state._replace(public=pub._replace(phase=Phase.TRUMP, to_act=pub.bidder))
    return _next_discarder(state)


def _next_discarder(state: State) -> State:
    """The next seat in the discard order (see ``PublicState.discard_order``) that has not
    discarded and holds more than a hand (the bidder first takes the stock where it does); once
    round, the bidder leads."""
    pub = state.public
    assert pub.bidder is not None
    keep = pub.rules.hand_size
    for seat in pub.discard_order():
        if pub.discarded[seat]:
            continue
        if seat == pub.bidder and pub.rules.take_stock and pub.drawn < len(state.out):
            state = _draw(state, seat, None)
            pub = state.public
        hand = state.hands[seat]
        if pub.rules.trumps_only:  # whoever holds a non-trump trades it
            assert pub.order is not None
            must = bool(hand & ~pub.order.trump_mask)
        else:
            must = hand.bit_count() > keep
        if must:
            return state._replace(public=pub._replace(phase=Phase.DISCARD, to_act=seat))
    leader = pub.bidder
    if pub.rules.trumps_only:
        leader = _next_holding_trump(state, pub.bidder, include=True)
        if leader is None:  # nobody holds a trump: the hand is over at once
            assert pub.order is not None
            return _finish_hand(pub._replace(to_act=None), state, state.hands, pub.order)
    assert leader is not None
    return state._replace(public=pub._replace(phase=Phase.PLAY, to_act=leader, leader=leader))


def _apply_trump(state: State, action: NameTrump, seat: int) -> State:
    pub = state.public
    trump = Suit(action.suit)
    public = pub._replace(trump=trump, order=order_for(pub.rules, trump))
    return _before_play(state._replace(public=public))


def _apply_discard(state: State, action: Discard, seat: int) -> State:
    pub = state.public
    hand = state.hands[seat]
    mask = action.cards.mask
    text = str(action)
    if mask & ~hand:
        missing = CardSet(mask & ~hand)
        raise IllegalActionError("not_in_hand", text, seat, card=str(missing))
    options = options_for_discard(pub, hand, seat)
    if mask.bit_count() != options.size:
        raise IllegalActionError("discard_count", text, seat, expected=options.size, given=mask.bit_count())
    if not options.allows(action.cards):
        assert pub.order is not None
        if mask & pub.order.trump_mask and hand & ~mask & ~pub.order.trump_mask:
            raise IllegalActionError("keep_trumps", text, seat)
        raise IllegalActionError("keep_scoring_trumps", text, seat)
    refill = pub.refill_after(seat, hand, options.size).draws
    state = state._replace(
        public=pub._replace(
            discarded=_replace_at(pub.discarded, seat, options.size),
            refills=_replace_at(pub.refills, seat, refill),
        ),
        hands=_replace_at(state.hands, seat, hand & ~mask),
        discards=_replace_at(state.discards, seat, mask),
    )
    if refill:
        state = _draw(state, seat, refill, refill=True)
    return _next_discarder(state)


def _replace_at(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _refuse_play(pub: PublicState, hand: int, card: Card, seat: int) -> IllegalActionError:
    text = str(card)
    if not hand >> card & 1:
        return IllegalActionError("not_in_hand", text, seat, card=text)
    if not pub.trick:
        if pub.trump is None:
            return IllegalActionError("joker_first_lead", text, seat)
        return IllegalActionError("must_lead_trump", text, seat)
    order = pub.order
    assert order is not None
    led = _SUITS[order.suit_of[pub.trick[0]]]
    args = {"led_suit": led.letter}
    if led == order.trump:
        return IllegalActionError("must_follow_trump", text, seat, **args)
    if order.power[card]:
        return IllegalActionError("no_trump_instead", text, seat, **args)
    return IllegalActionError("must_follow", text, seat, **args)


def _next_holding_trump(state: State, seat: int | None, include: bool = False) -> int | None:
    """The first seat clockwise from ``seat`` (from ``seat`` itself with ``include``) that holds a
    trump, or None."""
    pub = state.public
    assert pub.order is not None and seat is not None
    trumps = pub.order.trump_mask
    n = pub.players
    for offset in range(0 if include else 1, n + (1 if include else 0)):
        candidate = (seat + offset) % n
        if state.hands[candidate] & trumps:
            return candidate
    return None


def _apply_trump_play(state: State, card: Card, seat: int) -> State:
    """A card where only trumps are played: each seat holding a trump plays once a trick (a seat
    holding more than a hand plays its extra cards to the first trick); the winner leads, or if it
    has no trump left the next seat that does; the hand ends when nobody holds a trump."""
    pub = state.public
    order = pub.order
    assert order is not None
    hand = state.hands[seat]
    if not (hand & order.trump_mask) >> card & 1:
        text = str(card)
        if not hand >> card & 1:
            raise IllegalActionError("not_in_hand", text, seat, card=text)
        raise IllegalActionError("only_trumps", text, seat)
    hands = _replace_at(state.hands, seat, hand & ~(1 << card))
    state = state._replace(hands=hands)
    trick = (*pub.trick, card)
    seats = (*pub.trick_seats, seat)
    follower: int | None = None
    if not pub.tricks and hands[seat].bit_count() >= pub.rules.hand_size and hands[seat] & order.trump_mask:
        follower = seat  # an extra card, to the first trick
    else:
        candidate = _next_holding_trump(state, seat)
        if candidate is not None and candidate not in seats:
            follower = candidate
    if follower is not None:
        public = pub._replace(trick=trick, trick_seats=seats, to_act=follower)
        return state._replace(public=public)
    winner = seats[winning_index(trick, order)]
    tricks = (*pub.tricks, Trick(seats[0], trick, winner, seats))
    leader = _next_holding_trump(state, winner, include=True)
    public = pub._replace(trick=(), trick_seats=(), tricks=tricks, to_act=leader, leader=leader or 0)
    if leader is None:
        return _finish_hand(public, state, hands, order)
    return state._replace(public=public)


def _apply_play(state: State, card: Card, seat: int) -> State:
    pub = state.public
    if pub.rules.trumps_only:
        return _apply_trump_play(state, card, seat)
    hands = state.hands
    hand = hands[seat]
    if not play_mask(pub, hand) >> card & 1:
        raise _refuse_play(pub, hand, card, seat)
    hands = (*hands[:seat], hand & ~(1 << card), *hands[seat + 1 :])
    n = pub.players
    fields = list(pub)
    order = pub.order
    if order is None:  # the first lead names trump
        order = order_for(pub.rules, _SUITS[card // 13])
        fields[_TRUMP] = order.trump
        fields[_ORDER] = order
    trick = (*pub.trick, card)
    if len(trick) < n:
        fields[_TO_ACT] = seat + 1 if seat + 1 < n else 0
        fields[_TRICK] = trick
    else:
        leader = pub.leader
        winner = (leader + winning_index(trick, order)) % n
        fields[_TRICK] = ()
        fields[_TRICKS] = tricks = (*pub.tricks, Trick(leader, trick, winner))
        fields[_LEADER] = fields[_TO_ACT] = winner
        if len(tricks) == pub.rules.hand_size:
            fields[_TO_ACT] = None
            public: PublicState = _new_tuple(PublicState, fields)
            return _finish_hand(public, state, hands, order)
    return _new_tuple(State, (_new_tuple(PublicState, fields), hands, *state[2:]))


def _finish_hand(public: PublicState, state: State, hands: tuple[int, ...], order: TrumpOrder) -> State:
    """Score the hand that ``public`` has just completed and settle the match scores."""
    score = hand_points(public.rules, order, public.tricks, public.seat_side, len(public.sides))
    assert public.bidder is not None
    bidder_side = public.seat_side[public.bidder]
    scores, made, winner, ended_by, above = settle_hand(
        public.rules, public.scores, score.taken, bidder_side, public.bid
    )
    if public.bid <= public.rules.max_bid:
        outcome = HandOutcome.MADE if made else HandOutcome.SET
    elif not made:
        outcome = HandOutcome.MOON_SET
    else:
        outcome = HandOutcome.MOON_RESET if public.scores[bidder_side] < 0 else HandOutcome.MOON_MADE
    result = HandResult(
        number=public.hand_number,
        dealer=public.dealer,
        bidder=public.bidder,
        bid=public.bid,
        trump=order.trump,
        points=score.points,
        game_points=score.game_points,
        taken=score.taken,
        made=made,
        scores=scores,
        out=CardSet(state.out[public.drawn :]),
        discards=tuple(CardSet(mask) for mask in state.discards),
        outcome=outcome,
        ended_by=ended_by,
        above_target=above,
        bids=public.bids,
        played=tuple(CardSet(mask) for mask in plays_by_seat(public)),
        tricks=public.tricks,
    )
    fields = list(public)
    fields[_PHASE] = Phase.HAND_OVER if winner is None else Phase.MATCH_OVER
    fields[_SCORES] = scores
    fields[_RESULTS] = (*public.results, result)
    fields[_WINNER] = winner
    return _new_tuple(State, (_new_tuple(PublicState, fields), hands, *state[2:]))


def _finish_thrown_in(state: State) -> State:
    pub = state.public
    sides = len(pub.sides)
    result = HandResult(
        number=pub.hand_number,
        dealer=pub.dealer,
        bidder=None,
        bid=0,
        trump=None,
        points=dict.fromkeys(pub.rules.points),
        game_points=(0,) * sides,
        taken=(0,) * sides,
        made=False,
        scores=pub.scores,
        out=CardSet(state.out),
        discards=tuple(CardSet(0) for _ in range(pub.players)),
        outcome=HandOutcome.THROWN_IN,
        above_target=above_target(pub.rules, pub.scores, None, None, False),
        bids=pub.bids,
        played=tuple(CardSet(0) for _ in range(pub.players)),
    )
    public = pub._replace(phase=Phase.HAND_OVER, to_act=None, results=(*pub.results, result))
    return state._replace(public=public)
