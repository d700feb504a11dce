/**
 * Health probes and structured logs with the real web server (scripts/web-server.ts on the production
 * build) and, for the main server, `npm start`'s real worker (docs/ops.md "Health probes", "Logs"):
 * - `/api/health/live` and `/api/health/ready` answer JSON without a session; with the worker running
 *   the main server is ready;
 * - a web server on its own port (E2E_PORT + 5) whose database is unreachable: live still 200,
 *   ready 503 naming the database; every answer carries `X-Request-Id` (the client's sane one echoed,
 *   a new UUID otherwise); stdout has one access line per API request with the same id, the path
 *   without its query string (a check-in token in the path masked), and nothing of the query or the
 *   Authorization header; the route's
 *   error line carries the request's id; pages get no access line at `info`;
 * - web and worker lines of `npm start` have the same fixed fields (time, level, msg, service).
 */
import { expect, request as newRequest, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_PORT, SERVER_LOG } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = E2E_PORT + 5;
const BASE = `http://127.0.0.1:${PORT}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test.use({ storageState: { cookies: [], origins: [] } });

type Line = Record<string, unknown>;
/** The JSON lines of `text` (other lines, e.g. Next.js's own, are skipped). */
function jsonLines(text: string): Line[] {
  return text.split('\n').flatMap((l) => {
    if (!l.startsWith('{')) return [];
    try {
      return [JSON.parse(l) as Line];
    } catch {
      return [];
    }
  });
}

test('the main server (web + worker): live and ready answer 200 JSON without a session; web and worker write the same fixed fields', async ({ request }) => {
  const live = await request.get('/api/health/live', { maxRedirects: 0 });
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok', uptime_seconds: expect.any(Number) });
  await expect.poll(async () => (await request.get('/api/health/ready', { maxRedirects: 0 })).status(), { timeout: 30_000 }).toBe(200);
  const ready = await request.get('/api/health/ready', { maxRedirects: 0 });
  expect(await ready.json()).toEqual({ status: 'ready', checks: { database: { status: 'ok' }, migrations: { status: 'ok' }, worker: { status: 'ok' } } });
  const id = ready.headers()['x-request-id'];
  expect(id).toMatch(UUID);

  let lines: Line[] = [];
  await expect.poll(() => (lines = jsonLines(readFileSync(path.join(ROOT, SERVER_LOG), 'utf8'))).some((l) => l.requestId === id && l.msg === 'request'), { timeout: 10_000 }).toBe(true);
  const web = lines.find((l) => l.requestId === id && l.msg === 'request')!;
  const worker = lines.find((l) => l.service === 'worker' && l.msg === 'worker started')!;
  expect(worker, 'a worker line in the npm start output').toBeDefined();
  for (const l of [web, worker]) {
    expect(Object.keys(l).slice(0, 4)).toEqual(['time', 'level', 'msg', 'service']);
    expect(l.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(l.level).toBe('info');
  }
  expect(web).toMatchObject({ service: 'web', method: 'GET', path: '/api/health/ready', status: 200 });
  expect(typeof worker.workerId).toBe('string');
});

test.describe('a web server alone, its database unreachable', () => {
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';

  test.beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/web-server.ts'], {
      cwd: ROOT,
      // A PostgreSQL server that is not there (nothing listens on loopback port 1): unreachable.
      env: { ...process.env, PORT: String(PORT), HOSTNAME: '127.0.0.1', DATABASE_URL: 'postgresql://scheduler:scheduler@127.0.0.1:1/scheduler', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    await expect.poll(() => jsonLines(stdout).some((l) => String(l.msg).startsWith('web: listening on')), { timeout: 120_000, message: `web server up: ${stdout}${stderr}` }).toBe(true);
  });
  test.afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });

  test('X-Request-Id echoed or generated; one access line per API request with that id and no query string; the error line carries it', async () => {
    const api = await newRequest.newContext({ baseURL: BASE });
    try {
      // 1. A sane client id is echoed; the query string and the Authorization header hold "secrets".
      const live = await api.get('/api/health/live?token=query-secret-1&x=2', { headers: { 'x-request-id': 'client-req.1_A', authorization: 'Bearer auth-secret-2' }, maxRedirects: 0 });
      expect(live.status()).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok', uptime_seconds: expect.any(Number) });
      expect(live.headers()['x-request-id']).toBe('client-req.1_A');

      // 2. No id, or one that is not sane: a new UUID each time.
      const fresh = await api.get('/api/health/live');
      const generated = fresh.headers()['x-request-id'];
      expect(generated).toMatch(UUID);
      const unsafe = await api.get('/api/health/live', { headers: { 'x-request-id': 'two words{"level":"error"}' } });
      expect(unsafe.headers()['x-request-id']).toMatch(UUID);
      expect(unsafe.headers()['x-request-id']).not.toBe(generated);

      // 3. Ready: 503 naming each failing check; the route's error line carries the request's id.
      const ready = await api.get('/api/health/ready?probe=1', { headers: { 'x-request-id': 'ready-probe-7' } });
      expect(ready.status()).toBe(503);
      expect(ready.headers()['x-request-id']).toBe('ready-probe-7');
      expect(await ready.json()).toMatchObject({ status: 'not_ready', failing: ['database', 'migrations', 'worker'], checks: { database: { status: 'failing', reason: 'the database is unreachable' } } });

      // 4. A page: no access line at info.
      await api.get('/login', { headers: { 'x-request-id': 'page-req-9' } });
      // 5. A check-in token is a path segment: masked in the access line.
      await api.post('/api/v1/checkins/checkin-token-secret-3/fail', { headers: { 'x-request-id': 'checkin-req-4' } });

      let lines: Line[] = [];
      await expect
        .poll(() => (lines = jsonLines(stdout)).filter((l) => l.msg === 'request').length, { timeout: 10_000, message: stdout })
        .toBeGreaterThanOrEqual(5);
      const access = (id: string) => lines.filter((l) => l.msg === 'request' && l.requestId === id);
      expect(access('client-req.1_A')).toEqual([
        { time: expect.any(String), level: 'info', msg: 'request', service: 'web', requestId: 'client-req.1_A', method: 'GET', path: '/api/health/live', status: 200, durationMs: expect.any(Number) },
      ]);
      expect(access(generated)).toHaveLength(1);
      expect(access(generated)[0]).toMatchObject({ path: '/api/health/live', status: 200 });
      expect(access('ready-probe-7')).toEqual([expect.objectContaining({ level: 'info', path: '/api/health/ready', status: 503, service: 'web' })]);
      expect(access('page-req-9'), 'pages are logged at debug only').toEqual([]);
      expect(access('checkin-req-4')).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/checkins/••••/fail' })]);
      const error = lines.find((l) => l.msg === 'health: database unreachable');
      expect(error).toMatchObject({ level: 'error', service: 'web', requestId: 'ready-probe-7' });

      // Never the query string, the Authorization header or an unchecked id.
      const all = stdout + stderr;
      for (const secret of ['query-secret-1', 'auth-secret-2', 'checkin-token-secret-3', 'probe=1', 'two words']) expect(all).not.toContain(secret);
      expect(lines.filter((l) => l.msg === 'request').every((l) => typeof l.path === 'string' && !String(l.path).includes('?'))).toBe(true);
    } finally {
      await api.dispose();
    }
  });
});
