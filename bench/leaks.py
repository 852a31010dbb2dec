"""Leak audit at scale: thousands of bot matches over real Socket.IO, every message checked
(``leakkit``; ``leakkit/run.py`` says what it checks and how).

Usage: python bench/leaks.py [--matches 200] [--workers 2] [--seed 1] [--in-flight 24] [--trace-every 10]
"""

from __future__ import annotations

import sys

from leakkit.run import main

if __name__ == "__main__":
    sys.exit(main())
