/**
 * docs/decisions.md 396: three `migrate` runs started together on a fresh database each run the seed
 * (deploy/entrypoint.sh, scheduler-migrate.service); the seeds, as three real processes
 * (`tsx prisma/seed.ts`), all succeed and leave one org, one operator, one scheduler.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../../lib/config';
import { createTestDb, type TestDb } from '../../lib/testing/test-db';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('three seeds at once on a fresh database', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  }, 120_000);
  afterAll(() => t?.cleanup());

  it('all succeed; one org acme-corp, one operator, one scheduler', async () => {
    const env = childEnv({
      DATABASE_URL: t.url,
      SCHEDULER_DEMO_PASSWORD: 'correct horse battery staple',
      SCHEDULER_BOOTSTRAP_API_KEY: 'sk_0123456789ab_concurrentseedtestkeyconcurrentseed',
    });
    const run = () =>
      promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['prisma/seed.ts'], { cwd: ROOT, env }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
    const results = await Promise.all([run(), run(), run()]);
    expect(results).toEqual([0, 1, 2].map(() => ({ code: 0, stderr: '' })));
    expect(await t.db.org.count({ where: { alias: 'acme-corp' } })).toBe(1);
    const org = await t.db.org.findUniqueOrThrow({ where: { alias: 'acme-corp' } });
    expect(await t.db.membership.count({ where: { orgId: org.id } })).toBe(1);
    expect(await t.db.blob.count({ where: { orgId: org.id, type: 'scheduler' } })).toBe(1);
    expect(await t.db.blob.count({ where: { orgId: org.id } })).toBe(2);
  }, 120_000);
});
