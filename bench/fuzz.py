"""Fuzz benchmark of the game server: malformed, wrong and hostile traffic beside an honest table
(``fuzzkit``; ``fuzzkit/run.py`` says how and what it checks).

Usage: python bench/fuzz.py [--messages 100000] [--seed 1] [--workers 32] [--spectators 60]
                            [--kinds wrong,garbage,...] [--log FILE] [--max-seconds S] [--no-flood]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # support: what it starts

from fuzzkit.run import main

if __name__ == "__main__":
    sys.exit(main())
