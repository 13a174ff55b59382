# Sourced by scripts/test (and usable by hand: `. scripts/_postgres.sh; postgres_start`): a
# throwaway PostgreSQL cluster for the PostgreSQL tests and benchmarks, from Debian's packages.
#
# postgres_start [server options...]: installs Debian's postgresql when initdb is missing and we
# run as root with apt-get, makes a cluster in a temporary directory (as the `postgres` user, or
# `nobody`, when we are root: the server refuses to run as root), starts it on a free port of
# 127.0.0.1 (and a socket in that directory), and exports UNO_TEST_POSTGRES_URL (a superuser `uno`
# with trust authentication, database `uno`). It is stopped and deleted when the shell exits
# (postgres_stop). Where PostgreSQL cannot be had it says so in one line and exports nothing: the
# PostgreSQL tests then skip.

postgres_bin() {
    local bin
    # pg_ctl on the PATH may be a link to the version's bin directory, which has createdb too.
    bin=$(command -v pg_ctl 2>/dev/null) && dirname "$(readlink -f "$bin")" && return 0
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$bin" ] && [ -x "$bin/pg_ctl" ] && echo "$bin"
}

postgres_start() {
    local bin dir port run_as=()
    bin=$(postgres_bin)
    if [ -z "$bin" ] && command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
        echo "postgres: installing Debian's postgresql for the PostgreSQL tests"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >/dev/null 2>&1
        bin=$(postgres_bin)
    fi
    if [ -z "$bin" ]; then
        echo "postgres: PostgreSQL is not installed and cannot be (apt-get postgresql as root): the PostgreSQL tests are skipped"
        return 0
    fi
    dir=$(mktemp -d /tmp/uno-postgres.XXXXXX)
    if [ "$(id -u)" -eq 0 ]; then
        local user=postgres
        id "$user" >/dev/null 2>&1 || user=nobody
        chown "$user" "$dir"
        run_as=(runuser -u "$user" --)
    fi
    port=$("${PY:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if ! "${run_as[@]}" "$bin/initdb" -D "$dir/data" -U uno --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        ! "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 $*" >/dev/null 2>&1 ||
        ! "${run_as[@]}" "$bin/createdb" -h "$dir" -p "$port" -U uno uno >/dev/null 2>&1; then
        echo "postgres: could not start a cluster (its logs below): the PostgreSQL tests are skipped"
        tail -n 5 "$dir/initdb.log" "$dir/server.log" 2>/dev/null
        "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
        rm -rf "$dir"
        return 0
    fi
    POSTGRES_DIR=$dir POSTGRES_BIN=$bin POSTGRES_RUN_AS=("${run_as[@]}")
    export UNO_TEST_POSTGRES_URL="postgresql://uno@127.0.0.1:$port/uno"
    trap postgres_stop EXIT
    echo "postgres: throwaway cluster at $UNO_TEST_POSTGRES_URL ($dir)"
}

postgres_stop() {
    if [ -n "${POSTGRES_DIR:-}" ]; then
        "${POSTGRES_RUN_AS[@]}" "$POSTGRES_BIN/pg_ctl" -D "$POSTGRES_DIR/data" -m immediate -w stop >/dev/null 2>&1
        rm -rf "$POSTGRES_DIR"
        POSTGRES_DIR=
        unset UNO_TEST_POSTGRES_URL
    fi
}
