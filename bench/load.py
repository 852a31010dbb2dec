"""Load benchmark of the game server: many 4-player tables played at once over real WebSockets
(``loadkit``; ``loadkit/run.py`` says what it measures and how).

Usage: python bench/load.py [--tables 200] [--players 4] [--seconds 60] [--think 1.0] [--workers 1]
                            [--database URL|postgres | --url http://127.0.0.1:8000 [--server-pid PID]]
                            [--servers 1 [--redis URL]] [--seed 1] [--client-gc] [--scrape-metrics]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # support: what it starts

from loadkit.run import main

if __name__ == "__main__":
    sys.exit(main())
