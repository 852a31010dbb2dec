# Sourced by scripts/run and scripts/test: Node.js from Debian if missing, then the browser game built
# from web/ (exact versions from package-lock.json) into src/smear/server/static.
build_web() {
    if ! command -v npm >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
    fi
    (cd web && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build)
}

# The browser tests drive Debian's chromium through Playwright (no browser download).
install_chromium() {
    if [ ! -x /usr/bin/chromium ]; then
        apt-get update -qq && apt-get install -y -qq chromium >/dev/null
    fi
}
