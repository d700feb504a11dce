#!/usr/bin/env bash
# `npm test`: every test CI runs — typecheck, lint (ESLint with the folder table's import boundaries,
# eslint.config.mjs), unit, integration on real SQLite AND on a real local
# PostgreSQL (scripts/postgres-local.sh installs/starts it; TEST_DATABASE=postgresql switches
# lib/testing/test-db.ts), end-to-end (Playwright, real web app + worker). Prints the plain
# "N passed, N failed" closing line. SKIP_POSTGRES=1 leaves the PostgreSQL steps out (counted as failed).
set -uo pipefail
cd "$(dirname "$0")/.."

npx tsx scripts/generate.ts >/dev/null
failed=0
passed=0
step() {
  local name="$1"; shift
  echo
  echo "=== $name: $*"
  if "$@"; then passed=$((passed + 1)); else echo "=== $name FAILED"; failed=$((failed + 1)); fi
}

step typecheck npx tsc --noEmit
step lint npm run --silent lint
step unit npx vitest run --project unit
step schema-dialects npx tsx scripts/generate.ts --check
step integration-sqlite npx vitest run --project integration
if [ "${SKIP_POSTGRES:-}" = "1" ]; then
  echo; echo "=== integration-postgresql SKIPPED (SKIP_POSTGRES=1)"; failed=$((failed + 1))
else
  step postgresql-server bash scripts/postgres-local.sh
  step integration-postgresql env TEST_DATABASE=postgresql npx vitest run --project integration
fi
step e2e npx playwright test

echo
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
