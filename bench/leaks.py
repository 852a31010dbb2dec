"""Leak audit at scale: thousands of bot matches over real Socket.IO, every message checked
(``leakkit``; ``leakkit/run.py`` says what it checks and how).

Usage: python bench/leaks.py [--matches 200] [--workers 2] [--seed 1] [--in-flight 24] [--trace-every 10]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # support: the in-process server

from leakkit.run import main

if __name__ == "__main__":
    sys.exit(main())
