/**
 * Liveness and readiness (`GET /api/health/live`, `GET /api/health/ready`; docs/ops.md "Health
 * probes") on a real database of the dialect under test (`TEST_DATABASE`): lib/api's readinessReport
 * answered as the route answers it (probeResponse; the route's own client is the process's, checked
 * end to end in e2e/request-log.spec.ts), and the real liveness route:
 * - all good (migrated by the real migrator, a fresh heartbeat): 200 `ready`;
 * - no heartbeat: 503 naming `worker`;
 * - a migration the database has not applied (its row missing; one more migration folder than the
 *   database has): 503 naming `migrations` and the migration;
 * - a failed migration (SQLite: a `_prisma_migrations` row never finished) or a changed one
 *   (PostgreSQL: `_migrations` checksum differs): 503 naming `migrations`;
 * - a database that answers but was never migrated: 503 naming migrations (every one pending) and worker;
 *   `/api/health` calls it reachable and not migrated;
 * - an unreachable database: 503 naming all three; liveness still 200 and reads no database.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { healthReport, PROBE_TIMEOUT_MS, probeResponse, readinessReport } from '../../../lib/api';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { POSTGRES_MIGRATIONS_DIR, SQLITE_MIGRATIONS_DIR } from '../../../lib/db/migrate';
import { recordHeartbeat } from '../../../lib/schedules';
import { loadConfig } from '../../../lib/config';
import { createDb } from '../../../lib/db';
import { createTestDb, dropTestDatabase, testDialect, type TestDb } from '../../../lib/testing/test-db';
import pg from 'pg';

type Route = { GET: () => Response | Promise<Response> };

let t: TestDb;
let dir: string;
let live: Route;
/** What `GET /api/health/ready` answers, on the test database. */
const ready: Route = {
  GET: () => probeResponse('the readiness check', () => readinessReport(new Date(), t.db), (r) => r.status === 'ready', { status: 'not_ready', reason: 'x' }),
};
let lastMigration: string;

/** The migrations table of the dialect's migrator and its name column. */
const table = () => (t.dialect === 'postgresql' ? { name: '"_migrations"', column: 'name' } : { name: '_prisma_migrations', column: 'migration_name' });
const committedDir = () => (t.dialect === 'postgresql' ? POSTGRES_MIGRATIONS_DIR : SQLITE_MIGRATIONS_DIR);

async function answer(route: Route): Promise<{ status: number; body: Record<string, unknown>; type: string | null; cache: string | null }> {
  const res = await route.GET();
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, type: res.headers.get('content-type'), cache: res.headers.get('cache-control') };
}

beforeAll(async () => {
  t = await createTestDb();
  dir = mkdtempSync(path.join(os.tmpdir(), 'scheduler-ready-'));
  lastMigration = readdirSync(committedDir()).filter((n) => /^\d{4}_/.test(n)).sort().at(-1)!;
  live = (await import('../health/live/route')) as unknown as Route;
});
afterAll(async () => {
  await t?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.db.workerHeartbeat.deleteMany();
});

const beat = (now = new Date()) => recordHeartbeat(t.db, { workerId: 'ready-test-worker', startedAt: now, intervalMs: 5000, now });

