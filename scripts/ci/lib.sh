# Shared by the CI parts (sourced): checks, timing and the development sign-in over HTTP.

ci_t0=$(date +%s)
ci_failed=0
ci_log=${CI_LOG_DIR:-$(mktemp -d)}
mkdir -p "$ci_log"

# check "description" command…: prints PASS/FAIL with the command's last output on failure.
check() {
  local desc=$1; shift
  if "$@" > "$ci_log/check.out" 2>&1; then echo "  ok   $desc"
  else ci_failed=$((ci_failed + 1)); echo "  FAIL $desc: $(tail -c 400 "$ci_log/check.out" | tr '\n' ' ')"; fi
}

# summary PART: the one line CI reads; the exit status of the part.
summary() {
  local part=$1 took=$(( $(date +%s) - ci_t0 ))
  if [ "$ci_failed" = 0 ]; then echo "PASS $part (${took} s)"; return 0; fi
  echo "FAIL $part: $ci_failed check(s) failed (${took} s)"; return 1
}

# wait_http URL [tries]: until it answers 2xx (0.25 s apart).
wait_http() {
  for _ in $(seq 1 "${2:-240}"); do curl -fs -o /dev/null "$1" && return 0; sleep 0.25; done
  return 1
}

# signin BASE NAME EMAIL JAR: development sign-in (tests/platform/harness.ts does the same in-process).
signin() {
  local b=$1 loc q post cb
  loc=$(curl -s -c "$4" -b "$4" -o /dev/null -w '%{redirect_url}' "$b/api/v1/auth/google")
  q=${loc#*\?}
  post=$(curl -s -b "$4" -c "$4" -o /dev/null -w '%{redirect_url}' --data "$q" --data-urlencode "name=$2" --data-urlencode "email=$3" "$b/api/v1/auth/dev/authorize")
  cb="/${post#*://*/}"
  curl -s -b "$4" -c "$4" -o /dev/null "$b$cb"
  grep -q $'\tsid\t' "$4"
}

# json_post BASE JAR PATH BODY: prints the status code; the body goes to $ci_log/body.
json_post() {
  curl -s -o "$ci_log/body" -w '%{http_code}' -b "$2" -H "origin: $1" -H 'content-type: application/json' -d "$4" "$1$3"
}
