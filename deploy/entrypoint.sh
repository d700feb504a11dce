#!/bin/sh
# The image's entry point (Dockerfile). The first argument chooses what the container runs:
#   all      apply migrations, seed the demo org (idempotent), then the web app and one worker under
#            scripts/supervisor.ts (the worker is restarted with back-off if it exits) — one container
#            on SQLite; the web app was built into the image, so nothing is built at start
#   web      the web app alone (scripts/web-server.ts): run `migrate` first
#   worker   one worker (worker/main.ts); start as many as you like against one PostgreSQL database
#   migrate  apply pending migrations to DATABASE_URL, seed (idempotent), exit
#   healthcheck  the HEALTHCHECK: GET /api/health/live of this container's web app (`web`, `all`);
#            0 for any other role while it runs
# Anything else is run as a command (`docker run … scheduler node cli/bin.mjs --help`).
set -e
cd /app
role_file=/tmp/scheduler-role
cmd="${1:-all}"
[ "$#" -gt 0 ] && shift
case "$cmd" in
  all)
    echo all >"$role_file"
    exec node --import tsx scripts/start.ts --prebuilt "$@" ;;
  web)
    echo web >"$role_file"
    exec node --import tsx scripts/web-server.ts "$@" ;;
  worker)
    echo worker >"$role_file"
    exec node --import tsx worker/main.ts "$@" ;;
  migrate)
    echo migrate >"$role_file"
    node --import tsx scripts/migrate.ts
    exec node --import tsx prisma/seed.ts ;;
  healthcheck)
    case "$(cat "$role_file" 2>/dev/null)" in
      web|all) ;;
      *) exit 0 ;;
    esac
    exec node -e '
      const h = process.env.HOSTNAME || "";
      const host = ["0.0.0.0", "::", ""].includes(h) ? "127.0.0.1" : h.includes(":") ? `[${h}]` : h;
      fetch(`http://${host}:${process.env.PORT || 3000}/api/health/live`, { signal: AbortSignal.timeout(4000) })
        .then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));' ;;
  *)
    exec "$cmd" "$@" ;;
esac