describe(`readiness (${testDialect()})`, () => {
  it('all good: 200 ready, every check ok', async () => {
    await beat();
    const r = await answer(ready);
    expect(r).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: { status: 'ok' }, migrations: { status: 'ok' }, worker: { status: 'ok' } } },
      type: expect.stringMatching(/^application\/json/),
      cache: 'no-store',
    });
  });

  it('no heartbeat: 503 naming the worker check', async () => {
    const r = await answer(ready);
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'not_ready', failing: ['worker'], checks: { database: { status: 'ok' }, migrations: { status: 'ok' }, worker: { status: 'failing' } } });
    expect(r.body.reason).toBe('worker: no worker has ever reported a heartbeat; schedules do not fire until one runs (npm run worker; in a container: worker)');
  });

  it('a heartbeat gone stale (older than 3 × its interval): 503 naming the worker check', async () => {
    const now = new Date();
    await beat(new Date(now.getTime() - 15_001));
    const report = await readinessReport(now, t.db);
    expect(report.failing).toEqual(['worker']);
    expect(report.checks.worker.reason).toMatch(/^no worker is alive: one was last seen 15 s ago/);
  });

  it("a migration whose row is missing: 503 naming migrations and the migration; ready again once the row is back", async () => {
    await beat();
    const { name, column } = table();
    const rows = await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM ${name} WHERE ${column} = ${t.dialect === 'postgresql' ? '$1' : '?'}`, lastMigration);
    expect(rows).toHaveLength(1);
    await t.db.$executeRawUnsafe(`DELETE FROM ${name} WHERE ${column} = ${t.dialect === 'postgresql' ? '$1' : '?'}`, lastMigration);
    try {
      const r = await answer(ready);
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ status: 'not_ready', failing: ['migrations'], checks: { database: { status: 'ok' }, worker: { status: 'ok' } } });
      expect((r.body.checks as Record<string, { reason: string }>).migrations.reason).toBe(`1 pending (${lastMigration}): run the migrations (npm run db:migrate; in a container: migrate)`);
    } finally {
      const cols = Object.keys(rows[0]);
      const marks = cols.map((_, i) => (t.dialect === 'postgresql' ? `$${i + 1}` : '?')).join(', ');
      await t.db.$executeRawUnsafe(`INSERT INTO ${name} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${marks})`, ...cols.map((c) => rows[0][c]));
    }
    expect((await answer(ready)).status).toBe(200);
  });

  it('one more migration folder than the database has applied: 503 naming it as pending', async () => {
    await beat();
    const copy = path.join(dir, 'one-more');
    cpSync(committedDir(), copy, { recursive: true });
    mkdirSync(path.join(copy, '9999_future_column'));
    writeFileSync(path.join(copy, '9999_future_column', 'migration.sql'), 'SELECT 1;\n');
    // A folder without migration.sql is not a migration (both migrators skip it).
    mkdirSync(path.join(copy, '9998_notes_only'));
    const report = await readinessReport(new Date(), t.db, { migrationsDir: copy });
    expect(report).toMatchObject({ status: 'not_ready', failing: ['migrations'] });
    expect(report.checks.migrations).toEqual({ status: 'failing', reason: '1 pending (9999_future_column): run the migrations (npm run db:migrate; in a container: migrate)' });
    expect(report.reason).toBe('migrations: 1 pending (9999_future_column): run the migrations (npm run db:migrate; in a container: migrate)');
    // The committed folder itself: ready.
    expect((await readinessReport(new Date(), t.db)).status).toBe('ready');
  });

  it('a failed migration (SQLite: started, never finished) or a changed one (PostgreSQL: checksum differs): 503 naming it as failed', async () => {
    await beat();
    const copy = path.join(dir, 'failed');
    cpSync(committedDir(), copy, { recursive: true });
    if (t.dialect === 'postgresql') {
      writeFileSync(path.join(copy, lastMigration, 'migration.sql'), '-- edited after it was applied\nSELECT 1;\n');
    } else {
      mkdirSync(path.join(copy, '9999_half_done'));
      writeFileSync(path.join(copy, '9999_half_done', 'migration.sql'), 'SELECT 1;\n');
      await t.db.$executeRawUnsafe(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ('half-done-row', 'x', '9999_half_done', 1, 0)`,
      );
    }
    try {
      const failed = t.dialect === 'postgresql' ? lastMigration : '9999_half_done';
      const report = await readinessReport(new Date(), t.db, { migrationsDir: copy });
      expect(report.failing).toEqual(['migrations']);
      expect(report.checks.migrations.reason).toBe(`1 failed or changed after it was applied (${failed}): see docs/ops.md "Changing the schema"`);
    } finally {
      if (t.dialect === 'sqlite') await t.db.$executeRawUnsafe(`DELETE FROM _prisma_migrations WHERE id = 'half-done-row'`);
    }
  });

  it('a database that answers but was never migrated: 503 naming migrations (all pending) and worker, not the database; /api/health says not migrated', async () => {
    let url = `file:${path.join(dir, 'empty.db')}`;
    const admin = loadConfig().testPostgresUrl;
    const name = `scheduler_test_empty_${Date.now()}`;
    if (t.dialect === 'postgresql') {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`CREATE DATABASE "${name}"`);
      await c.end();
      const u = new URL(admin);
      u.pathname = `/${name}`;
      url = u.toString();
    }
    const empty = createDb(url);
    try {
      const total = readdirSync(committedDir()).filter((n) => /^\d{4}_/.test(n)).length;
      const report = await readinessReport(new Date(), empty);
      expect(report.failing).toEqual(['migrations', 'worker']);
      expect(report.checks.database).toEqual({ status: 'ok' });
      // The first two names, how many between, the last: one readable line (not every migration's name).
      expect(report.checks.migrations.reason).toMatch(new RegExp(`^${total} pending \\(0001_init, 0002_[a-z_]+, … \\(${total - 3} more\\), ${lastMigration}\\): run the migrations \\(npm run db:migrate; in a container: migrate\\)$`));
      expect(report.checks.worker).toEqual({ status: 'failing', reason: 'not checked: the database is not migrated' });
      // GET /api/health says the same: reachable, not migrated (not "unreachable").
      const health = await healthReport(new Date(), empty);
      expect(health).toMatchObject({ status: 'degraded', database: 'reachable', workers_alive: 0, storage: 'unknown', alerts: 'unknown' });
      expect(health.reason).toBe(`the database is not fully migrated: ${report.checks.migrations.reason}`);
    } finally {
      await empty.$disconnect();
      if (t.dialect === 'postgresql') await dropTestDatabase(admin, name);
    }
  });

  it('an unreachable database: 503 naming all three checks (no driver text); liveness still 200', async () => {
    const report = await readinessReport(new Date(), () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:1');
    });
    expect(report).toEqual({
      status: 'not_ready',
      checks: {
        database: { status: 'failing', reason: 'the database is unreachable' },
        migrations: { status: 'failing', reason: 'not checked: the database is unreachable' },
        worker: { status: 'failing', reason: 'not checked: the database is unreachable' },
      },
      failing: ['database', 'migrations', 'worker'],
      reason: 'database: the database is unreachable; migrations: not checked: the database is unreachable; worker: not checked: the database is unreachable',
    });
    const l = await answer(live);
    expect(l.status).toBe(200);
    expect(l.body).toEqual({ status: 'ok', uptime_seconds: expect.any(Number) });
    expect(l.cache).toBe('no-store');
  });

  it('a database that accepts connections but never answers: not ready within the probe timeout, not hanging', async () => {
    // A real TCP listener that takes the connection and says nothing (a hung server, a black-holing proxy).
    const held: Socket[] = [];
    const silent = createServer((sock) => void held.push(sock));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    const db = createDb(`postgresql://scheduler:secret@127.0.0.1:${port}/scheduler`);
    try {
      const began = Date.now();
      const report = await readinessReport(new Date(), db);
      const took = Date.now() - began;
      expect(report.status).toBe('not_ready');
      expect(report.failing).toEqual(['database', 'migrations', 'worker']);
      expect(report.checks.database).toEqual({ status: 'failing', reason: 'the database is unreachable' });
      expect(took).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(PROBE_TIMEOUT_MS + 3_000);
    } finally {
      for (const s of held) s.destroy();
      silent.close();
      await db.$disconnect().catch(() => undefined);
    }
  }, 20_000);
});
