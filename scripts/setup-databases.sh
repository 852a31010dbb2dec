# Sourced by scripts/test: the database servers that the tests start for themselves, from Debian.
install_database_servers() {
    local packages=()
    if ! command -v initdb >/dev/null && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        packages+=(postgresql)
    fi
    command -v redis-server >/dev/null || packages+=(redis-server)
    if ((${#packages[@]})); then
        apt-get update -qq && apt-get install -y -qq "${packages[@]}" >/dev/null
    fi
}
