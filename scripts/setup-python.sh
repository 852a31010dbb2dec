# Sourced by scripts/run and scripts/test: a virtual environment in .venv with the project installed.
install_python_packages() {
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
        "$python" -m venv .venv
    fi
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$1"
}
