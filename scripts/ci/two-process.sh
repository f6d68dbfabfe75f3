#!/usr/bin/env bash
# CI part "two-process": two compiled servers on one throwaway PostgreSQL cluster, as behind a load
# balancer: a session made on one works on the other, concurrent priced requests split between them
# never spend past a balance or a token budget (spend reservations, issue 11), both survive a PostgreSQL
# restart, and each drains on SIGTERM (a stream finished, or stopped and metered at the deadline), exiting 0.
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

# A priced model on the tests' fake upstream, for the spend check below: $100 per million output tokens
# and nothing for input, so a completion of max_tokens 1000 (the fake's `to-the-limit` generates exactly
# max_tokens) costs and holds exactly $0.10. Only the first server seeds it; the registry is shared.
node --import tsx scripts/ci/fake-upstream.ts > "$DIR/upstream" 2> "$ci_log/upstream.log" &
PIDS[upstream]=$!
for _ in $(seq 1 80); do [ -s "$DIR/upstream" ] && break; sleep 0.25; done
printf '[{"name":"priced","displayName":"Priced","provider":"vllm","contextSize":32768,"baseUrl":"%s","upstreamModel":"to-the-limit","rateCard":{"id":"ci-priced","inputPerMillion":0,"outputPerMillion":100}}]' \
  "$(cat "$DIR/upstream")" > "$DIR/models.json"

# Both start at once: the migrations must run once between them.
start a "$PORT" MODELS_FILE="$DIR/models.json"
start b "$((PORT + 1))" SHUTDOWN_TIMEOUT_MS=300
both_healthy() { wait_http "$A/healthz" && wait_http "$B/healthz"; }
check "both servers answer /healthz" both_healthy
jar=$ci_log/jar
rm -f "$jar"
check "sign in on one server (development sign-in)" signin "$A" "Two Process" two@example.test "$jar"
check "the session is valid on the other" session_valid "$B" "$jar"
org_across() { [ "$(json_post "$B" "$jar" /api/v1/organizations '{"name":"Two Co"}')" = 201 ] && curl -s -b "$jar" "$A/api/v1/auth/session" | grep -q 'Two Co'; }
check "an organization made on the other is seen on the first" org_across

