#!/usr/bin/env bash
# Install (if missing), start, and prepare a local PostgreSQL for the test suite and the benchmark:
# Debian's `postgresql` package (PostgreSQL 15 on bookworm), cluster `main` on 127.0.0.1:5432, and a
# role `scheduler` / password `scheduler` that may CREATE DATABASE (each test file gets its own
# database; see lib/testing/test-db.ts), plus a database `scheduler` for trying PostgreSQL mode:
#
#   DATABASE_URL=postgresql://scheduler:scheduler@127.0.0.1:5432/scheduler npm start
#
# Idempotent. Needs root (CI and the dev machines run as root); prints what it did.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "postgres-local: installing Debian postgresql"
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi

version="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main"; then
  echo "postgres-local: creating cluster $version/main"
  pg_createcluster "$version" main >/dev/null
fi
if ! pg_lsclusters -h | awk '$1=="'"$version"'" && $2=="main" {print $4}' | grep -qx online; then
  echo "postgres-local: starting cluster $version/main"
  # A cluster that was not shut down cleanly replays its WAL first, which can take minutes on a
  # busy machine; pg_ctl's default 60 s wait is too short for that, so wait up to 10 minutes.
  pg_ctlcluster "$version" main start -- -t 600
fi

ready=""
for _ in $(seq 1 600); do
  if su postgres -c "psql -qtAc 'SELECT 1'" >/dev/null 2>&1; then ready=1; break; fi
  sleep 1
done
if [ -z "$ready" ]; then
  echo "postgres-local: PostgreSQL did not accept connections within 10 minutes" >&2
  exit 1
fi

su postgres -c "psql -qv ON_ERROR_STOP=1" <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'scheduler') THEN
    CREATE ROLE scheduler LOGIN PASSWORD 'scheduler' CREATEDB;
  END IF;
END
$$;
SQL
if [ "$(su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = 'scheduler'\"")" != "1" ]; then
  su postgres -c "psql -qc 'CREATE DATABASE scheduler OWNER scheduler'"
fi
echo "postgres-local: PostgreSQL $version ready on 127.0.0.1:5432 (role scheduler, database scheduler)"
