#!/usr/bin/env bash
# CI part "container": build the image and run it as production would, on a machine with no image
# registry (docs/decisions/0082-deployment.md). Needs root (dockerd, debootstrap).
#   bash scripts/ci/container.sh          W=dir to keep the work folder, REUSE_BASE=1 to keep a base image,
#                                         KEEP=1 to leave dockerd running, PORT (default 4410), BUILDKIT=1
# 1. docker.io + debootstrap from apt when missing; a private dockerd that leaves the host's network alone
# 2. the base image node:22-bookworm-slim, or a stand-in built as NOTES.md "Docker here" describes
# 3. docker build of the working tree (the legacy builder; BUILDKIT=1 for BuildKit), --network host
# 4. run it --read-only with a data volume, and probe: /healthz, uid, sign-in, an organization, a chat
#    reply, the operator commands, docker stop draining a stream and exiting 0, data kept across restarts
set -uo pipefail
cd "$(dirname "$0")/../.."
SRC=$(pwd)
W=${W:-/tmp/ci-container}
PORT=${PORT:-4410}
IMAGE=ai-console:ci
BASE=node:22-bookworm-slim
SECRET=ci-secret-ci-secret-ci-secret-ci-secret-0123
export DOCKER_HOST=unix://$W/docker.sock DEBIAN_FRONTEND=noninteractive CI_LOG_DIR=$W/logs
mkdir -p "$W"
# The CLI that comes with Debian's dockerd (20.10) builds with BuildKit itself; a newer CLI elsewhere on
# PATH would want the buildx plugin for that.
[ -x /usr/bin/docker ] && docker() { /usr/bin/docker "$@"; }
# shellcheck source=scripts/ci/lib.sh
. scripts/ci/lib.sh
B=http://127.0.0.1:$PORT

fail() { echo "FAIL container: $*"; exit 1; }

cleanup() {
  if [ -S "$W/docker.sock" ]; then
    docker rm -f ci-console ci-console-2 > /dev/null 2>&1
    docker volume rm ci-data > /dev/null 2>&1
  fi
  if [ "${KEEP:-0}" != 1 ] && [ -f "$W/dockerd.pid" ]; then
    local pid; pid=$(cat "$W/dockerd.pid")
    kill -TERM "$pid" 2> /dev/null
    for _ in $(seq 1 60); do kill -0 "$pid" 2> /dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2> /dev/null && kill -KILL "$pid"
    # overlay mounts a killed daemon leaves behind would keep $W busy
    grep -o " $W/[^ ]*" /proc/mounts | sort -r | while read -r m; do umount -l "$m" 2> /dev/null; done
    rm -f "$W/dockerd.pid"
  fi
}
trap cleanup EXIT

step() { echo "--- container: $* ($(( $(date +%s) - ci_t0 )) s)"; }

# 1 ------------------------------------------------------------------------------------------------
step "tools"
if ! command -v dockerd > /dev/null || ! command -v debootstrap > /dev/null; then
  apt-get update -qq && apt-get install -y -qq --no-install-recommends docker.io debootstrap > "$ci_log/apt.log" 2>&1 || fail "apt-get install docker.io debootstrap: $(tail -3 "$ci_log/apt.log")"
fi
if ! docker info > /dev/null 2>&1; then
  mkdir -p "$W/data-root" "$W/exec-root"
  # Its own socket, data and exec roots; no iptables rules, no bridge, no ip_forward change: everything
  # uses --network host.
  setsid dockerd -H "$DOCKER_HOST" --data-root "$W/data-root" --exec-root "$W/exec-root" --pidfile "$W/dockerd.pid" \
    --iptables=false --ip6tables=false --bridge=none --ip-forward=false --ip-masq=false \
    > "$ci_log/dockerd.log" 2>&1 < /dev/null &
  for _ in $(seq 1 60); do docker info > /dev/null 2>&1 && break; sleep 0.5; done
  docker info > /dev/null 2>&1 || fail "dockerd did not start: $(tail -3 "$ci_log/dockerd.log")"
fi

# 2 ------------------------------------------------------------------------------------------------
step "base image"
if ! docker image inspect "$BASE" > /dev/null 2>&1 && ! timeout 60 docker pull -q "$BASE" > /dev/null 2>&1; then
  bash scripts/ci/stand-in-base.sh "$W/rootfs" "$BASE" > "$ci_log/base.log" 2>&1 || fail "stand-in base image: $(tail -5 "$ci_log/base.log")"
fi

# 3 ------------------------------------------------------------------------------------------------
step "docker build"
if [ "${BUILDKIT:-0}" = 1 ]; then
  DOCKER_BUILDKIT=1 docker build --network host --progress plain -t "$IMAGE" "$SRC" > "$ci_log/build.log" 2>&1
else
  DOCKER_BUILDKIT=0 docker build --network host -t "$IMAGE" "$SRC" > "$ci_log/build.log" 2>&1
fi || fail "docker build: $(tail -15 "$ci_log/build.log")"
size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
echo "  image $IMAGE: $((size / 1000000)) MB"

