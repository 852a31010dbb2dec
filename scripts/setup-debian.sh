# shellcheck shell=bash
# Sourced by scripts/test: the programs from Debian that the tests start for themselves. Chromium's
# headless shell (driven by Playwright), PostgreSQL and Redis (throwaway database servers), nginx (the
# reverse proxy of docs/deploy.md) and Prometheus (scraping the server's metrics).
install_debian_packages() {
    local packages=()
    [[ -x /usr/bin/chromium-headless-shell ]] || packages+=(chromium-headless-shell)
    if ! command -v initdb >/dev/null && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        packages+=(postgresql)
    fi
    command -v redis-server >/dev/null || packages+=(redis-server)
    command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || packages+=(nginx)
    command -v prometheus >/dev/null || packages+=(prometheus)
    if ((${#packages[@]})); then
        # One update and one install for all: apt holds its lock for the whole of each.
        echo "Installing from Debian: ${packages[*]}..." >&2
        apt-get update -qq && apt-get install -y -qq "${packages[@]}" >/dev/null
    fi
}
