/**
 * Storage faults under the real HTTP handler (issue "Security and fault hardening", acceptance 2): the
 * product API's route handler (`app/api/v1/revisions/[revisionId]/data/route.ts`) and `/api/health`
 * run in this process against a real SQLite file on a 3 MiB tmpfs. The disk is filled with files
 * until ENOSPC; then a failing write answers `503 storage_full` (never a hang, never a 500), reads keep
 * answering, health reports the condition without the driver's text, and once the filler is removed
 * writes succeed again without a restart. Before lib/db/client.ts released SQLite's transaction lock on
 * a failed write, the second write of this test hung forever.
 *
 * Needs root for `mount -t tmpfs` (CI runs as root). Where mounting is refused, the same fault is made
 * with SQLite's `PRAGMA max_page_count` (the same SQLITE_FULL on the same connection) and the test
 * says so in its output. SQLite only: the PostgreSQL case is `storage_read_only` below; a read-only
 * SQLite file is health.storage-recovery.int.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import { createTestDb, testDialect, type TestDb } from '../../../lib/testing/test-db';
import { closeDb, createDb, getDb, type Db } from '../../../lib/db';
import { recordHeartbeat } from '../../../lib/schedules';
import { CreateScheduleCommand, ListSchedulesCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { handleEventBridgeRequest } from '../../../lib/api';
import { loadConfig } from '../../../lib/config';
import { sdkRefusal } from '../../../lib/testing/sdk-refusal';
import { serveFetch, type FetchServer } from '../../../lib/testing/serve-fetch';

const KEY = 'storage-fault-test-key-0123456789';
const BOOT = { accessKeyId: 'AKIASTORAGEREADONLY1', secretAccessKey: 'storage-read-only-secret-0123456789' };

/**
 * Make the client on `databaseUrl` this process's client (lib/db `getDb`: the first call opens it, every
 * later one, the route handlers' `runtime()` included, gets the same), so the route handlers run
 * against this file's database without touching the environment. `closeDb()` in `afterAll` lets later
 * files open their own.
 */
async function useAsProcessDb(databaseUrl: string): Promise<Db> {
  await closeDb();
  return getDb({ databaseUrl, databasePoolSize: 2 });
}

type RouteModule = { POST: (req: Request, ctx: { params: Promise<{ revisionId: string }> }) => Promise<Response> };
type HealthModule = { GET: () => Promise<Response> };

