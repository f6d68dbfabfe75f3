#!/usr/bin/env bash
# CI part "postgres-suite": the platform suite (tests/platform) on a throwaway PostgreSQL cluster, and
# no database left behind by it.   bash scripts/ci/postgres.sh   (PG_PORT, default 5544)
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/ci/lib.sh
. scripts/ci/pg-cluster.sh
PORT=${PG_PORT:-5544}
DIR=$(mktemp -d /tmp/ci-postgres.XXXXXX)
trap 'pg_stop "$DIR"' EXIT

pg_start "$DIR" "$PORT" || { echo "FAIL postgres-suite: the cluster did not start"; exit 1; }
echo "  PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
check "the platform suite passes on PostgreSQL" env TEST_DATABASE_URL="$PG_URL" npx vitest run tests/platform --reporter=dot
grep -E "Tests +[0-9]+" "$ci_log/check.out" | sed 's/^/  /'
left=$(pg_sql "$PORT" "select count(*) from pg_database where datname like 't\_%'")
check "the suite dropped every database it created (left: $left)" test "$left" = 0
summary postgres-suite
