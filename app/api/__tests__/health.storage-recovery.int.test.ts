/**
 * `/api/health` when the SQLite file or its folder cannot be written (docs/decisions.md 164), through
 * the real route handlers (`app/api/health/route.ts`, the product API's) on a real file:
 * - the database folder not writable at start (SQLite cannot make the WAL's files): health answers a
 *   JSON `503 degraded` (never a 500 with an empty body), and `ok` once the folder is writable, with no
 *   restart;
 * - the database file read-only at start: writes answer `503 storage_read_only`, health `503
 *   read_only`; once the file is writable, writes work and health turns `ok` by itself (the process's
 *   connection, opened read-only, is reopened).
 *
 * Read-only is made with a read-only bind mount as root (file permissions do not stop root), or with
 * chmod otherwise. SQLite only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seed } from '../../../prisma/seed';
import { closeDb, createDb, getDb } from '../../../lib/db';
import { recordHeartbeat } from '../../../lib/schedules';
import { createTestDb, testDialect } from '../../../lib/testing/test-db';

const KEY = 'health-recovery-test-key-0123456789';
const isRoot = process.getuid?.() === 0;
const dir = mkdtempSync(path.join(os.tmpdir(), 'scheduler-ro-'));
const folderDb = path.join(dir, 'folder', 'scheduler.db');
const fileDb = path.join(dir, 'file', 'scheduler.db');
// The web process's configuration names the database in the read-only folder (read once, on the
// first `runtime()`; nothing in this file calls it before).
vi.stubEnv('DATABASE_URL', `file:${folderDb}`);

type HealthModule = { GET: () => Promise<Response> };
type RouteModule = { POST: (req: Request, ctx: { params: Promise<{ revisionId: string }> }) => Promise<Response> };

/** Make `target` (a file or a folder) read-only or writable again, for root too. */
function setReadOnly(target: string, readOnly: boolean): void {
  if (isRoot) {
    if (readOnly) execFileSync('mount', ['--bind', target, target]);
    execFileSync('mount', ['-o', `remount,${readOnly ? 'ro' : 'rw'},bind`, target]);
  } else {
    const isDir = target === path.dirname(folderDb);
    chmodSync(target, readOnly ? (isDir ? 0o555 : 0o444) : isDir ? 0o755 : 0o644);
  }
}

async function health(mod: HealthModule): Promise<{ status: number; body: Record<string, unknown>; type: string | null }> {
  const res = await mod.GET();
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, type: res.headers.get('content-type') };
}

let revisionId = '';

describe.skipIf(testDialect() !== 'sqlite')('health when the SQLite file or folder is read-only', () => {
  let healthRoute: HealthModule;
  beforeAll(async () => {
    // One migrated, seeded database with a live worker (one beat, alive for an hour), copied twice.
    const template = await createTestDb('sqlite');
    await seed(template.db, KEY, 'operator-password-1');
    revisionId = (await template.db.blob.findFirstOrThrow({ where: { alias: 'ops-scheduler' } })).defaultRevisionId!;
    await recordHeartbeat(template.db, { workerId: 'ro-test-worker', startedAt: new Date(), intervalMs: 3_600_000, now: new Date() });
    await template.db.$disconnect();
    for (const f of [folderDb, fileDb]) {
      execFileSync('mkdir', ['-p', path.dirname(f)]);
      copyFileSync(template.url.replace(/^file:/, ''), f);
    }
    await template.cleanup();
    healthRoute = (await import('../health/route')) as unknown as HealthModule;
  });
  afterAll(async () => {
    await closeDb();
    if (isRoot) for (const t of [path.dirname(folderDb), fileDb]) execFileSync('umount', ['-l', t], { stdio: 'ignore' });
    else chmodSync(path.dirname(folderDb), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a database folder that cannot be written: a JSON 503, then ok once it can (no restart)', async () => {
    await closeDb();
    setReadOnly(path.dirname(folderDb), true);
    const sick = await health(healthRoute);
    expect(sick.status).toBe(503);
    expect(sick.type).toMatch(/^application\/json/);
    expect(sick.body).toMatchObject({ status: 'degraded', database: 'unreachable', reason: 'the database is unreachable' });
    expect(JSON.stringify(sick.body)).not.toMatch(/SQLITE|unable to open/i);

    setReadOnly(path.dirname(folderDb), false);
    const healed = await health(healthRoute);
    expect(healed.body).toMatchObject({ status: 'ok', database: 'reachable', storage: 'ok' });
    expect(healed.status).toBe(200);
  });

  it('a database file read-only at start: 503 storage_read_only, then writes and health recover once it is writable', async () => {
    // Opened while the file is read-only: SQLite falls back to a read-only connection.
    setReadOnly(fileDb, true);
    await closeDb();
    const db = getDb({ databaseUrl: `file:${fileDb}`, databasePoolSize: 2 });
    const route = (await import('../v1/revisions/[revisionId]/data/route')) as unknown as RouteModule;
    const create = async (alias: string) => {
      const res = await route.POST(
        new Request(`http://127.0.0.1/api/v1/revisions/${revisionId}/data`, {
          method: 'POST',
          headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
          body: JSON.stringify({
            engine: 'scheduler_blobhub', command: 'create_schedule', alias, repeat: 'recurring_cron', cron_expression: '0 3 * * ? *', timezone: 'UTC', enabled: false,
            invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
          }),
        }),
        { params: Promise.resolve({ revisionId }) },
      );
      return { status: res.status, body: (await res.json()) as { error?: { code: string } } };
    };
    const refused = await create('read-only-0');
    expect(refused.status).toBe(503);
    expect(refused.body.error).toEqual({ code: 'storage_read_only', message: expect.stringMatching(/read-only/) });
    // Reads still answer.
    const list = await route.POST(
      new Request(`http://127.0.0.1/api/v1/revisions/${revisionId}/data`, { method: 'POST', headers: { 'x-api-key': KEY }, body: JSON.stringify({ engine: 'scheduler_blobhub', command: 'list_schedules' }) }),
      { params: Promise.resolve({ revisionId }) },
    );
    expect(list.status).toBe(200);
    expect((await health(healthRoute)).body).toMatchObject({ status: 'degraded', storage: 'read_only' });

    setReadOnly(fileDb, false);
    const healed = await health(healthRoute);
    expect(healed.body).toMatchObject({ status: 'ok', storage: 'ok' });
    expect(healed.status).toBe(200);
    expect((await create('read-only-1')).status).toBe(200);
    expect(await db.schedule.count({ where: { alias: { startsWith: 'read-only-' } } })).toBe(1);
    // Another process (the worker) opened the file writable meanwhile: both see one database.
    const other = createDb(`file:${fileDb}`);
    expect(await other.schedule.count({ where: { alias: 'read-only-1' } })).toBe(1);
    await other.$disconnect();
  });
});
