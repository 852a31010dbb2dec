# Sourced by scripts/test: the servers that the tests start for themselves, from Debian (PostgreSQL,
# Redis, nginx as the reverse proxy of docs/deploy.md, and Prometheus scraping the server's metrics).
install_database_servers() {
    local packages=()
    if ! command -v initdb >/dev/null && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        packages+=(postgresql)
    fi
    command -v redis-server >/dev/null || packages+=(redis-server)
    command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || packages+=(nginx)
    command -v prometheus >/dev/null || packages+=(prometheus)
    if ((${#packages[@]})); then
        apt-get update -qq && apt-get install -y -qq "${packages[@]}" >/dev/null
    fi
}
