#!/usr/bin/env bash
# CI part "two-process": two compiled servers on one throwaway PostgreSQL cluster, as behind a load
# balancer: a session made on one works on the other, concurrent priced requests split between them
# never spend past a balance or a token budget (spend reservations, issue 11), both survive a PostgreSQL
# restart, and each drains on SIGTERM (a stream finished, or stopped and metered at the deadline), exiting 0.
# In front of them, nginx with compose.yaml's deploy/nginx.conf (only its addresses changed): sign-in,
# forms, chat streams in pieces, each browser counted by its own address (TRUST_PROXY=1, as compose sets),
# and no failed request while one replica drains or after it has gone. And a third console in front of
# the first with PLATFORM_URL: sign-in, a form, a page and the public API through it.
#   bash scripts/ci/two-process.sh   (PG_PORT default 5545, PORT default 4420, PORT+1, nginx on PORT+2,
#   the PLATFORM_URL console on PORT+3)
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/ci/lib.sh
. scripts/ci/pg-cluster.sh
PG_PORT=${PG_PORT:-5545}
PORT=${PORT:-4420}
A=http://127.0.0.1:$PORT
B=http://127.0.0.1:$((PORT + 1))
N=http://127.0.0.1:$((PORT + 2))
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

# As compose.yaml configures its replicas: served at the proxy's address, trusting one proxy hop.
start() { # NAME PORT [ENV=VALUE…]: a compiled server on the shared database
  local name=$1 port=$2; shift 2
  env NODE_ENV=production PORT="$port" DATABASE_URL="$DB_URL" SESSION_SECRET=two-process-secret-two-process-secret \
    APP_ORIGIN="$N" TRUST_PROXY=1 LOG_REQUESTS=false "$@" node build/app/server.js > "$ci_log/$name.log" 2>&1 &
  PIDS[$name]=$!
}
# Under pipefail, `curl | grep -q` fails at random: grep -q leaves at the first match and curl, still
# writing, dies of SIGPIPE. So a page is searched by a grep that reads to the end.
session_valid() { curl -s -b "$2" "$1/api/v1/auth/session" | grep '"valid":true' > /dev/null; }
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
org_across() { [ "$(json_post "$B" "$jar" /api/v1/organizations '{"name":"Two Co"}')" = 201 ] && curl -s -b "$jar" "$A/api/v1/auth/session" | grep 'Two Co' > /dev/null; }
check "an organization made on the other is seen on the first" org_across
q() { pg_sql "$PG_PORT" "$1" console; }

# ---- nginx in front (compose.yaml's proxy): deploy/nginx.conf as shipped, with the replicas' and its own
# addresses put in. Browsers are told apart by the loopback address they come from (curl --interface).
mkdir -p "$DIR/nginx"
sed -e "s/server console-1:3000 /server 127.0.0.1:$PORT /" -e "s/server console-2:3000 /server 127.0.0.1:$((PORT + 1)) /" \
  -e "s/listen 8080;/listen 127.0.0.1:$((PORT + 2));/" deploy/nginx.conf > "$DIR/nginx/site.conf"
printf '%s\n' 'daemon off;' 'master_process off;' "pid $DIR/nginx/nginx.pid;" "error_log $DIR/nginx/error.log warn;" \
  'events { worker_connections 512; }' 'http {' '  access_log off;' "  client_body_temp_path $DIR/nginx/body;" \
  "  proxy_temp_path $DIR/nginx/proxy;" "  include $DIR/nginx/site.conf;" '}' > "$DIR/nginx/nginx.conf"
