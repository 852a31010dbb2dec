"""Builds the engine's hot modules as C extensions with mypyc when it is available.

The same modules run as plain Python when SMEAR_PURE_PYTHON=1 is set or mypyc is missing.
"""

import os
from pathlib import Path

from setuptools import setup

COMPILED = [
    "src/smear/state.py",
    "src/smear/trick.py",
    "src/smear/scoring.py",
    "src/smear/rules.py",
    "src/smear/views.py",
    "src/smear/bots/randomplay.py",
]

ext_modules = []
if os.environ.get("SMEAR_PURE_PYTHON") == "1":
    # An earlier compiled install leaves extensions beside the sources; they would shadow them.
    for built in Path("src").rglob("*.so"):
        built.unlink()
else:
    from mypyc.build import mypycify

    # The build environment lacks the packages of modules that are not compiled (numba, the server's):
    # mypyc reads those modules for their types only, so their import errors are not its business.
    # `mypy` itself, run by scripts/test, checks the whole package strictly.
    ext_modules = mypycify(["--follow-imports=silent", *COMPILED], opt_level="3")

setup(ext_modules=ext_modules)
