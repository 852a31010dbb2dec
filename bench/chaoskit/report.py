"""The chaos benchmark's report: its figures (the closing ``name: value`` lines), details and problems."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Report:
    """The six figures (kills, the four that must be 0, and the tables put aside), with the details and
    problems behind them; with several server processes, their number before them."""

    servers: int = 1
    kills: int = 0
    acknowledged_lost: int = 0
    stuck_tables: int = 0
    desyncs: int = 0
    replay_failures: int = 0
    quarantined: int = 0
    wrongly_quarantined: int = 0  # tables put aside but not made to refuse, and the reverse
    details: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def figures(self) -> str:
        names: tuple[str, ...] = (
            "kills",
            "acknowledged_lost",
            "stuck_tables",
            "desyncs",
            "replay_failures",
            "quarantined",
        )
        if self.servers > 1:
            names = ("servers", *names)
        return "\n".join(f"{name}: {getattr(self, name)}" for name in names)

    @property
    def failed(self) -> bool:
        lost = self.acknowledged_lost or self.stuck_tables or self.desyncs or self.replay_failures
        return bool(lost or self.wrongly_quarantined)

    def text(self) -> str:
        return "\n".join([*self.details, *self.problems, self.figures()])
