# Sourced by scripts/test: the servers that the tests start for themselves, from Debian (PostgreSQL,
# Redis, and nginx as the reverse proxy of docs/deploy.md).
install_database_servers() {
    local packages=()
    if ! command -v initdb >/dev/null && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        packages+=(postgresql)
    fi
    command -v redis-server >/dev/null || packages+=(redis-server)
    command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || packages+=(nginx)
    if ((${#packages[@]})); then
        apt-get update -qq && apt-get install -y -qq "${packages[@]}" >/dev/null
    fi
}
