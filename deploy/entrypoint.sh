#!/bin/sh
# The image's entry point (Dockerfile). The first argument chooses what the container runs:
#   all      apply migrations, seed the demo org (idempotent), then the web app and one worker under
#            scripts/supervisor.ts (the worker is restarted with back-off if it exits) — one container
#            on SQLite; the web app was built into the image, so nothing is built at start
#   web      the web app alone (scripts/web-server.ts): run `migrate` first
#   worker   one worker (worker/main.ts); start as many as you like against one PostgreSQL database
#   migrate  apply pending migrations to DATABASE_URL, seed (idempotent), exit
#   healthcheck  the HEALTHCHECK: GET /api/health/live of this container's web app when it runs one
#            (`web`, `all`: found among the container's processes); 0 for any other role while it runs
# Anything else is run as a command (`docker run … scheduler node cli/bin.mjs --help`).
set -e
cd /app
cmd="${1:-all}"
[ "$#" -gt 0 ] && shift

# Run a command as a child, passing SIGTERM/SIGINT on to it (this shell may be PID 1, which has no
# default signal handling), and return its exit code once it has really exited.
run_forwarding() {
  "$@" &
  child=$!
  trap 'kill -TERM "$child" 2>/dev/null' TERM INT
  while :; do
    code=0
    wait "$child" || code=$?
    kill -0 "$child" 2>/dev/null || break
  done
  trap - TERM INT
  return "$code"
}

# Whether one of this container's processes is the web app (`web` or `all`).
runs_web_app() {
  for f in /proc/[0-9]*/cmdline; do
    case "$(tr '\000' ' ' <"$f" 2>/dev/null)" in
      *scripts/web-server.ts*|*scripts/start.ts*) return 0 ;;
    esac
  done
  return 1
}

case "$cmd" in
  all)
    exec node --import tsx scripts/start.ts --prebuilt "$@" ;;
  web)
    exec node --import tsx scripts/web-server.ts "$@" ;;
  worker)
    # The worker's node flags: worker/launch.ts (WORKER_NODE_ARGS).
    exec node --max-semi-space-size=64 --import tsx worker/main.ts "$@" ;;
  migrate)
    run_forwarding node --import tsx scripts/migrate.ts || exit $?
    exec node --import tsx prisma/seed.ts ;;
  healthcheck)
    runs_web_app || exit 0
    exec node -e '
      const h = process.env.HOSTNAME || "";
      const host = ["0.0.0.0", "::", ""].includes(h) ? "127.0.0.1" : h.includes(":") ? `[${h}]` : h;
      fetch(`http://${host}:${process.env.PORT || 3000}/api/health/live`, { signal: AbortSignal.timeout(4000) })
        .then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));' ;;
  *)
    exec "$cmd" "$@" ;;
esac
