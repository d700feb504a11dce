#!/usr/bin/env bash
# `npm test`: every test CI runs — typecheck, lint (ESLint with the folder table's import boundaries,
# eslint.config.mjs), unit, integration on real SQLite AND on a real local
# PostgreSQL (scripts/postgres-local.sh installs/starts it; TEST_DATABASE=postgresql switches
# lib/testing/test-db.ts), end-to-end (Playwright, real web app + worker), then the container image and
# the systemd units (vitest project `container`). Ends with each failed step's failing files and
# tests, then the closing line "suites: N passed, N failed (failed: <steps>)". SKIP_POSTGRES=1 leaves
# the PostgreSQL steps out (counted as failed). After the PostgreSQL suite, any `deadlock detected` in
# the local cluster's log during it fails the step postgresql-deadlocks (docs/decisions.md 441).
# typecheck and lint run side by side (each keeps one of the two cores busy); the test suites one
# after another: their crash and timing tests need the cores to themselves (docs/decisions.md 438).
# moto's server (the AWS emulator of the aws-target tests) is started here and stopped at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

npx tsx scripts/generate.ts >/dev/null
failed=0
passed=0

# AWS targets and dead letters (SPEC §13.2, §12.3) are tested against moto's server, a local AWS
# emulator, on loopback; the tests reach it through the standard AWS SDK environment only. Its port
# is E2E_PORT+2 (E2E_PORT+1 is the e2e limits server, E2E_PORT+3 the health test's web-only server); test receivers use E2E_PORT+10… (40 ports).
E2E_BASE="${E2E_PORT:-3100}"
MOTO_PORT="${MOTO_PORT:-$((E2E_BASE + 2))}"
export TEST_PORT_BASE="${TEST_PORT_BASE:-$((E2E_BASE + 10))}"
moto_pid=""
moto_problem=""
start_moto() {
  local cmd
  if command -v moto_server >/dev/null 2>&1; then cmd=(moto_server)
  elif python3 -c 'import moto.server' >/dev/null 2>&1; then cmd=(python3 -m moto.server)
  else
    moto_problem="moto's server is missing: neither moto_server nor python3's moto.server exists (pip install 'moto[server]'); the AWS target and dead-letter tests fail without it"
    echo "=== $moto_problem"
    return 1
  fi
  "${cmd[@]}" -H 127.0.0.1 -p "$MOTO_PORT" >"${TMPDIR:-/tmp}/scheduler-moto-$MOTO_PORT.log" 2>&1 &
  moto_pid=$!
  for _ in $(seq 1 60); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$MOTO_PORT/moto-api/', timeout=1)" >/dev/null 2>&1; then
      export AWS_ENDPOINT_URL="http://127.0.0.1:$MOTO_PORT" AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing
      # Nothing else to look credentials up in: no profile files, no instance metadata.
      export AWS_EC2_METADATA_DISABLED=true AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
      unset AWS_PROFILE AWS_SESSION_TOKEN
      echo "=== moto's server on 127.0.0.1:$MOTO_PORT (AWS_ENDPOINT_URL=$AWS_ENDPOINT_URL)"
      return 0
    fi
    if ! kill -0 "$moto_pid" 2>/dev/null; then break; fi
    sleep 0.5
  done
  moto_problem="moto's server did not start on 127.0.0.1:$MOTO_PORT (port taken? see ${TMPDIR:-/tmp}/scheduler-moto-$MOTO_PORT.log)"
  echo "=== $moto_problem"
  return 1
}
stop_moto() { if [ -n "$moto_pid" ]; then kill "$moto_pid" 2>/dev/null; wait "$moto_pid" 2>/dev/null; fi; }
# Each step's output is also kept (logs/) so the closing lines can name what failed: a CI log is
# often read from its tail only. Through a process substitution, not a pipe: the step ends when its
# command exits, even if a process it leaked still holds the output open (a pipe would wait for it).
logs="$(mktemp -d "${TMPDIR:-/tmp}/scheduler-test-all-XXXXXX")"
trap 'stop_moto; rm -rf "$logs"' EXIT
failed_steps=()
# `record <name> <rc>`: count a step as passed (rc 0) or failed, and name it among the failed.
record() {
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else echo "=== $1 FAILED"; failed=$((failed + 1)); failed_steps+=("$1"); fi
}
step() {
  local name="$1" rc; shift
  echo
  echo "=== $name: $*"
  "$@" > >(tee "$logs/$name.log") 2>&1
  rc=$?
  # tee may print the step's last lines a moment after it ended.
  sleep 0.5
  record "$name" "$rc"
}

# Steps side by side: `together name1 'cmd1' name2 'cmd2' …` starts each command (a string run by bash)
# with its output in its own log, prints one line as each starts, and each log whole as it ends (in
# the order they end), so the CI log stays readable; returns when all have ended.
together() {
  local -A step_of=()
  local name pid rc began=$SECONDS
  while [ "$#" -gt 0 ]; do
    name="$1"; echo; echo "=== $name (side by side): $2"
    bash -c "$2" > "$logs/$name.log" 2>&1 &
    step_of[$!]="$name"; shift 2
  done
  while [ "${#step_of[@]}" -gt 0 ]; do
    pid=""
    wait -n -p pid "${!step_of[@]}"; rc=$?
    # None of them left to wait for (not expected: bash keeps an ended job until it is waited for).
    if [ -z "$pid" ]; then
      echo "=== together: lost track of ${step_of[*]}"
      for name in "${step_of[@]}"; do record "$name" 1; done
      break
    fi
    name="${step_of[$pid]}"; unset "step_of[$pid]"
    echo; echo "=== $name ended after $((SECONDS - began)) s (exit $rc); its output:"
    cat "$logs/$name.log"
    record "$name" "$rc"
  done
}

