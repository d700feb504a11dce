#!/usr/bin/env bash
# `npm test`: every test CI runs — typecheck, unit, integration (real SQLite), end-to-end (Playwright,
# real web app + worker). Prints the plain "N passed, N failed" closing line.
set -uo pipefail
cd "$(dirname "$0")/.."

npx prisma generate >/dev/null
failed=0
passed=0
step() {
  local name="$1"; shift
  echo
  echo "=== $name: $*"
  if "$@"; then passed=$((passed + 1)); else echo "=== $name FAILED"; failed=$((failed + 1)); fi
}

step typecheck npx tsc --noEmit
step unit npx vitest run --project unit
step integration npx vitest run --project integration
step e2e npx playwright test

echo
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