/** Fail instead of hanging: a wedged transaction lock shows up as this timeout. */
function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (hung)`)), ms))]);
}

describe.skipIf(testDialect() !== 'sqlite')('SQLite on a full disk (real route handler, real file)', () => {
  let dir: string;
  let mounted = false;
  let route: RouteModule;
  let health: HealthModule;
  let revisionId: string;
  let db: Db;
  const fillers: string[] = [];

  async function call(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const req = new Request(`http://127.0.0.1/api/v1/revisions/${revisionId}/data`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ engine: 'scheduler_blobhub', ...body }),
    });
    const res = await within(20_000, route.POST(req, { params: Promise.resolve({ revisionId }) }), String(body.command));
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }
  const create = (i: number) =>
    call({
      command: 'create_schedule',
      alias: `disk-fill-${String(i).padStart(5, '0')}`,
      description: 'x'.repeat(250),
      repeat: 'recurring_cron',
      cron_expression: '0 3 * * ? *',
      timezone: 'UTC',
      enabled: false,
      invocation_target: {
        target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
        workflow: { definition: 'triage' },
        input_data: [{ alias: 'pad', value: 'p'.repeat(4000) }],
      },
    });
  const healthNow = async () => {
    const res = await within(20_000, health.GET(), 'health');
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'scheduler-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { stdio: 'pipe' });
      mounted = true;
    } catch (e) {
      console.warn(`storage-full test: cannot mount a tmpfs (${(e as Error).message.split('\n')[0]}); using PRAGMA max_page_count instead`);
    }
    // A migrated, seeded database copied onto the small disk.
    const template: TestDb = await createTestDb('sqlite');
    await seed(template.db, KEY, 'storage-fault-operator-password');
    revisionId = (await template.db.blob.findFirstOrThrow({ where: { alias: 'ops-scheduler' } })).defaultRevisionId!;
    await template.db.$disconnect();
    const file = path.join(dir, 'scheduler.db');
    copyFileSync(template.url.replace(/^file:/, ''), file);
    await template.cleanup();
    // The route handlers use the process's client.
    db = await useAsProcessDb(`file:${file}`);
    // A live worker (one beat, alive for an hour), so health's status follows the storage alone.
    await recordHeartbeat(db, { workerId: 'storage-test-worker', startedAt: new Date(), intervalMs: 3_600_000, now: new Date() });
    route = (await import('../v1/revisions/[revisionId]/data/route')) as unknown as RouteModule;
    health = (await import('../health/route')) as unknown as HealthModule;
  });

  afterAll(async () => {
    await closeDb();
    if (mounted) execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  function fillDisk(): void {
    if (!mounted) return;
    mkdirSync(path.join(dir, 'fill'), { recursive: true });
    for (let i = 0; ; i++) {
      const f = path.join(dir, 'fill', `f${i}`);
      try {
        writeFileSync(f, Buffer.alloc(16 * 1024, 1));
        fillers.push(f);
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
        rmSync(f, { force: true });
        return;
      }
    }
  }

  it('a failing write answers 503 storage_full, reads still answer, and writes work again once space is freed (no restart)', async () => {
    const seeded = await db.schedule.count({ where: { revisionId } });
    const first = await create(0);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect((await healthNow()).status).toBe(200);

    fillDisk();
    if (!mounted) {
      const pages = (await db.$queryRawUnsafe<{ page_count: bigint }[]>('PRAGMA page_count'))[0].page_count;
      await db.$executeRawUnsafe(`PRAGMA max_page_count = ${Number(pages)}`);
    }
    // Writes until the disk refuses one (the WAL may still have room for a few).
    const statuses: number[] = [];
    let refused: { status: number; json: Record<string, unknown> } | null = null;
    for (let i = 1; i <= 400 && !refused; i++) {
      const r = await create(i);
      statuses.push(r.status);
      if (r.status !== 200) refused = r;
    }
    expect(refused, `no write failed after ${statuses.length} creates`).not.toBeNull();
    expect(refused!.status).toBe(503);
    expect(refused!.json).toEqual({
      error: { code: 'storage_full', message: 'the database storage is full: nothing was written; reads still work, and writes work again once space is freed' },
    });
    const storedBefore = statuses.filter((s) => s === 200).length + 1;

    // Every later write answers at once with the same 503 (before the fix: hung forever).
    for (let i = 0; i < 5; i++) {
      const again = await create(10_000 + i);
      expect(again.status).toBe(503);
      expect((again.json.error as { code: string }).code).toBe('storage_full');
    }
    // Reads answer, and nothing half-written is visible.
    const list = await call({ command: 'list_schedules' });
    expect(list.status).toBe(200);
    const all = await db.schedule.count({ where: { revisionId } });
    expect(all).toBe(seeded + storedBefore);
    const get = await call({ command: 'get_schedule', schedule_id: 'disk-fill-00000' });
    expect(get.status).toBe(200);

    // Health reports the condition in its own words, not the driver's.
    const sick = await healthNow();
    expect(sick.status).toBe(503);
    expect(JSON.parse(sick.text)).toMatchObject({ status: 'degraded', database: 'reachable', storage: 'full' });
    expect(sick.text).not.toMatch(/disk is full|SQLITE|ENOSPC/i);

    // Free the space: the same process writes again, and health clears by itself.
    for (const f of fillers.splice(0)) rmSync(f);
    if (!mounted) await db.$executeRawUnsafe('PRAGMA max_page_count = 1073741823');
    const after = await create(20_000);
    expect(after.status, JSON.stringify(after.json)).toBe(200);
    const healed = await healthNow();
    expect(healed.status).toBe(200);
    expect(JSON.parse(healed.text)).toMatchObject({ status: 'ok', storage: 'ok' });
    expect(await db.schedule.count({ where: { revisionId } })).toBe(seeded + storedBefore + 1);
    console.log(`storage-full: ${mounted ? '3 MiB tmpfs' : 'PRAGMA max_page_count'}; ${storedBefore} writes fit, the next answered 503 storage_full; 5 more 503 at once; reads 200; write after freeing 200`);
  });
});

