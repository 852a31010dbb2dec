"""Chaos benchmark of the game server: ``smear serve`` killed with SIGKILL again and again under live
tables, and nothing it acknowledged may be lost (``chaoskit``; ``chaoskit/run.py`` says how and what
it checks).

Usage: python bench/chaos.py [--kills 100] [--tables 12] [--seed 1] [--database URL]
                             [--servers 1] [--redis URL] [--lease 1.0] [--workdir DIR]
                             [--faults finish,restore,slow,redis]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # support: what it starts

from chaoskit.run import main

if __name__ == "__main__":
    sys.exit(main())
