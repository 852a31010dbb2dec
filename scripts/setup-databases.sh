# Sourced by scripts/test: the database servers that the tests start for themselves, from Debian.
install_database_servers() {
    if ! command -v initdb >/dev/null && ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
    fi
}
