/**
 * `scheduler backfill` (SPEC §18.1, docs/cli.md) against the real product API served in-process on a
 * test database: the dry run prints the count and the first instants and writes nothing; a backfill
 * prints progress lines until it completes (a worker's fires run beside it), exit 0; `--no-wait`
 * returns after the first line; a range past now is refused with the API's code, exit 1.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seed } from '../../prisma/seed';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { workerEngine } from '../../lib/testing/fire-and-deliver';
import { serveProductApi } from '../../lib/testing/product-api';
import type { FetchServer } from '../../lib/testing/serve-fetch';
import { createTestDb, type TestDb } from '../../lib/testing/test-db';
import { ApiClient } from '../client';
import { backfill } from '../commands/backfill';
import type { ConnectionFlags } from '../connection';
import { EXIT } from '../io';

const KEY = 'cli-backfill-api-key-0123456789';
const MINUTE = 60_000;
const LIMITS = { ...TEST_LIMITS, executionsPerSessionPerMinute: 100_000 };

let t: TestDb;
let server: FetchServer;
let flags: ConnectionFlags;

beforeAll(async () => {
  t = await createTestDb();
  await seed(t.db, KEY, 'cli-backfill-operator-password');
  server = await serveProductApi({ db: t.db, limits: LIMITS });
  flags = { url: server.url, apiKey: KEY, scheduler: 'acme-corp/ops-scheduler' };
  const client = new ApiClient({ url: server.url, apiKey: KEY });
  const { revisionId } = await (async () => {
    const res = await fetch(`${server.url}/api/v1/orgs/acme-corp/blobs/ops-scheduler`, { headers: { 'x-api-key': KEY } });
    return { revisionId: ((await res.json()) as { default_revision_id: string }).default_revision_id };
  })();
  await client.command(revisionId, 'scheduler_blobhub', 'create_schedule', {
    alias: 'cli-backfilled',
    repeat: 'recurring_cron',
    cron_expression: '* * * * ? *',
    timezone: 'UTC',
    invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
  });
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

const to = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE);
const range = { from: new Date(to.getTime() - 30 * MINUTE).toISOString(), to: to.toISOString() };

it('--dry-run prints the count and the first 20 instants and writes nothing', async () => {
  const c = capture();
  const code = await backfill({ file: 'none.yaml', flags, io: c.io, schedule: 'cli-backfilled', ...range, dryRun: true, wait: true });
  expect(code, c.err.join('\n')).toBe(EXIT.ok);
  expect(c.out[0]).toMatch(/^30 occurrences would fire \(dry run: nothing written\); the first 20:$/);
  expect(c.out).toHaveLength(21);
  expect(c.out[1].trim()).toBe(new Date(Date.parse(range.from) + MINUTE).toISOString());
  expect(await t.db.backfill.count()).toBe(0);
});

it('follows the backfill with progress lines until it completes', async () => {
  const c = capture();
  // A worker's backfill fires, beside the command.
  let done = false;
  const worker = (async () => {
    while (!done) {
      await workerEngine.fireBackfills({ db: t.db, now: new Date(), limit: 7, limits: LIMITS });
      await new Promise((r) => setTimeout(r, 30));
    }
  })();
  const code = await backfill({ file: 'none.yaml', flags, io: c.io, schedule: 'cli-backfilled', ...range, maxConcurrency: 7, wait: true, pollMs: 20 });
  done = true;
  await worker;
  expect(code, c.err.join('\n')).toBe(EXIT.ok);
  expect(c.out[0]).toMatch(/^backfill [0-9a-f-]{36} running 0%: 0\/30 fired/);
  expect(c.out.at(-1)).toMatch(/^backfill [0-9a-f-]{36} completed 100%: 30\/30 fired · 30 succeeded · 0 failed · 0 in flight$/);
  expect(c.out.length).toBeGreaterThan(2);
  expect(await t.db.run.count({ where: { trigger: { startsWith: 'backfill:' } } })).toBe(30);
});

it('--no-wait returns after the first line; a range past now is refused (exit 1)', async () => {
  const c = capture();
  const code = await backfill({ file: 'none.yaml', flags, io: c.io, schedule: 'cli-backfilled', ...range, reprocess: 'all', wait: false });
  expect(code).toBe(EXIT.ok);
  expect(c.out).toHaveLength(1);
  expect(c.out[0]).toMatch(/running 0%: 0\/30 fired/);
  const bad = capture();
  expect(await backfill({ file: 'none.yaml', flags, io: bad.io, schedule: 'cli-backfilled', from: range.from, to: new Date(Date.now() + 3_600_000).toISOString(), wait: false })).toBe(EXIT.error);
  expect(bad.err.join('\n')).toContain('invalid_backfill_range');
});