NGINX=$(command -v nginx || echo /usr/sbin/nginx) # Debian's nginx-light (.ci/run installs it)
addressed() { ! grep -q 'console-[12]:\|listen 8080' "$DIR/nginx/site.conf" && "$NGINX" -t -q -e "$DIR/nginx/error.log" -c "$DIR/nginx/nginx.conf"; }
check "deploy/nginx.conf, given the replicas' addresses, is a valid configuration" addressed
"$NGINX" -e "$DIR/nginx/error.log" -c "$DIR/nginx/nginx.conf" > "$ci_log/nginx.log" 2>&1 &
PIDS[nginx]=$!
check "nginx answers /healthz from the replicas" wait_http "$N/healthz" 40
ngx() { curl -s --interface "127.0.0.$1" "${@:2}"; } # FROM ARGS…: a request to nginx from 127.0.0.FROM
njar=$ci_log/nginx-jar
rm -f "$njar"
nsignin() { # the development sign-in through nginx, from 127.0.0.4
  local loc post
  loc=$(ngx 4 -c "$njar" -b "$njar" -o /dev/null -w '%{redirect_url}' "$N/api/v1/auth/google")
  post=$(ngx 4 -b "$njar" -c "$njar" -o /dev/null -w '%{redirect_url}' --data "${loc#*\?}" --data-urlencode "name=Through Nginx" \
    --data-urlencode "email=nginx@example.test" "$N/api/v1/auth/dev/authorize")
  case $post in "$N"/*) ;; *) echo "redirected to '$post', not back through nginx"; return 1 ;; esac
  ngx 4 -b "$njar" -c "$njar" -o /dev/null "$N/${post#*://*/}" && grep -q $'\tsid\t' "$njar"
}
check "sign in through nginx (its redirects name nginx's address)" nsignin
check "that session is valid on one replica" session_valid "$A" "$njar"
check "… and on the other" session_valid "$B" "$njar"
form_through() { # the welcome screen's form, posted as a browser would, with a forged X-Forwarded-For
  local status
  status=$(ngx 4 -b "$njar" -o /dev/null -w '%{http_code}' -H "origin: $N" -H 'x-forwarded-for: 198.51.100.7' \
    --data-urlencode intent=create --data-urlencode "name=Nginx Co" "$N/welcome")
  [ "$status" = 302 ] || { echo "status $status"; return 1; }
  [ "$(q "select address from audit_log where action = 'organization.created' and new_value like '%Nginx Co%'")" = 127.0.0.4 ]
}
check "a console form works through nginx; the audit log names the browser (127.0.0.4), not a forged X-Forwarded-For" form_through
page_through() { ngx 4 -b "$njar" "$N/team" | grep 'nginx@example.test' > /dev/null; }
check "a console page renders through nginx" page_through
pieces() { # a chat reply through nginx: the seconds between its first and its last piece
  local t0="" line
  ngx 4 -N -b "$njar" -H "origin: $N" -H 'content-type: application/json' \
    -d '{"model":"builtin","stream":true,"messages":[{"role":"user","content":"a reply that arrives piece by piece"}]}' \
    "$N/api/v1/chat/completions" | while IFS= read -r line; do
      case $line in data:*) [ -n "$t0" ] || t0=$EPOCHREALTIME; [ "$line" != "data: [DONE]" ] || echo "$t0 $EPOCHREALTIME" ;; esac
    done | awk '{ printf "%.2f", $2 - $1 }'
}
streamed=$(pieces)
check "a chat reply streams through nginx piece by piece: ${streamed:-no} s from its first piece to its last" awk -v s="${streamed:-0}" 'BEGIN { exit !(s >= 0.5) }'
# Per-address limits count what nginx forwards. (Sign-in starts from loopback are not limited in
# development sign-in mode, so an invite-code join, limited per address everywhere, shows it.)
join_counted() {
  ngx 4 -b "$njar" -o /dev/null -H "origin: $N" -H 'x-forwarded-for: 203.0.113.9' \
    --data-urlencode intent=join --data-urlencode code=NOT-A-CODE "$N/welcome"
  [ "$(q "select string_agg(key, ' ') from rate_limit_buckets where key like 'join:addr:%'")" = join:addr:127.0.0.4 ]
}
check "a join attempt through nginx counts against the browser's address (127.0.0.4), not a forged one" join_counted

# ---- A console in front of the first server with PLATFORM_URL (DESIGN §1): it is served at the public
# name (nginx's address here: curl --connect-to sends that name's requests to it) and forwards /api/v1 and
# /openai/v1 there, the browser's Host included, so the platform answers for the console's name.
C=127.0.0.1:$((PORT + 3))
env NODE_ENV=production PORT="$((PORT + 3))" PLATFORM_URL="$A" SESSION_SECRET=two-process-secret-two-process-secret \
  APP_ORIGIN="$N" LOG_REQUESTS=false node build/app/server.js > "$ci_log/c.log" 2>&1 &
