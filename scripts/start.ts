/**
 * `npm start`: apply migrations, seed, build if the sources changed, then run the web app and the
 * worker together (production mode). `--dev` runs `next dev` instead; `--web-only` runs no worker.
 * `--wait-for-build` waits for a build another process is making instead of building.
 * If either process exits, the other is stopped and `npm start` exits with its code.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../lib/config';

const args = new Set(process.argv.slice(2));
const dev = args.has('--dev');
const webOnly = args.has('--web-only');
// Another process builds (e.g. a second server in the test suite): wait for its build instead.
const waitForBuild = args.has('--wait-for-build');
const config = loadConfig();
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

/** A fingerprint of everything `next build` reads, so an unchanged tree is not rebuilt. */
function sourceHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!['__tests__', 'generated'].includes(e.name)) walk(p);
      } else h.update(`${p}:${statSync(p).size}:${statSync(p).mtimeMs}\n`);
    }
  };
  for (const d of ['app', 'components', 'lib']) walk(path.join(root, d));
  for (const f of ['next.config.ts', 'middleware.ts', 'package-lock.json', 'tsconfig.json']) {
    const p = path.join(root, f);
    if (existsSync(p)) h.update(readFileSync(p));
  }
  return h.digest('hex');
}

mkdirSync(path.join(root, 'data'), { recursive: true });
// Both dialects' clients are generated at install; regenerate if either is missing.
if (!['sqlite', 'postgresql'].every((d) => existsSync(path.join(root, `lib/db/generated/${d}/client.ts`)))) run(bin('tsx'), ['scripts/generate.ts']);
run(bin('tsx'), ['scripts/migrate.ts']);
run(bin('tsx'), ['prisma/seed.ts']);

if (!dev) {
  const stamp = path.join(root, '.next', 'source-hash');
  const hash = sourceHash();
  const built = () => existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash;
  if (waitForBuild) {
    const deadline = Date.now() + 15 * 60_000;
    while (!built()) {
      if (Date.now() > deadline) {
        console.error('start: no build appeared within 15 minutes');
        process.exit(1);
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  } else if (!existsSync(path.join(root, '.next', 'BUILD_ID')) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== hash) {
    console.log('start: building the web app (first start or sources changed)…');
    run(bin('next'), ['build']);
    writeFileSync(stamp, hash);
  }
}

const children: ChildProcess[] = [];
let exiting = false;
function shutdown(code: number) {
  if (exiting) return;
  exiting = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10_000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code));
}
function start(name: string, cmd: string, argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(cmd, argv, { cwd: root, stdio: 'inherit', env });
  child.on('exit', (code, signal) => {
    if (!exiting) console.error(`start: ${name} exited (${signal ?? code}); stopping the rest`);
    shutdown(code ?? 1);
  });
  children.push(child);
}

const host = config.hostname;
// Next.js behind the request guard (forwarded headers, server-action and body limits, HSTS).
start('web', process.execPath, ['--import', 'tsx', 'scripts/web-server.ts', ...(dev ? ['--dev'] : [])], {
  ...process.env,
  NODE_ENV: dev ? 'development' : 'production',
});
if (!webOnly) start('worker', process.execPath, ['--import', 'tsx', 'worker/main.ts']);
console.log(`start: web on http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${config.port}${webOnly ? '' : ' with the worker'}`);
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => shutdown(0));
