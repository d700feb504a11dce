# The scheduler as one image (README "Run it as a service"): `web`, `worker`, `migrate` or `all`
# (migrate + seed, then web and worker under one supervisor: the one-container SQLite mode).
# Configuration is the environment only (README "Configuration"); data lives under the volume /data.
#
#   docker build -t scheduler .
#   docker run -p 3000:3000 -v scheduler-data:/data scheduler            # all, on SQLite
#
# BASE: any Debian bookworm image with Node 20 under /usr/local (the tests build on a local one).
ARG BASE=node:20-bookworm-slim

# --- deps: node_modules from the lockfile. better-sqlite3's install takes its prebuilt binary; where
# that cannot be downloaded it compiles from source, so the compilers are installed then (this stage
# only) and the native modules built again.
FROM ${BASE} AS deps
WORKDIR /app
ENV npm_config_nodedir=/usr/local NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
# The root postinstall (the Prisma clients) runs in the build stage, with the sources.
RUN npm ci --prefer-offline --no-audit --no-fund --ignore-scripts \
 && if ! npm rebuild better-sqlite3 esbuild @prisma/engines prisma @prisma/client; then \
      apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/* \
      && npm rebuild better-sqlite3 esbuild @prisma/engines prisma @prisma/client; \
    fi

# --- build: both Prisma clients, then the Next.js production build (compile only: the tree's types
# are checked by `npm test`, docs/decisions.md 379).
FROM deps AS build
COPY . .
RUN node_modules/.bin/tsx scripts/generate.ts \
 && NEXT_BUILD_SKIP_TYPECHECK=1 node_modules/.bin/next build \
 && rm -rf .next/cache

# --- runtime: no compilers, no npm cache, a non-root user. node_modules is the build's, dev
# dependencies included: tsx runs the TypeScript entry points and migrations (docs/decisions.md 375).
FROM ${BASE} AS runtime
WORKDIR /app
RUN groupadd --system --gid 10001 scheduler \
 && useradd --system --uid 10001 --gid scheduler --home-dir /app --no-create-home --shell /usr/sbin/nologin scheduler \
 && mkdir -p /data && chown scheduler:scheduler /data && chmod 0700 /data
COPY --from=build --chown=root:root /app /app
# The database, the generated credentials file and the server key all live in ./data: the volume.
# Next.js may write its runtime cache; nothing else under /app is writable by the service.
RUN rm -rf /app/data && ln -s /data /app/data \
 && mkdir -p /app/.next/cache && chown scheduler:scheduler /app/.next/cache
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/scheduler.db \
    SCHEDULER_SECRET_KEY_FILE=/data/scheduler-secret.key
USER scheduler
VOLUME ["/data"]
EXPOSE 3000
# Liveness of the web process (`web`, `all`); a `worker` container is healthy while it runs.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["/app/deploy/entrypoint.sh", "healthcheck"]
ENTRYPOINT ["/app/deploy/entrypoint.sh"]
CMD ["all"]
