/**
 * Refusals alike in time (SPEC §2: a refusal never reveals whether something exists): for each lookup
 * a page, a server action or the API makes by an id or alias from the request, the time to refuse
 * another org's EXISTING object against the time to refuse a MISSING one, for a caller of org acme
 * (docs/decisions.md 163).
 *
 *   npm run bench:refusals                  (npx tsx bench/refusals.ts; SQLite, then PostgreSQL)
 *   npm run bench:refusals -- --quick       (fewer rounds)
 *   BENCH_SKIP_POSTGRES=1 …                 (SQLite only; PostgreSQL needs the server of TEST_POSTGRES_URL,
 *                                            see `bash scripts/postgres-local.sh`)
 *
 * Each lookup is the domain call its page, action or route makes, in this process, on a fresh
 * migrated database with the demo seed and a second org (globex, with its scheduler, workflow blob and
 * a few hundred schedules, so a foreign row has neighbours). The cases of one lookup run interleaved,
 * in a new random order every round, so drift (other processes on the machine, the page cache) falls on
 * all of them alike. A control pair (two different missing ids of one lookup) shows the noise floor.
 * Printed: per case the median in µs; per lookup the ratio foreign / missing of the medians, with the
 * goal 0.90–1.10. In-process the HTTP and rendering work, which is the same for both answers, is left
 * out, so a ratio here is at least as far from 1 as it is over HTTP. No pass/fail on time.
 */
import { randomUUID } from 'node:crypto';
import { describeBlobResponse } from '../lib/api';
import { listOrgMembers, type Actor } from '../lib/auth';
import type { Db, Dialect } from '../lib/db';
import { getSchedulerByRevision, schedulerDirectReads } from '../lib/schedules';
import { insertSchedules } from '../lib/testing/insert-schedules';
import { createTestDb } from '../lib/testing/test-db';
import { createSchedulerBlob, createWorkflowBlob, deleteBlob, getCatalogBlob, getCatalogRevision, getReadableRevision } from '../lib/workflows';
import { seed } from '../prisma/seed';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 300 : 2000;
const WARMUP = QUICK ? 30 : 200;
const SKIP_PG = process.env.BENCH_SKIP_POSTGRES === '1';

interface Lookup {
  name: string;
  /** Where the lookup is made (the page, action or route). */
  where: string;
  foreign: () => Promise<unknown>;
  missing: () => Promise<unknown>;
  /** A second missing id: with `missing`, the control pair. */
  missing2?: () => Promise<unknown>;
}

/** Run `fn`, which must refuse (a refusal is what is timed); an answer would make the case meaningless. */
async function refused(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch {
    return;
  }
  throw new Error('a lookup of the bench answered instead of refusing');
}

