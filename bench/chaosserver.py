"""``smear`` with the chaos benchmark's faults installed (``chaoskit.faults``): what
``bench/chaos.py`` starts instead of ``python -m smear``. Without ``SMEAR_CHAOS_FAULTS`` in its
environment it is ``smear`` itself.

Usage: python bench/chaosserver.py serve [OPTIONS]
"""

from __future__ import annotations

from chaoskit import faults  # beside this file: a script's folder comes first on its path

from smear.cli import main

if __name__ == "__main__":
    faults.install()
    main()
