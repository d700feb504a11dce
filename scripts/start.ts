/**
 * `npm start`: apply migrations, seed, build if the sources changed, then run the web app and the
 * worker together (production mode). `--dev` runs `next dev` instead; `--web-only` runs no worker.
 * `--wait-for-build` waits for a build another process is making instead of building.
 * `--prebuilt` never builds: the web app was built before (the container image, Dockerfile); no build
 * is an error.
 * A worker that exits is started again with back-off (1 s, doubling while it keeps failing, at most
 * 60 s) while the web app keeps serving, and `npm start` says so; if the web app exits, the worker is
 * stopped and `npm start` exits with its code. Ctrl-C (SIGINT) and SIGTERM stop both
 * (scripts/supervisor.ts).
 *
 * It says what it does at each step, with how long it took (a first start builds the web app: a few
 * minutes), prints progress while the build runs, and ends with where the web app answers and where
 * the credentials generated at first start are kept (scripts/credentials-file.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { loadConfigOrExit } from '../lib/config';
import { credentialsFilePath } from './credentials-file';
import { Supervisor } from './supervisor';
import { buildIsCurrent, sourceHash, stampBuild } from './web-build';
import { workerArgv } from '../worker/launch';

const args = new Set(process.argv.slice(2));
const dev = args.has('--dev');
const webOnly = args.has('--web-only');
// Another process builds (e.g. a second server in the test suite): wait for its build instead.
const waitForBuild = args.has('--wait-for-build');
// The image's `all` command (deploy/entrypoint.sh): the build is part of the image, never redone at start.
const prebuilt = args.has('--prebuilt');
// SPEC §13.5: the demo's seeded org delivers with the worker's own AWS credentials unless the
// operator says otherwise (set the variable, empty for none: docs/ops.md).
process.env.SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS ??= 'acme-corp';
// A configuration error: one plain line, exit 1 (decision 399).
const config = loadConfigOrExit((problems) => console.error(`start: invalid configuration: ${problems.join('; ')}`));
const root = path.resolve(import.meta.dirname, '..');
// A self-hosted product sends nothing home: Next.js telemetry is off unless the operator turns it on.
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

function run(cmd: string, argv: string[]): void {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    console.error(`start: "${path.basename(cmd)} ${argv.join(' ')}" failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
}

/**
 * Whether `port` on `host` can be listened on now: false when another process holds it (EADDRINUSE).
 * Any other failure (no such address, no permission) is left to the web app, which names it.
 */
function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => resolve(e.code !== 'EADDRINUSE'));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

// Before minutes of migrations and build: a port another server holds would only fail at the end,
// after this process had already polled that other server's /login and called it ready.
if (!(await portIsFree(config.port, config.hostname))) {
  console.error(`start: port ${config.port} on ${config.hostname} is in use by another process: stop it, or set PORT to a free port`);
  process.exit(1);
}

const startedAt = Date.now();
const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;
const STEPS = dev ? 3 : 4;
let stepNo = 0;
/** Print a numbered step ("start: [2/4] seed …") and return when it began. */
function step(text: string): number {
  stepNo += 1;
  console.log(`start: [${stepNo}/${STEPS}] ${text}`);
  return Date.now();
}

/**
 * Run a long command (the build), printing how long it has been running every `everyMs`, so a first
 * start never sits silent for minutes.
 */
async function runWithProgress(cmd: string, argv: string[], what: string, everyMs = 20_000): Promise<void> {
  const began = Date.now();
  const ticker = setInterval(() => console.log(`start: … still ${what} (${seconds(began)} so far)`), everyMs);
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('exit', (c) => resolve(c));
  });
  clearInterval(ticker);
  if (code !== 0) {
    console.error(`start: "${path.basename(cmd)} ${argv.join(' ')}" failed (exit ${code})`);
    process.exit(code ?? 1);
  }
}