/** A direct read (decision 439) refuses by answering null: that null as a refusal, for `refused`. */
async function nullRefuses(answer: Promise<unknown>): Promise<unknown> {
  const value = await answer;
  if (value === null) throw new Error('refused');
  return value;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

async function measure(lookup: Lookup): Promise<Record<string, number>> {
  const cases: [string, () => Promise<unknown>][] = [
    ['foreign', lookup.foreign],
    ['missing', lookup.missing],
    ...(lookup.missing2 ? ([['missing2', lookup.missing2]] as [string, () => Promise<unknown>][]) : []),
  ];
  const samples = new Map(cases.map(([k]) => [k, [] as number[]]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [k, fn] of shuffle([...cases])) {
      const t0 = process.hrtime.bigint();
      await refused(fn);
      const us = Number(process.hrtime.bigint() - t0) / 1000;
      if (round >= WARMUP) samples.get(k)!.push(us);
    }
  }
  return Object.fromEntries([...samples].map(([k, v]) => [k, median(v)]));
}

async function setUp(db: Db) {
  const ctx = await seed(db, undefined, 'bench-operator-password');
  const operator: Actor = { type: 'user', id: ctx.userId, roleCap: null };
  const acmeKey: Actor = { type: 'org', id: ctx.orgId, roleCap: 'write' };
  const now = new Date();
  const globex = await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
  const globexActor: Actor = { type: 'org', id: globex.id, roleCap: null };
  const flows = await createWorkflowBlob(db, { actor: globexActor, org: globex.id, alias: 'globex-flows', name: 'Globex flows', now });
  const scheduler = await createSchedulerBlob(db, { actor: globexActor, org: globex.id, alias: 'globex-ops', name: 'Globex ops', now });
  const target = { target: { org: 'globex-corp', blob: 'globex-flows', revision: 'default', session: 'work' }, workflow: { definition: 'work' } };
  await insertSchedules(
    db,
    Array.from({ length: 300 }, (_, i) => ({ revisionId: scheduler.default_revision_id!, alias: `globex-${i}`, createdBy: { type: 'org' as const, id: globex.id }, invocationTarget: target, nextFireAt: null, enabled: false })),
  );
  return { operator, acmeKey, globex, flows, scheduler };
}

async function run(dialect: Dialect): Promise<void> {
  const t = await createTestDb(dialect);
  try {
    const { operator, acmeKey, globex, flows, scheduler } = await setUp(t.db);
    const db = t.db;
    const id = () => randomUUID();
    const [m1, m2] = [id(), id()];
    const getScheduleDirect = schedulerDirectReads.get_schedule!;
    const lookups: Lookup[] = [
      {
        name: 'blob by id',
        where: 'GET /api/v1/orgs/{org}/blobs/{blob} (org key)',
        foreign: () => describeBlobResponse(acmeKey, 'globex-corp', flows.id, db),
        missing: () => describeBlobResponse(acmeKey, 'globex-corp', m1, db),
        missing2: () => describeBlobResponse(acmeKey, 'globex-corp', m2, db),
      },
      {
        name: 'blob by alias',
        where: 'GET /api/v1/orgs/{org}/blobs/{blob} (org key)',
        foreign: () => describeBlobResponse(acmeKey, globex.id, 'globex-flows', db),
        missing: () => describeBlobResponse(acmeKey, globex.id, 'no-such-blob', db),
      },
      {
        name: 'scheduler revision',
        where: 'scheduler pages and server actions (schedulerPage, schedulerAction)',
        foreign: () => getSchedulerByRevision(db, operator, scheduler.default_revision_id!),
        missing: () => getSchedulerByRevision(db, operator, m1),
        missing2: () => getSchedulerByRevision(db, operator, m2),
      },
      {
        name: 'catalog blob',
        where: 'page /catalog/{blobId}',
        foreign: () => getCatalogBlob(db, { actor: operator, blobId: flows.id }),
        missing: () => getCatalogBlob(db, { actor: operator, blobId: m1 }),
      },
      {
        name: 'catalog revision',
        where: 'pages /catalog/revisions/{revisionId}/…',
        foreign: () => getCatalogRevision(db, { actor: operator, revisionId: flows.default_revision_id! }),
        missing: () => getCatalogRevision(db, { actor: operator, revisionId: m1 }),
      },
      {
        name: 'revision (API)',
        where: 'POST /api/v1/revisions/{revision_id}/data (org key)',
        foreign: () => getReadableRevision(db, { actor: acmeKey, revisionId: scheduler.default_revision_id! }),
        missing: () => getReadableRevision(db, { actor: acmeKey, revisionId: m1 }),
      },
      {
        name: 'schedule (direct)',
        where: 'POST /api/v1/revisions/{revision_id}/data get_schedule, its direct read (org key)',
        foreign: () => nullRefuses(getScheduleDirect({ db, actor: acmeKey, revisionId: scheduler.default_revision_id!, params: { schedule_id: 'globex-1' } })),
        missing: () => nullRefuses(getScheduleDirect({ db, actor: acmeKey, revisionId: m1, params: { schedule_id: 'globex-1' } })),
        missing2: () => nullRefuses(getScheduleDirect({ db, actor: acmeKey, revisionId: m2, params: { schedule_id: 'globex-1' } })),
      },
      {
        name: 'delete blob',
        where: 'server action "Delete blob" (a write transaction)',
        foreign: () => deleteBlob(db, { actor: operator, blobId: flows.id }),
        missing: () => deleteBlob(db, { actor: operator, blobId: m1 }),
      },
      {
        name: 'org admin',
        where: 'page /orgs/{org}/admin and its actions',
        foreign: () => listOrgMembers(db, { actor: operator, org: 'globex-corp' }),
        missing: () => listOrgMembers(db, { actor: operator, org: 'no-such-org' }),
      },
    ];
    console.log(`\n${dialect}: ${ROUNDS} rounds per case (after ${WARMUP} warm-up), medians in µs`);
    console.log(`${'lookup'.padEnd(20)} ${'foreign'.padStart(8)} ${'missing'.padStart(8)} ${'ratio'.padStart(7)}  ${'control'.padStart(7)}  where`);
    for (const l of lookups) {
      const m = await measure(l);
      const ratio = m.foreign / m.missing;
      const control = m.missing2 !== undefined ? (m.missing2 / m.missing).toFixed(3) : '';
      const flag = ratio >= 0.9 && ratio <= 1.1 ? '' : '  (outside 0.90–1.10)';
      console.log(`${l.name.padEnd(20)} ${m.foreign.toFixed(0).padStart(8)} ${m.missing.toFixed(0).padStart(8)} ${ratio.toFixed(3).padStart(7)}  ${control.padStart(7)}  ${l.where}${flag}`);
    }
  } finally {
    await t.cleanup();
  }
}

async function main(): Promise<void> {
  console.log('bench:refusals: the time to refuse another org\'s existing object / a missing one (goal 0.90–1.10)');
  await run('sqlite');
  if (SKIP_PG) console.log('\npostgresql: skipped (BENCH_SKIP_POSTGRES=1)');
  else await run('postgresql');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
