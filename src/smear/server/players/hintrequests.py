"""The requests of hints and reviews at a table that allows them: the expert's choice, the auction's
chances, a hand's review and the match's. The work is the :class:`~smear.server.players.hints.HintService`'s,
off the event loop; :class:`HintRequests` checks whose turn and which hand.
"""

from __future__ import annotations

from typing import Any, Protocol

from smear.actionjson import action_json, record_action_json
from smear.review import REVIEW_COSTLIEST, Decision, costliest
from smear.server.players.hints import HintService
from smear.server.tables.table import Table, TableError
from smear.state import Phase
from smear.views import player_view


class TableLookup(Protocol):
    """How a request finds its table (:meth:`smear.server.cluster.sharing.Sharing.table`)."""

    async def table(self, code: str) -> Table: ...


class HintRequests:
    """The ``hint``, ``bid_advice``, ``review_hand`` and ``review_match`` requests."""

    def __init__(self, reach: TableLookup, hints: HintService) -> None:
        self.reach = reach
        self.hints = hints

    async def hint(self, sid: str, message: Any) -> dict[str, Any]:
        """The expert's choice for the asking seat, when the table allows hints and it is its turn."""
        table = await self.reach.table(message.table)
        seat = table.playing_seat(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        if table.status != "playing" or table.state is None or table.state.public.to_act != seat:
            raise TableError("not_your_turn")
        version = table.version  # the advice is for this version, even if the table moves on meanwhile
        advice = await self.hints.advise(table.code, version, seat, player_view(table.state, seat))
        expected = None if advice.expected_points is None else round(advice.expected_points, 1)
        return {"action": action_json(advice.action), "expected": expected, "version": version}

    async def bid_advice(self, sid: str, message: Any) -> dict[str, Any]:
        """Each auction choice of the asking seat with its chances, when the table allows hints and it
        is the seat's turn in the auction."""
        table = await self.reach.table(message.table)
        seat = table.playing_seat(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        state = table.state
        if table.status != "playing" or state is None or state.public.to_act != seat:
            raise TableError("not_your_turn")
        if state.public.phase is not Phase.AUCTION:
            raise TableError("not_your_turn")
        version = table.version  # the advice is for this version, even if the table moves on meanwhile
        advice = await self.hints.bid_advice(table.code, version, seat, player_view(state, seat))
        return {"version": version, "advice": advice.as_json(), "samples": advice.samples}

    async def review_hand(self, sid: str, message: Any) -> dict[str, Any]:
        """The asking seat's decisions in a hand of the match that is over, each with what the expert
        preferred and the expected points given away, when the table allows hints."""
        table = await self.reach.table(message.table)
        seat = table.seat_of(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        state = table.state
        if state is None or table.status == "lobby" or message.hand >= len(state.public.results):
            raise TableError("hand_not_over")
        decisions = await self.hints.review_hand(
            table.code, table.match_number, table.seed, state, message.hand, seat
        )
        return {
            "hand": message.hand,
            "decisions": [_decision_json(decision) for decision in decisions],
            "costliest": [_decision_json(decision) for decision in costliest(decisions, REVIEW_COSTLIEST)],
            "total_loss": round(sum(decision.loss for decision in decisions), 2),
        }

    async def review_match(self, sid: str, message: Any) -> dict[str, Any]:
        """Every seat's decisions and total loss over the match just over, and the asking seat's
        costliest decisions, when the table allows hints."""
        table = await self.reach.table(message.table)
        seat = table.seat_of(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        state = table.state
        if state is None or table.status != "finished":
            raise TableError("match_not_over")
        review = await self.hints.review_match(table.code, table.match_number, table.seed, state)
        mine = [decision for decision in review.costliest() if decision.seat == seat][:REVIEW_COSTLIEST]
        return {
            "players": [player.to_json() for player in review.players],
            "costliest": [{"hand": d.hand, **_decision_json(d)} for d in mine],
        }


def _decision_json(decision: Decision) -> dict[str, Any]:
    """A reviewed decision as ``review_hand`` and ``review_match`` send it (its seat is the asker's)."""
    return {
        "action_index": decision.action_index,
        "action": record_action_json(decision.action),
        "best": record_action_json(decision.best),
        "expected_action": decision.expected_action,
        "expected_best": decision.expected_best,
        "loss": decision.loss,
        "verdict": decision.verdict,
        "error": decision.error,
    }
