"""axe-core's audit of a page, for the browser tests: every violation of serious or critical
impact, and the heading rules, at a phone's and a desktop's size. The ``axe_script`` fixture
(conftest.py) gives the script; a page audited is opened with ``bypass_csp=True``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(375, 740), (1280, 800)]
# Failing impacts, and the rules of lesser impact held to as well.
FAILING_IMPACTS = {"serious", "critical"}
ALSO_FAILING = {"page-has-heading-one", "heading-order"}
# axe's violations, as "id (impact): the targets".
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map((node) => node.target.join(' ')),
  }));
}"""


class Audit:
    """Runs axe on screens and keeps every failing violation, to report them all at the end."""

    def __init__(self, script: Path) -> None:
        self.script = script
        self.found: list[str] = []
        self.screens: list[str] = []

    def __call__(self, page: Page, screen: str, ready: Callable[[], None] | None = None) -> None:
        """Audits the page at each size; ``ready`` waits (after a resize) for the screen to be whole."""
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("(w) => window.innerWidth === w", arg=width)
            if ready is not None:
                ready()
            if page.evaluate("typeof window.axe") == "undefined":
                page.add_script_tag(path=str(self.script))
            violations: list[dict[str, Any]] = page.evaluate(RUN_AXE)
            self.screens.append(f"{screen} at {width}")
            for violation in violations:
                if violation["impact"] in FAILING_IMPACTS or violation["id"] in ALSO_FAILING:
                    self.found.append(
                        f"{screen} at {width}: {violation['id']} ({violation['impact']}) "
                        f"{violation['help']}: {violation['targets']}"
                    )

    def check(self) -> None:
        assert self.found == [], "axe found:\n" + "\n".join(self.found)