# ---- Spend control across both servers (issue 11, decision 0084): reservations live in PostgreSQL, so
# concurrent priced requests split between two processes never spend more than the balance (or a token's
# budget) allows, and the ledger charges exactly what the balance lost.
HOLD=100000 # micro-dollars held and charged per request (see the model above)
q() { pg_sql "$PG_PORT" "$1" console; }
ORG=$(q "select id from organizations where name = 'Two Co'")
cli() { env DATABASE_URL="$DB_URL" node build/cli.js "$@"; }
new_token() { # BODY: prints the secret of a new API token of Two Co
  [ "$(json_post "$A" "$jar" /api/v1/tokens "$1")" = 201 ] && sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$ci_log/body"
}
burst() { # SECRET N OUT: N concurrent priced completions, alternately on each server; one status per line in OUT
  local i base
  rm -rf "$DIR/burst" && mkdir "$DIR/burst"
  for i in $(seq 1 "$2"); do
    base=$A; [ $((i % 2)) = 0 ] && base=$B
    curl -s -o "$DIR/burst/$i.body" -w '%{http_code}\n' -H "authorization: Bearer $1" -H 'content-type: application/json' \
      -d '{"model":"priced","max_tokens":1000,"stream":true,"messages":[{"role":"user","content":"Say hello"}]}' \
      "$base/openai/v1/chat/completions" > "$DIR/burst/$i.status" &
  done
  wait_burst "$2"
  cat "$DIR/burst"/*.status > "$3"
}
wait_burst() { for _ in $(seq 1 240); do [ "$(cat "$DIR/burst"/*.status 2> /dev/null | wc -l)" -ge "$1" ] && return 0; sleep 0.25; done; }
watch_balance() { # OUT: the account's balance and balance − reserved, sampled until the burst is over
  while [ ! -e "$DIR/burst-done" ]; do q "select balance_micros, balance_micros - reserved_micros from billing_accounts where org_id = $ORG" >> "$1"; done
}
served() { grep -c '^200$' "$1"; }
balance() { q "select balance_micros from billing_accounts where org_id = $ORG"; }
debited() { q "select coalesce(-sum(change_micros), 0) from ledger_entries where org_id = $ORG and model = 'priced'"; }

check "an organization of two processes has a prepaid balance worth 2.5 requests (grant-credit)" cli grant-credit "$ORG" 0.25 "two-process spend check"
before=$(balance)
SECRET=$(new_token '{"scopes":["chat"],"expiresAt":null}')
check "an API token" test -n "$SECRET"
rm -f "$DIR/burst-done" "$DIR/balances"
watch_balance "$DIR/balances" & watcher=$!
burst "$SECRET" 40 "$DIR/statuses"
touch "$DIR/burst-done"; wait "$watcher"
n=$(served "$DIR/statuses")
echo "  40 concurrent priced requests over both servers: $n served, $(grep -c '^402$' "$DIR/statuses") refused (402), balance $before → $(balance) micro-dollars"
check "every request was served or refused with 402" test "$(grep -cv '^200$\|^402$' "$DIR/statuses")" = 0
check "the refusal says why" grep -q 'Insufficient balance: this request may cost up to \$0.10, \$0.0[0-9]* is available' "$DIR"/burst/*.body
check "some were served, at most what the balance allows (2)" test "$n" -ge 1 -a "$n" -le $((before / HOLD))
never_negative() { [ -s "$1" ] && awk -F'|' '$1 < 0 || $2 < 0 { bad = 1; print } END { exit bad }' "$1"; }
check "the balance (and balance − open reservations) never went below zero while they ran ($(wc -l < "$DIR/balances") samples)" never_negative "$DIR/balances"
no_open() { [ "$(q "select count(*) from spend_reservations")" = 0 ] && [ "$(q "select reserved_micros from billing_accounts where org_id = $ORG")" = 0 ]; }
check "no open reservation is left" eventually no_open
check "the balance ends at or above zero" test "$(balance)" -ge 0
check "the ledger debited exactly what the balance lost" test "$(debited)" = $((before - $(balance)))
check "and exactly what was served: $n × \$0.10" test "$(debited)" = $((n * HOLD))

# The same with a token budget ($0.20, worth 2 requests) on a balance that is not the limit.
check "more credit, so the balance is not the limit" cli grant-credit "$ORG" 10 "two-process budget check"
BUDGETED=$(new_token '{"scopes":["chat"],"expiresAt":null,"budget":{"amount":0.2,"period":"total"}}')
check "an API token with a budget of \$0.20" test -n "$BUDGETED"
TOKEN_ID=$(q "select max(id) from api_tokens where org_id = $ORG")
burst "$BUDGETED" 20 "$DIR/budget-statuses"
n=$(served "$DIR/budget-statuses")
echo "  20 concurrent priced requests with a \$0.20 token budget: $n served, $(grep -c '^402$' "$DIR/budget-statuses") refused (402)"
check "the budget's refusal says why" grep -q 'Token budget exceeded: this request may cost up to \$0.10' "$DIR"/burst/*.body
check "some were served, at most what the budget allows (2)" test "$n" -ge 1 -a "$n" -le 2
token_settled() { [ "$(q "select reserved_micros from api_tokens where id = $TOKEN_ID")" = 0 ] && no_open; }
check "no open reservation is left on the token" eventually token_settled
token_charged() { [ "$(q "select coalesce(sum(cost_micros), 0) from chat_usage where token_id = $TOKEN_ID")" = "$(q "select spent_micros from api_tokens where id = $TOKEN_ID")" ]; }
check "the token's spend is what its requests cost, and within its budget" token_charged
check "the token spent $n × \$0.10 (≤ \$0.20)" test "$(q "select spent_micros from api_tokens where id = $TOKEN_ID")" = $((n * HOLD))
check "the ledger still debited exactly what the balance lost" test "$(debited)" = $((before + 10000000 - $(balance)))
# ---- end of spend control

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
usage() { pg_sql "$PG_PORT" "select outcome from chat_usage where model = 'builtin' order by created_at" console | tr '\n' ' '; }

stream "$A" "$ci_log/stream-a"; curl_a=$!
sleep 0.5
check "SIGTERM: the first server drains and exits 0" stopped a
wait "$curl_a"
check "its in-flight stream finished before the exit" grep -q '\[DONE\]' "$ci_log/stream-a"
metered() { [ "$(pg_sql "$PG_PORT" "select count(*) from chat_usage where outcome = '$1' and model = 'builtin'" console)" = 1 ]; }
check "and was metered (completed)" metered completed

stream "$B" "$ci_log/stream-b"; curl_b=$!
sleep 0.5
check "SIGTERM: the second server (SHUTDOWN_TIMEOUT_MS=300) stops its stream and exits 0" stopped b
wait "$curl_b"
check "the stopped stream was metered (stopped)" metered stopped
# Model reliability (issue 17): each process adds its per-minute counters to the same rows; with both
# stopped (a shutdown writes what it still held), the counters equal what was metered by either.
stat() { q "select coalesce(sum($1), 0) from model_minute_stats where model = '$2'"; }
check "reliability counters of both servers add up: builtin requests $(stat requests builtin) = usage rows $(q "select count(*) from chat_usage where model = 'builtin'")" \
  test "$(stat requests builtin)" = "$(q "select count(*) from chat_usage where model = 'builtin'")"
check "one success (the first server's) and one abort (the second's)" test "$(stat successes builtin) $(stat aborted builtin)" = "1 1"
check "priced requests served by either server are all counted ($(stat requests priced))" test "$(stat requests priced)" = "$(q "select count(*) from chat_usage where model = 'priced'")" -a "$(stat requests priced)" -gt 0
echo "  chat_usage outcomes: $(usage)"
grep -h "PostgreSQL connection lost\|shutting down\|Shut down" "$ci_log/a.log" "$ci_log/b.log" | sort | uniq -c | sed 's/^/  log:/'
summary two-process
