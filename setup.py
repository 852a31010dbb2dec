"""Builds the engine's hot modules as C extensions with mypyc when it is available.

The same modules run as plain Python when SMEAR_PURE_PYTHON=1 is set or mypyc is missing. After a
build, ``compiled.json`` beside the extensions records the hash of each source compiled, so that
``import smear`` can refuse extensions older than their sources (see ``src/smear/compiled.py``).
"""

import importlib.util
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

PACKAGE = Path("src/smear")

# Loaded by path: the package itself cannot be imported before it is built.
_spec = importlib.util.spec_from_file_location("smear_compiled", PACKAGE / "compiled.py")
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled)


class BuildWithManifest(build_ext):
    """Builds the extensions, then writes the manifest of the sources they were built from."""

    def run(self) -> None:
        manifest = compiled.manifest_of(PACKAGE)  # before compiling: an edit during the build shows
        target = self._package_dir()
        (target / compiled.MANIFEST).unlink(missing_ok=True)  # a failed build leaves no manifest
        super().run()
        compiled.write_manifest(target, manifest)

    def _package_dir(self) -> Path:
        if self.inplace:  # an editable install: the extensions go beside the sources
            return PACKAGE
        target = Path(self.build_lib) / "smear"
        target.mkdir(parents=True, exist_ok=True)
        return target


ext_modules = []
cmdclass = {}
if os.environ.get(compiled.PURE_PYTHON) == "1":
    # An earlier compiled install leaves extensions beside the sources; they would shadow them.
    for built in Path("src").rglob("*.so"):
        built.unlink()
    (PACKAGE / compiled.MANIFEST).unlink(missing_ok=True)
else:
    from mypyc.build import mypycify

    # The build environment lacks the packages of modules that are not compiled (numba, the server's):
    # mypyc reads those modules for their types only, so their import errors are not its business.
    # `mypy` itself, run by scripts/test, checks the whole package strictly.
    sources = [f"{PACKAGE}/{name}.py" for name in compiled.COMPILED]
    ext_modules = mypycify(["--follow-imports=silent", *sources], opt_level="3")
    cmdclass = {"build_ext": BuildWithManifest}

setup(ext_modules=ext_modules, cmdclass=cmdclass)