# PostgreSQL deadlocks during the PostgreSQL suite (docs/decisions.md 441). `pg_log_mark` notes where
# the local cluster's log stands (scripts/postgres-local.sh's cluster `main` on port 5432); after the
# suite, `pg_deadlocks` reads what was written since and fails the step postgresql-deadlocks on any
# `deadlock detected`, each printed with the lines PostgreSQL logged after it (its DETAIL names the
# statements), also as "FAIL deadlock:" lines for the closing summary. Not checked (said so, and not
# counted) when the suite's server is not that cluster (TEST_POSTGRES_URL elsewhere) or its log is
# not readable; a log that shrank meanwhile (rotated) is read whole.
pg_log=""
pg_log_from=""
pg_log_mark() {
  pg_log=""; pg_log_from=""
  case "${TEST_POSTGRES_URL:-}" in ""|*@127.0.0.1:5432/*|*@localhost:5432/*) ;; *) return 0 ;; esac
  pg_log=$(pg_lsclusters -h 2>/dev/null | awk '$2 == "main" && $3 == "5432" && $4 == "online" {print $7; exit}')
  if [ -n "$pg_log" ] && [ -r "$pg_log" ]; then pg_log_from=$(stat -c %s "$pg_log") || pg_log_from=""; fi
}
pg_deadlocks() {
  local out="$logs/postgresql-deadlocks.log" new="$logs/postgresql-new.log" size g
  echo; echo "=== postgresql-deadlocks: PostgreSQL's log (${pg_log:-not found}) during integration-postgresql"
  if [ -z "$pg_log_from" ]; then
    echo "not checked: the suite's server is not the local cluster, or its log is not readable here"
    return 0
  fi
  size=$(stat -c %s "$pg_log" 2>/dev/null) || size=0
  [ "$size" -lt "$pg_log_from" ] && { echo "the log shrank during the suite (rotated?): reading it whole"; pg_log_from=0; }
  if ! tail -c +"$((pg_log_from + 1))" "$pg_log" > "$new"; then
    echo "FAIL deadlock check: could not read $pg_log" | tee "$out"; record postgresql-deadlocks 1; return 0
  fi
  grep -a -A12 'deadlock detected' "$new" > "$out"; g=$?
  rm -f "$new"
  case "$g" in
    0) cat "$out"; grep -a 'deadlock detected\|DETAIL\|Process [0-9]* waits' "$out" | sed 's/^/FAIL deadlock: /' >> "$out"; record postgresql-deadlocks 1 ;;
    1) echo "no deadlock"; record postgresql-deadlocks 0 ;;
    *) echo "FAIL deadlock check: grep failed ($g)" | tee -a "$out"; record postgresql-deadlocks 1 ;;
  esac
}

# Not through step's pipe: start_moto exports AWS_ENDPOINT_URL and keeps moto's pid in this shell.
echo; echo "=== moto-server: start_moto"
start_moto; record moto-server $?
# tsc and ESLint each keep one core busy.
together typecheck 'npx tsc --noEmit' lint 'npm run --silent lint'
step unit npx vitest run --project unit
step schema-dialects npx tsx scripts/generate.ts --check
step integration-sqlite npx vitest run --project integration
if [ "${SKIP_POSTGRES:-}" = "1" ]; then
  echo; echo "=== integration-postgresql SKIPPED (SKIP_POSTGRES=1)"; record integration-postgresql 1
else
  step postgresql-server bash scripts/postgres-local.sh
  pg_log_mark
  step integration-postgresql env TEST_DATABASE=postgresql npx vitest run --project integration
  pg_deadlocks
fi
# The e2e build does not type-check the tree again: the typecheck step above did (next.config.ts).
step e2e env NEXT_BUILD_SKIP_TYPECHECK=1 npx playwright test
# The image (podman) and the systemd units, once (not per dialect: it runs SQLite and PostgreSQL
# itself); after the e2e suite, whose web app build the units' commands serve. Skipped, saying so,
# where podman or systemd-analyze is missing.
step container npx vitest run --project container

echo
[ -n "$moto_problem" ] && echo "=== $moto_problem"
# ${a[@]+"${a[@]}"}: an empty array under `set -u` (bash before 4.4 calls it unbound).
for name in ${failed_steps[@]+"${failed_steps[@]}"}; do
  # Steps without a log (moto's server, a SKIPPED PostgreSQL run) said why above.
  [ -f "$logs/$name.log" ] || continue
  echo "=== $name FAILED; its failing files and tests (the whole output is above):"
  # vitest: "FAIL <file> > <test>" and "×"/"✗" lines; Playwright: "✘" lines and numbered failures.
  sed -E 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" | grep -aE '(^| )FAIL |✘|×|✗|^ +[0-9]+\) |error TS|  error  ' | grep -av '✓' | head -40
  # vitest: why each failed (its "Failed Tests" block: the error, the expected/received diff, where),
  # without the source excerpts, so the reason survives when only the end of the output is kept.
  sed -E 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" | awk '/Failed Tests [0-9]+/{on=1} /^ +Test Files /{on=0} on' \
    | grep -aE 'FAIL |Error|[Ee]xpected|[Rr]eceived|^[-+] |^ *❯ [^ ]+:[0-9]+' | head -60
done
echo "suites: $passed passed, $failed failed${failed_steps[*]+ (failed: ${failed_steps[*]})}"
[ "$failed" -eq 0 ]