# 4 ------------------------------------------------------------------------------------------------
step "run and probe"
run() { # name, extra docker args…
  local name=$1; shift
  docker run -d --name "$name" --network host --read-only -v ci-data:/app/data \
    -e PORT="$PORT" -e ALLOW_DEV_SIGNIN=true -e SESSION_SECRET=$SECRET -e SHUTDOWN_TIMEOUT_MS=20000 "$@" "$IMAGE" > /dev/null
}
jar=$ci_log/jar
rm -f "$jar"
docker volume create ci-data > /dev/null
run ci-console
check "answers /healthz (--read-only, no tmpfs)" wait_http "$B/healthz"
check "runs as uid 1000 (node), not root" sh -c "docker exec ci-console id | grep -q 'uid=1000(node)'"
check "the root filesystem is read-only" sh -c "! docker exec ci-console touch /app/x 2>/dev/null && ! docker exec ci-console touch /tmp/x 2>/dev/null"
check "production dependencies only: no TypeScript, every license text kept" sh -c "docker exec ci-console sh -c 'test ! -e node_modules/typescript && test -f node_modules/qs/LICENSE.md && test -f node_modules/@remix-run/react/LICENSE.md && test -f node_modules/pg-types/README.md'"
check "only node runs, no tsx" sh -c "docker top ci-console -o pid,args | tee /dev/stderr | grep -q 'build/app/server.js' && ! docker top ci-console -o args | grep -q tsx"
check "GET /login serves the page and its assets" sh -c "curl -fs $B/login | grep -o '/assets/[^\"]*\.js' | head -1 | xargs -I{} curl -fs -o /dev/null $B{}"
check "development sign-in sets a session" signin "$B" "CI Admin" ci-admin@example.test "$jar"
check "creates an organization" test "$(json_post "$B" "$jar" /api/v1/organizations '{"name":"CI Co"}')" = 201
check "a chat reply from the built-in model" sh -c "[ \$(curl -s -o $ci_log/chat -w '%{http_code}' -b $jar -H 'origin: $B' -H 'content-type: application/json' -d '{\"model\":\"builtin\",\"stream\":false,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}' $B/api/v1/chat/completions) = 200 ] && grep -q 'built-in development model' $ci_log/chat"
pages_render() { for p in /team /chat /models /usage /billing /tokens; do [ "$(curl -s -o /dev/null -w '%{http_code}' -b "$jar" "$B$p")" = 200 ] || { echo "$p"; return 1; }; done; }
check "the console's pages render (server-side, production dependencies only)" pages_render
check "operator command: npm run system-admin -- EMAIL" sh -c "docker exec ci-console npm run system-admin -- ci-admin@example.test | tee /dev/stderr | grep -q 'admin of the system organization'"
check "operator command: node build/cli.js billing-mode ORG_ID MODE" sh -c "docker exec ci-console node build/cli.js billing-mode 2 invoice | grep -q 'invoice billing'"
check "operator command: unknown commands are refused with the list" sh -c "docker exec ci-console node build/cli.js nope 2>&1 | grep -q system-admin"

# docker stop while a reply streams: the stream finishes, then the server exits 0.
curl -sN -b "$jar" -H "origin: $B" -H 'content-type: application/json' \
  -d '{"model":"builtin","stream":true,"messages":[{"role":"user","content":"a streamed reply that is still arriving when docker stop sends SIGTERM"}]}' \
  "$B/api/v1/chat/completions" > "$ci_log/stream" &
curl_pid=$!
sleep 0.5
t_stop=$(date +%s.%N)
docker stop -t 30 ci-console > /dev/null
stop_s=$(echo "$(date +%s.%N) - $t_stop" | bc)
wait $curl_pid
echo "  docker stop took ${stop_s} s, exit code $(docker inspect -f '{{.State.ExitCode}}' ci-console)"
check "docker stop (SIGTERM) exits 0" test "$(docker inspect -f '{{.State.ExitCode}}' ci-console)" = 0
check "the in-flight stream finished before the exit" grep -q '\[DONE\]' "$ci_log/stream"
check "the server logged its drain" sh -c "docker logs ci-console 2>&1 | grep -qi 'shut'"

docker start ci-console > /dev/null
check "answers again after a restart" wait_http "$B/healthz"
check "data kept across the restart (session, organization)" sh -c "curl -s -b $jar $B/api/v1/auth/session | grep -q 'CI Co'"
# Two replies so far (one whole, one streamed across docker stop): both metered.
usage_rows() { docker exec ci-console node -e "const D = require('better-sqlite3'); console.log(new D('/app/data/console.db', { readonly: true }).prepare('select outcome from chat_usage').all().map((r) => r.outcome).join(' '))"; }
both_metered() { usage_rows | tee /dev/stderr | grep -x 'completed completed' > /dev/null; }
check "the streamed reply was metered before the exit" both_metered
docker rm -f ci-console > /dev/null
run ci-console-2
check "a new container on the same volume keeps the data" sh -c "wait_http() { for i in \$(seq 1 240); do curl -fs -o /dev/null \$1 && return 0; sleep 0.25; done; return 1; }; wait_http $B/healthz && curl -s -b $jar $B/api/v1/auth/session | grep -q 'CI Co'"
docker rm -f ci-console-2 > /dev/null
check "refuses 0.0.0.0 without a sign-in provider or ALLOW_DEV_SIGNIN" sh -c "docker run --rm --network host --read-only -e PORT=$((PORT + 1)) $IMAGE 2>&1 | grep -q 'Refusing to listen'"

summary container