describe.skipIf(testDialect() !== 'postgresql')('PostgreSQL read-only (default_transaction_read_only)', () => {
  let t: TestDb;
  let route: RouteModule;
  let revisionId: string;
  let server: FetchServer;
  /** The EventBridge API's runtime: on the test's client until the database is read-only, then on the process's. */
  let ebDb: Db;
  const scheduler = () => new SchedulerClient({ endpoint: server.url, region: 'us-east-1', credentials: { accessKeyId: BOOT.accessKeyId, secretAccessKey: BOOT.secretAccessKey }, maxAttempts: 1 });
  beforeAll(async () => {
    t = await createTestDb('postgresql');
    await seed(t.db, KEY, 'storage-fault-operator-password', BOOT);
    revisionId = (await t.db.blob.findFirstOrThrow({ where: { alias: 'ops-scheduler' } })).defaultRevisionId!;
    ebDb = t.db;
    server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db: ebDb, limits: { ...loadConfig().limits }, homeRegion: 'us-east-1' } }));
    // The access key's first use (it gives the org its account id), then its stamp made old, so the
    // next request stamps it again: a write the read-only database refuses.
    await scheduler().send(new ListSchedulesCommand({}));
    await t.db.accessKey.updateMany({ where: { accessKeyId: BOOT.accessKeyId }, data: { lastUsedAt: new Date(Date.now() - 3_600_000) } });
    const dbName = new URL(t.url).pathname.slice(1);
    await t.db.$executeRawUnsafe(`ALTER DATABASE "${dbName}" SET default_transaction_read_only = on`);
    ebDb = await useAsProcessDb(t.url);
    route = (await import('../v1/revisions/[revisionId]/data/route')) as unknown as RouteModule;
  });
  afterAll(async () => {
    await server?.close();
    await closeDb();
    const dbName = new URL(t.url).pathname.slice(1);
    const admin = createDb(t.url);
    await admin.$executeRawUnsafe(`ALTER DATABASE "${dbName}" SET default_transaction_read_only = off`).catch(() => {});
    await admin.$disconnect();
    await t.cleanup();
  });

  it('a write answers 503 storage_read_only and reads still answer', async () => {
    const post = (body: Record<string, unknown>) =>
      route.POST(
        new Request(`http://127.0.0.1/api/v1/revisions/${revisionId}/data`, { method: 'POST', headers: { 'x-api-key': KEY }, body: JSON.stringify({ engine: 'scheduler_blobhub', ...body }) }),
        { params: Promise.resolve({ revisionId }) },
      );
    const w = await post({
      command: 'create_schedule', repeat: 'recurring_cron', cron_expression: '0 3 * * ? *', timezone: 'UTC', enabled: false,
      invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
    });
    expect(w.status).toBe(503);
    expect(((await w.json()) as { error: { code: string } }).error.code).toBe('storage_read_only');
    expect((await post({ command: 'list_schedules' })).status).toBe(200);
  });

  it('the EventBridge API: a read still answers (the key stamp it cannot write is lost); a write is InternalServerException with the sentence', async () => {
    const listed = await scheduler().send(new ListSchedulesCommand({}));
    expect(listed.Schedules?.map((s) => s.Name)).toEqual(['nightly-triage']);
    const refused = await sdkRefusal(
      scheduler().send(
        new CreateScheduleCommand({
          Name: 'read-only',
          ScheduleExpression: 'rate(5 minutes)',
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: { Arn: 'arn:aws:sqs:us-east-1:123456789012:q', RoleArn: 'arn:aws:iam::123456789012:role/scheduler' },
        }),
      ),
    );
    expect(refused).toEqual({
      name: 'InternalServerException',
      status: 500,
      message: 'the database is read-only: nothing was written; reads still work, and writes work again once it is writable',
    });
  });
});
