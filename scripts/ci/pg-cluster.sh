# A throwaway PostgreSQL cluster for the CI parts (sourced): Debian's `postgresql` server binaries,
# initdb as a non-root user, loopback only, its own port and socket folder, removed at the end.
#   pg_start DIR PORT   sets PG_URL (postgres://console@127.0.0.1:PORT/postgres)
#   pg_restart DIR      pg_stop DIR (and rm -rf DIR)

pg_install() {
  if ! ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql > /dev/null
  fi
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
}

# Runs a command as the cluster's owner: root may not run PostgreSQL, so root uses `postgres`.
pg_as() {
  if [ "$(id -u)" = 0 ]; then
    id postgres > /dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_start() {
  local dir=$1 port=$2
  pg_install || return 1
  rm -rf "$dir" && mkdir -p "$dir/sock"
  [ "$(id -u)" = 0 ] && { pg_as true; chown -R postgres "$dir"; }
  pg_as "$PG_BIN/initdb" -D "$dir/data" --auth=trust --username=console --no-sync --locale-provider=icu --icu-locale=en-US --locale=C.UTF-8 > "$dir/initdb.log" 2>&1 || { tail "$dir/initdb.log"; return 1; }
  # Durability is not what the tests measure: no fsync makes the suite faster.
  PG_OPTS="-p $port -k $dir/sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
  pg_as "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$PG_OPTS" -w start > /dev/null || { tail "$dir/server.log"; return 1; }
  PG_URL="postgres://console@127.0.0.1:$port/postgres"
  export PG_URL PG_OPTS
}

pg_restart() {
  pg_as "$PG_BIN/pg_ctl" -D "$1/data" -l "$1/server.log" -o "$PG_OPTS" -m fast -w restart > /dev/null
}

pg_stop() {
  [ -d "$1/data" ] && pg_as "$PG_BIN/pg_ctl" -D "$1/data" -m fast -w stop > /dev/null 2>&1
  rm -rf "$1"
}

# pg_sql PORT SQL [DB]: the result, unaligned (psql from the same package).
pg_sql() {
  "$PG_BIN/psql" -h 127.0.0.1 -p "$1" -U console -d "${3:-postgres}" -tAc "$2"
}
