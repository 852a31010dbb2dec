# shellcheck shell=bash
# Sourced by scripts/run and scripts/test: a virtual environment in .venv with the project installed.

# Written after each successful install: the hash of python_install_inputs, then each requirement
# ("." or ".[test]") installed from those inputs. Kept in .venv, so a new .venv installs again.
PYTHON_STAMP=.venv/smear-install

# What an install depends on, as one hash: the interpreter, SMEAR_PURE_PYTHON, the packaging files
# and the sources mypyc compiles (an edited one must be rebuilt before `import smear` accepts it).
# Other sources need no reinstall: the install is editable.
python_install_inputs() {
    .venv/bin/python - <<'EOF'
import hashlib
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location("smear_compiled", "src/smear/compiled.py")
assert spec is not None and spec.loader is not None
compiled = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compiled)
digest = hashlib.sha256()
digest.update(f"{sys.version}\n{os.environ.get(compiled.PURE_PYTHON, '')}\n".encode())
sources = [f"src/smear/{name}.py" for name in compiled.COMPILED]
for path in ["pyproject.toml", "setup.py", "src/smear/compiled.py", *sources]:
    with open(path, "rb") as file:
        digest.update(f"{path}\n".encode() + hashlib.sha256(file.read()).digest())
print(digest.hexdigest())
EOF
}

# Succeeds when .venv has the project, and its compiled modules unless SMEAR_PURE_PYTHON=1 (a build
# writes src/smear/compiled.json last).
project_installed() {
    .venv/bin/python -c 'import importlib.metadata, os, sys
importlib.metadata.distribution("smear")
sys.exit(os.environ.get("SMEAR_PURE_PYTHON") != "1" and not os.path.isfile("src/smear/compiled.json"))' \
        2>/dev/null
}

# .venv, made by Python 3.11 or newer ($PYTHON, else python3) unless it is there already.
make_python_env() {
    local python="${PYTHON:-python3}"
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "Smear needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)" >&2
        exit 1
    fi
    if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
        # Debian splits venv out of the interpreter.
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    fi
    if [ ! -x .venv/bin/python ]; then
        echo "Making the Python environment in .venv..." >&2
        "$python" -m venv .venv
    fi
}

install_python_packages() {
    local inputs installed="" covering
    make_python_env
    inputs=$(python_install_inputs)
    if [ -f "$PYTHON_STAMP" ] && [ "$(head -n 1 "$PYTHON_STAMP")" = "$inputs" ]; then
        installed=$(tail -n +2 "$PYTHON_STAMP")
        # The project with extras (".[test]", scripts/test's) is the project (".", scripts/run's) and more.
        covering=$(grep -xF -- "$1" <<<"$installed" || { [ "$1" = . ] && grep -m 1 '^\.\[' <<<"$installed"; } || true)
        if [ -n "$covering" ] && project_installed; then
            echo "pyproject.toml, setup.py and the compiled sources unchanged since the last pip install -e $covering: not reinstalling" >&2
            return 0
        fi
    fi
    # No stamp while pip works: an install that fails half-way is redone next time.
    rm -f "$PYTHON_STAMP"
    # Said before each long step, so a first start (a minute or more) is never silent.
    echo "Installing the Python packages and compiling the game engine (pip install -e $1; a minute or two the first time)..." >&2
    pip_install_project "$1" || return
    printf '%s\n' "$inputs" ${installed:+"$installed"} "$1" >"$PYTHON_STAMP"
}

# The requirements of "." or ".[extra,...]" from pyproject.toml, one a line, in $PIP_REQUIREMENTS.
PIP_REQUIREMENTS=.venv/smear-requirements.txt
write_project_requirements() {
    .venv/bin/python - "$1" >"$PIP_REQUIREMENTS" <<'EOF'
import re
import sys
import tomllib

with open("pyproject.toml", "rb") as file:
    project = tomllib.load(file)["project"]
named = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", sys.argv[1])
if named is None:
    sys.exit(f"not the project with extras: {sys.argv[1]!r}")
extras = named.group(1).split(",") if named.group(1) else []
for requirement in project["dependencies"]:
    print(requirement)
for extra in extras:
    for requirement in project["optional-dependencies"][extra]:
        print(requirement)
EOF
}

# What `pip install -e REQUIREMENT` does, in two pips at once: one installs the requirements, the
# other builds the project and installs it alone. One pip does the two one after the other, and the
# build (mypyc, then gcc on one core) is half of the minute. Nothing is compiled to bytecode ahead:
# that was a third of the requirements' install, mostly for modules nothing imports (their tests,
# their other targets); a module imported is compiled then, once.
pip_install_project() {
    local pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-compile) status=0 requirements
    write_project_requirements "$1" || return
    "${pip[@]}" -r "$PIP_REQUIREMENTS" &
    requirements=$!
    "${pip[@]}" --no-deps -e . || status=1
    wait "$requirements" || status=1
    return "$status"
}
