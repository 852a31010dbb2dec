"""A table's settings, as its creator chose them and the rules allow, and the error every refused
request raises."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from smear.bots import table_bots
from smear.errors import RulesError, SmearError
from smear.rules import Rules, find_rules, option_changes

__all__ = ["TableError", "TableSettings"]


class TableError(SmearError):
    """A refused request, as a protocol error code with its arguments."""

    def __init__(self, code: str, **args: str | int) -> None:
        self.code = code
        self.args_map: dict[str, str | int] = dict(args)
        super().__init__(f"{code} {args}" if args else code)


@dataclass(frozen=True)
class TableSettings:
    """What the host chose when creating the table."""

    preset: str
    players: int
    teams: bool = False
    target: int = 21
    turn_timer: int = 0  # seconds; 0 means no timer
    bot_level: str = "heuristic"
    hints: bool = True
    shoot_the_moon: bool = False
    elimination: bool = False  # a side at -21 or below loses
    kitty: bool = False  # where the preset offers one (five_point)
    matchmade: bool = False  # made by "find a game": public, timed, no host; people take bots' seats

    def rules(self) -> Rules:
        rules = find_rules(self.preset)
        changes = option_changes(
            rules,
            target=self.target,
            shoot_the_moon=self.shoot_the_moon,
            elimination=self.elimination,
            kitty=self.kitty,
        )
        return rules.with_changes(**changes) if changes else rules

    def check(self) -> None:
        """Refuse settings the preset does not allow (raises ``TableError("rules_refused")``).

        The error carries a ``reason_code`` and its args, so a client can say why in its own
        language, and an English ``reason`` for its message.
        """
        if self.kitty and not find_rules(self.preset).kitty_option:
            raise TableError(
                "rules_refused",
                reason_code="option_not_offered",
                option="kitty",
                preset=self.preset,
                reason=f"{self.preset} has no kitty",
            )
        try:
            rules = self.rules()
        except RulesError as err:
            raise TableError("rules_refused", reason_code="rules", reason=str(err)) from None
        if self.bot_level not in table_bots():
            bots = ", ".join(table_bots())
            raise TableError(
                "rules_refused", reason_code="unknown_bot", bots=bots, reason=f"the bots are {bots}"
            )
        refusal = rules.refusal(self.players, self.teams)
        if refusal is not None:
            allowed = rules.team_player_counts if self.teams else rules.player_counts
            raise TableError(
                "rules_refused",
                reason_code="players_with_teams" if self.teams else "players",
                preset=self.preset,
                players=self.players,
                allowed=", ".join(map(str, allowed)),
                reason=refusal,
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "players": self.players,
            "teams": self.teams,
            "target": self.target,
            "turn_timer": self.turn_timer,
            "bot_level": self.bot_level,
            "hints": self.hints,
            "shoot_the_moon": self.shoot_the_moon,
            "elimination": self.elimination,
            "kitty": self.kitty,
            "matchmade": self.matchmade,
        }