// The data folder holds the database, its credentials file and the server key: owner only.
mkdirSync(path.join(root, 'data'), { recursive: true, mode: 0o700 });
// Both dialects' clients are generated at install; regenerate if either is missing.
if (!['sqlite', 'postgresql'].every((d) => existsSync(path.join(root, `lib/db/generated/${d}/client.ts`)))) run(bin('tsx'), ['scripts/generate.ts']);
const where = config.dialect === 'sqlite' ? config.databaseUrl.replace(/^file:/, '') : 'PostgreSQL (DATABASE_URL)';
let began = step(`database ${where}: applying migrations…`);
run(bin('tsx'), ['scripts/migrate.ts']);
console.log(`start:       done in ${seconds(began)}`);
began = step('seeding the demo org, scheduler and workflow blob (idempotent)…');
run(bin('tsx'), ['prisma/seed.ts']);
console.log(`start:       done in ${seconds(began)}`);

if (!dev) {
  const hash = sourceHash(root);
  const built = () => buildIsCurrent(root, hash);
  if (waitForBuild) {
    began = step('waiting for the web app build another process is making…');
    const deadline = Date.now() + 15 * 60_000;
    while (!built()) {
      if (Date.now() > deadline) {
        console.error('start: no build appeared within 15 minutes');
        process.exit(1);
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
    console.log(`start:       the build is there (${seconds(began)})`);
  } else if (prebuilt) {
    if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) {
      console.error('start: --prebuilt but there is no build (.next/BUILD_ID): run `next build` first');
      process.exit(1);
    }
    step('the web app was built beforehand (--prebuilt): no build');
  } else if (!built()) {
    began = step('building the web app (first start, or the sources changed): this takes a few minutes (about 2 to 5 on two cores)…');
    await runWithProgress(bin('next'), ['build'], 'building the web app');
    stampBuild(root, hash);
    console.log(`start:       built in ${seconds(began)}`);
  } else {
    step('the web app is built and up to date: no build needed');
  }
}

// The web app and the worker as children: a worker that dies is restarted with back-off while the
// web app keeps serving; the web app's exit stops everything (scripts/supervisor.ts).
// Ctrl-C waits for the worker's own graceful stop (WORKER_STOP_TIMEOUT_MS) before anything is killed.
const supervisor = new Supervisor({ cwd: root, stopTimeoutMs: config.worker.stopTimeoutMs + 5_000 });

const host = config.hostname;
const baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${config.port}`;
// SPEC §16.1: check-in URLs point at this web app unless the operator names its public address.
process.env.SCHEDULER_PUBLIC_URL ||= baseUrl;
step(`starting the web app${webOnly ? '' : ' and the worker'}…`);
// Next.js behind the request guard (forwarded headers, server-action and body limits, HSTS).
supervisor.start({
  name: 'web app',
  command: process.execPath,
  argv: ['--import', 'tsx', 'scripts/web-server.ts', ...(dev ? ['--dev'] : [])],
  env: { ...process.env, NODE_ENV: dev ? 'development' : 'production' },
});
if (!webOnly) supervisor.start({ name: 'worker', command: process.execPath, argv: workerArgv(), restart: true });
console.log(`start: web on ${baseUrl}${webOnly ? '' : ' with the worker (restarted with back-off if it exits)'}`);
// Ctrl-C and SIGTERM stop both, and cancel a pending worker restart.
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => void supervisor.stop(0));

// Once the web app answers: where to go, how to log in, and how long this start took.
void (async () => {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && !supervisor.isStopping) {
    const up = await fetch(`${baseUrl}/login`).then((r) => r.status < 500, () => false);
    if (up) {
      const file = credentialsFilePath(config.databaseUrl);
      console.log(`start: ready in ${seconds(startedAt)}: open ${baseUrl}`);
      console.log(
        existsSync(file)
          ? `start: the operator login and the org API key generated at first start are in ${file}`
          : config.demoPassword || config.bootstrapApiKey
            ? 'start: the login password and the org API key are the ones set in SCHEDULER_DEMO_PASSWORD / SCHEDULER_BOOTSTRAP_API_KEY'
            : `start: no generated credentials file (${file}) was found: they were shown once in the log of the first start`,
      );
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
})();