PIDS[c]=$!
check "a console with PLATFORM_URL answers /healthz" wait_http "http://$C/healthz"
via_c() { curl -s --connect-to "${N#http://}:$C" "$@"; } # a request to the public name, served by that console
cjar=$ci_log/platform-url-jar
rm -f "$cjar"
csignin() { # the development sign-in of the platform behind, through that console: every redirect names the console
  local loc post
  loc=$(via_c -c "$cjar" -b "$cjar" -o /dev/null -w '%{redirect_url}' "$N/api/v1/auth/google")
  case $loc in "$N"/*) ;; *) echo "sent to '$loc', not to the console's name"; return 1 ;; esac
  post=$(via_c -b "$cjar" -c "$cjar" -o /dev/null -w '%{redirect_url}' --data "${loc#*\?}" --data-urlencode "name=Platform Url" \
    --data-urlencode "email=platform-url@example.test" "$N/api/v1/auth/dev/authorize")
  case $post in "$N"/*) ;; *) echo "redirected to '$post', not back to the console"; return 1 ;; esac
  via_c -b "$cjar" -c "$cjar" -o /dev/null "$N/${post#*://*/}" && grep -q $'\tsid\t' "$cjar"
}
check "sign in through a console with PLATFORM_URL (the platform's redirects are the browser's, naming the console)" csignin
check "that session is valid on the platform behind it" session_valid "$A" "$cjar"
c_form() { # the welcome screen's form, then the team page, rendered by that console from the platform's answers
  local status
  status=$(via_c -b "$cjar" -o /dev/null -w '%{http_code}' -H "origin: $N" --data-urlencode intent=create --data-urlencode "name=Remote Co" "$N/welcome")
  [ "$status" = 302 ] || { echo "status $status"; return 1; }
  via_c -b "$cjar" "$N/team" | grep 'platform-url@example.test' > /dev/null
}
check "a console form and page work through PLATFORM_URL" c_form
c_api() { # a new API token, then the public API through that console: JSON and a stream
  local secret
  secret=$(via_c -b "$cjar" -H "origin: $N" -H 'content-type: application/json' -d '{"scopes":["chat"],"expiresAt":null}' "$N/api/v1/tokens" |
    sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
  [ -n "$secret" ] || { echo "no token"; return 1; }
  via_c -H "authorization: Bearer $secret" -H 'content-type: application/json' -d '{"model":"builtin","messages":[{"role":"user","content":"hi"}]}' \
    "$N/openai/v1/chat/completions" | grep '"object":"chat.completion"' > /dev/null || { echo "no completion"; return 1; }
  via_c -N -H "authorization: Bearer $secret" -H 'content-type: application/json' \
    -d '{"model":"builtin","stream":true,"messages":[{"role":"user","content":"hi"}]}' "$N/openai/v1/chat/completions" | grep '^data: \[DONE\]' > /dev/null
}
check "the public API through PLATFORM_URL (a token made there; JSON and streamed)" c_api
kill "${PIDS[c]}"; wait "${PIDS[c]}" 2> /dev/null; unset "PIDS[c]"

# ---- Spend control across both servers (issue 11, decision 0084): reservations live in PostgreSQL, so
# concurrent priced requests split between two processes never spend more than the balance (or a token's
# budget) allows, and the ledger charges exactly what the balance lost.
HOLD=100000 # micro-dollars held and charged per request (see the model above)
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
# A browser goes on using the console through nginx while the first server drains, and after it has gone.
: > "$DIR/during"
( while [ ! -e "$DIR/drained" ]; do ngx 4 -o /dev/null -w '%{http_code}\n' -b "$njar" "$N/api/v1/auth/session" >> "$DIR/during"; sleep 0.05; done ) &
browsing=$!
check "SIGTERM: the first server drains and exits 0" stopped a
touch "$DIR/drained"; wait "$browsing"
wait "$curl_a"
check "through nginx, no request failed while it drained ($(wc -l < "$DIR/during") asked)" test -s "$DIR/during" -a "$(grep -cv '^200$' "$DIR/during")" = 0
one_left() { # reads and a form, through nginx, with one server gone
  local i
  for i in $(seq 1 10); do [ "$(ngx 4 -o /dev/null -w '%{http_code}' -b "$njar" "$N/api/v1/auth/session")" = 200 ] || return 1; done
  [ "$(ngx 4 -o /dev/null -w '%{http_code}' -b "$njar" -H "origin: $N" -H 'content-type: application/json' -d '{"name":"One Left"}' "$N/api/v1/organizations")" = 201 ]
}
check "with it gone, nginx sends every request to the other" one_left
check "its in-flight stream finished before the exit" grep -q '\[DONE\]' "$ci_log/stream-a"
metered() { [ "$(pg_sql "$PG_PORT" "select count(*) from chat_usage where outcome = '$1' and model = 'builtin'" console)" = "$2" ]; }
check "and was metered (completed, as the reply through nginx and the two through PLATFORM_URL were)" metered completed 4

stream "$B" "$ci_log/stream-b"; curl_b=$!
sleep 0.5
check "SIGTERM: the second server (SHUTDOWN_TIMEOUT_MS=300) stops its stream and exits 0" stopped b
wait "$curl_b"
check "the stopped stream was metered (stopped)" metered stopped 1
# Model reliability (issue 17): each process adds its per-minute counters to the same rows; with both
# stopped (a shutdown writes what it still held), the counters equal what was metered by either.
stat() { q "select coalesce(sum($1), 0) from model_minute_stats where model = '$2'"; }
check "reliability counters of both servers add up: builtin requests $(stat requests builtin) = usage rows $(q "select count(*) from chat_usage where model = 'builtin'")" \
  test "$(stat requests builtin)" = "$(q "select count(*) from chat_usage where model = 'builtin'")"
check "four successes (through nginx, PLATFORM_URL twice, the first server's drain) and one abort (the second's)" test "$(stat successes builtin) $(stat aborted builtin)" = "4 1"
check "priced requests served by either server are all counted ($(stat requests priced))" test "$(stat requests priced)" = "$(q "select count(*) from chat_usage where model = 'priced'")" -a "$(stat requests priced)" -gt 0
echo "  chat_usage outcomes: $(usage)"
grep -h "PostgreSQL connection lost\|shutting down\|Shut down" "$ci_log/a.log" "$ci_log/b.log" | sort | uniq -c | sed 's/^/  log:/'
summary two-process
