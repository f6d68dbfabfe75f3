#!/usr/bin/env bash
# CI part "two-process": two compiled servers on one throwaway PostgreSQL cluster, as behind a load
# balancer: a session made on one works on the other, both survive a PostgreSQL restart, and each
# drains on SIGTERM (a stream finished, or stopped and metered at the deadline), exiting 0.
#   bash scripts/ci/two-process.sh   (PG_PORT default 5545, PORT default 4420 and PORT+1)
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/ci/lib.sh
. scripts/ci/pg-cluster.sh
PG_PORT=${PG_PORT:-5545}
PORT=${PORT:-4420}
A=http://127.0.0.1:$PORT
B=http://127.0.0.1:$((PORT + 1))
DIR=$(mktemp -d /tmp/ci-two-process.XXXXXX)
PGDIR=$(mktemp -d /tmp/ci-postgres.XXXXXX)
declare -A PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2> /dev/null; done
  pg_stop "$PGDIR"
  rm -rf "$DIR"
}
trap cleanup EXIT

# The compiled server, as it ships (the Remix build is reused when CI's e2e run made it).
[ -f build/server/index.js ] || npm run build > "$ci_log/build.log" 2>&1 || { echo "FAIL two-process: npm run build"; exit 1; }
node scripts/build-server.mjs > "$ci_log/build.log" 2>&1 || { echo "FAIL two-process: the server bundle: $(tail -3 "$ci_log/build.log")"; exit 1; }
pg_start "$PGDIR" "$PG_PORT" || { echo "FAIL two-process: the cluster did not start"; exit 1; }
pg_sql "$PG_PORT" "create database console" > /dev/null
DB_URL="postgres://console@127.0.0.1:$PG_PORT/console"

start() { # NAME PORT [ENV=VALUE…]: a compiled server on the shared database
  local name=$1 port=$2; shift 2
  env NODE_ENV=production PORT="$port" DATABASE_URL="$DB_URL" SESSION_SECRET=two-process-secret-two-process-secret \
    LOG_REQUESTS=false "$@" node build/app/server.js > "$ci_log/$name.log" 2>&1 &
  PIDS[$name]=$!
}
session_valid() { curl -s -b "$2" "$1/api/v1/auth/session" | grep -q '"valid":true'; }
# After a PostgreSQL restart a request may still meet the outage: ask again for up to 10 s.
eventually() { for _ in $(seq 1 40); do "$@" && return 0; sleep 0.25; done; return 1; }
alive() { kill -0 "${PIDS[$1]}"; }

# Both start at once: the migrations must run once between them.
start a "$PORT"
start b "$((PORT + 1))" SHUTDOWN_TIMEOUT_MS=300
both_healthy() { wait_http "$A/healthz" && wait_http "$B/healthz"; }
check "both servers answer /healthz" both_healthy
jar=$ci_log/jar
rm -f "$jar"
check "sign in on one server (development sign-in)" signin "$A" "Two Process" two@example.test "$jar"
check "the session is valid on the other" session_valid "$B" "$jar"
org_across() { [ "$(json_post "$B" "$jar" /api/v1/organizations '{"name":"Two Co"}')" = 201 ] && curl -s -b "$jar" "$A/api/v1/auth/session" | grep -q 'Two Co'; }
check "an organization made on the other is seen on the first" org_across

# ---- HOOK concurrent-spend: the spend-control issue's concurrency check across both servers goes here
# ($A, $B: the servers; $jar: a signed-in admin of "Two Co"; $DB_URL; use `check "…" command`).
# ---- end of HOOK

pg_restart "$PGDIR"
check "PostgreSQL restarted" pg_sql "$PG_PORT" "select 1"
serves_again() { alive "$1" && eventually session_valid "$2" "$jar" && alive "$1"; }
check "the first server survived the restart and serves again" serves_again a "$A"
check "the second server survived the restart and serves again" serves_again b "$B"

stream() { # BASE OUT: a streamed reply of the built-in model, in the background
  curl -sN -b "$jar" -H 'content-type: application/json' \
    -d '{"model":"builtin","stream":true,"messages":[{"role":"user","content":"a reply that is still streaming when SIGTERM arrives"}]}' \
    "$1/api/v1/chat/completions" > "$2" &
}
stopped() { # NAME: SIGTERM, and the exit status
  kill -TERM "${PIDS[$1]}"; wait "${PIDS[$1]}"; local rc=$?; unset "PIDS[$1]"; return $rc
}
usage() { pg_sql "$PG_PORT" "select outcome from chat_usage order by created_at" console | tr '\n' ' '; }

stream "$A" "$ci_log/stream-a"; curl_a=$!
sleep 0.5
check "SIGTERM: the first server drains and exits 0" stopped a
wait "$curl_a"
check "its in-flight stream finished before the exit" grep -q '\[DONE\]' "$ci_log/stream-a"
metered() { [ "$(pg_sql "$PG_PORT" "select count(*) from chat_usage where outcome = '$1'" console)" = 1 ]; }
check "and was metered (completed)" metered completed

stream "$B" "$ci_log/stream-b"; curl_b=$!
sleep 0.5
check "SIGTERM: the second server (SHUTDOWN_TIMEOUT_MS=300) stops its stream and exits 0" stopped b
wait "$curl_b"
check "the stopped stream was metered (stopped)" metered stopped
echo "  chat_usage outcomes: $(usage)"
grep -h "PostgreSQL connection lost\|shutting down\|Shut down" "$ci_log/a.log" "$ci_log/b.log" | sort | uniq -c | sed 's/^/  log:/'
summary two-process
