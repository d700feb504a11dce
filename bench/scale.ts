/**
 * Scale benchmark (issue "Performance at realistic scale"): do GET /metrics and a status-filtered
 * `list_executions` page cost the same in a big database as in a small one, and what do the
 * metric counters' triggers add to the fire path?
 *
 *   npm run bench:scale                  (npx tsx bench/scale.ts; SQLite and PostgreSQL)
 *   npm run bench:scale -- --quick       (fewer rounds; the same sizes, so the same goal lines)
 *   npm run bench:scale -- --reads-only  (sections 1–2; --writes-only: section 3, BENCH_WRITE_ROUNDS=N rounds)
 *   BENCH_SCALE_LARGE=100000 …           (a smaller large database, for a smoke run)
 *   BENCH_SKIP_POSTGRES=1 …              (SQLite only; PostgreSQL needs the server of TEST_POSTGRES_URL,
 *                                         see `bash scripts/postgres-local.sh`)
 *
 * For each dialect, two fresh migrated databases with the demo seed, filled by set-based SQL:
 * - small: 1,000 schedules and 10,000 runs; large: 1,000,000 schedules and 1,000,000 runs (runs
 *   spread over the 30-day retention, 90% success; schedules 10% disabled, 5% completed, some paused
 *   by the system, some with skipped occurrences, next fires in the future but for a small backlog).
 * - one more schedule whose runs a status filter pages through: 1,000 runs (small) vs 100,000 (large),
 *   one in 50 failed, none refused by a limit.
 * Then:
 * 1. `/metrics`: `metricsText` in-process (what the route answers), median of N scrapes; and, beside
 *    it, the whole-table counts the scrape made before migration 0012 (the same queries, same run).
 * 2. `list_executions` (`listRuns`, in-process): with `status: invocation_error` (one run in 50) the
 *    first page and the second (a cursor page), with `status: limit_exceeded` (none: the filter
 *    finds nothing), and, without a filter, the first page's runs queries alone (they changed with
 *    the index: one range of the old index before; one statement merging a range per status, then
 *    the rows by id, now); with the runs(schedule_id, status,
 *    created_at, id) index, then with runs(schedule_id, created_at, id) in its place (before 0012).
 *    Prints a cursor page query's plan on the large database.
 * 3. What 0012 adds to the fire path, one database per variant (as shipped; the index swap without
 *    the counter triggers; before 0012), rounds interleaved: the two statements of the fire
 *    transaction the triggers see (insert 500 runs, advance 500 schedules; lib/db/sql/insert-runs.ts,
 *    advance-next-fire.ts), and the whole fire transaction (`fireDue`, batch 500). PostgreSQL also
 *    with 4 insert+advance transactions committing at once (the counter rows are sharded so that
 *    they do not take turns).
 * Machines are noisy: medians and ratios measured in the same run, never a pass/fail on time.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { metricsText } from '../lib/api';
import { advanceNextFire, createDb, dialectOfDb, fireLateness, insertRuns, newestRunIds, type Advance, type Db, type Dialect, type RunInsert } from '../lib/db';
import { loadConfig, type Limits } from '../lib/config';
import { fireDue, listRuns, RUN_STATUSES, workerLiveness } from '../lib/schedules';
import { insertSchedules } from '../lib/testing/insert-schedules';
import { createTestDb, type TestDb } from '../lib/testing/test-db';
import { seed } from '../prisma/seed';

const QUICK = process.argv.includes('--quick');
/** `--writes-only`: section 3 alone (what 0012 adds to the fire path), e.g. with more rounds; `--reads-only`: sections 1 and 2. */
const WRITES_ONLY = process.argv.includes('--writes-only');
const READS_ONLY = process.argv.includes('--reads-only');
const SKIP_PG = process.env.BENCH_SKIP_POSTGRES === '1';
/** `BENCH_SCALE_LARGE=200000` shrinks the large database (smoke runs); the goal is stated for 1,000,000. */
const LARGE = Number(process.env.BENCH_SCALE_LARGE ?? 1_000_000);
const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
const SIZES = [
  { label: '1k', schedules: 1_000, runs: 10_000, listRuns: 1_000 },
  { label: label(LARGE), schedules: LARGE, runs: LARGE, listRuns: LARGE / 10 },
] as const;
const SCRAPES = QUICK ? 9 : 25;
const PAGES = QUICK ? 15 : 41;
const BATCH = 500;
const WRITE_ROUNDS = Number(process.env.BENCH_WRITE_ROUNDS ?? (QUICK ? 9 : 25));
const DAY = 86_400_000;
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [],
};

/** No per-session limit in the way of section 3's fires (the bench measures the writes, not refusals). */
const NO_LIMIT: Limits = { ...loadConfig().limits, executionsPerSessionPerMinute: 1_000_000_000 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (n: number) => `${fmt(n, n < 10 ? 2 : 1)} ms`;

async function timed(rounds: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.max(2, Math.floor(rounds / 5)); i++) await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

/** A UUID-shaped id from an integer (`group` keeps the tables' and fixtures' ids apart). */
const idSql = {
  sqlite: (expr: string, group: string) => `printf('%08x-${group}-4000-8000-%012x', ${expr}, ${expr})`,
  postgresql: (expr: string, group: string) => `lpad(to_hex(${expr}), 8, '0') || '-${group}-4000-8000-' || lpad(to_hex(${expr}), 12, '0')`,
};
/** The stored form of the instant `epoch ms` (lib/db/sql/instant.ts). */
const instantSql = {
  sqlite: (expr: string) => `strftime('%Y-%m-%dT%H:%M:%f', (${expr}) / 1000.0, 'unixepoch') || '+00:00'`,
  postgresql: (expr: string) => `(to_timestamp((${expr}) / 1000.0) AT TIME ZONE 'UTC')::timestamp(3)`,
};
/** Integers `from` … `to − 1` as `g(i)`. */
const seriesSql = {
  sqlite: (from: number, to: number) => `WITH RECURSIVE g(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM g WHERE i + 1 < ${to})`,
  postgresql: (from: number, to: number) => `WITH g(i) AS (SELECT generate_series(${from}::bigint, ${to - 1}::bigint))`,
};

interface Fixture {
  t: TestDb;
  revision: { id: string; blobId: string };
  actor: { type: 'user'; id: string; roleCap: null };
  /** The schedule whose runs the status filter pages through. */
  listScheduleId: string;
  seedSeconds: number;
}

/** Fill a fresh database with `size` (set-based SQL, 100,000 rows a statement). */
async function fixture(dialect: Dialect, size: (typeof SIZES)[number], now: number): Promise<Fixture> {
  const started = performance.now();
  const t = await createTestDb(dialect);
  const ctx = await seed(t.db, undefined);
  const db = t.db;
  const d = dialect;
  const target = JSON.stringify(TARGET).replaceAll("'", "''");
  const bool = (cond: string) => (d === 'sqlite' ? `CASE WHEN ${cond} THEN 1 ELSE 0 END` : `(${cond})`);
  const chunk = 100_000;
  for (let from = 0; from < size.schedules; from += chunk) {
    const to = Math.min(size.schedules, from + chunk);
    // 10% disabled (a third of them by the automatic pause), 5% completed, a due backlog of 100.
    await db.$executeRawUnsafe(`${seriesSql[d](from, to)}
      INSERT INTO schedules (id, name, revision_id, repeat, cron_expression, timezone, enabled, state, invocation_target_type, invocation_target,
        next_fire_at, created_by_type, created_by_id, skipped_occurrences, paused_by_type, created_at, updated_at)
      SELECT ${idSql[d]('i', '0000')}, ${idSql[d]('i', '0000')}, '${ctx.schedulerRevisionId}', 'recurring_cron', '* * * * ? *', 'UTC', ${bool('i % 10 <> 7')},
        CASE WHEN i % 20 = 3 THEN 'completed' ELSE 'active' END, 'workflow', '${target}',
        CASE WHEN i % 10 = 7 OR i % 20 = 3 THEN NULL WHEN i < 100 THEN ${instantSql[d](`${now} - 1000 - i`)} ELSE ${instantSql[d](`${now} + 60000 + (i % 86400) * 1000`)} END,
        'org', '${ctx.orgId}', i % 3, CASE WHEN i % 30 = 7 THEN 'system' WHEN i % 10 = 7 THEN 'user' ELSE NULL END,
        ${instantSql[d](`${now - 40 * DAY}`)}, ${instantSql[d](`${now - 40 * DAY}`)}
      FROM g`);
  }
  const span = 30 * DAY;
  for (let from = 0; from < size.runs; from += chunk) {
    const to = Math.min(size.runs, from + chunk);
    // One run per (schedule, instant): spread over the retention, newest last; 90% success.
    await db.$executeRawUnsafe(`${seriesSql[d](from, to)}
      INSERT INTO runs (id, schedule_id, scheduled_for, trigger, attempt, invocation_target_type, invocation_target, status, result, created_at)
      SELECT ${idSql[d]('i', '0001')}, ${idSql[d](`i % ${size.schedules}`, '0000')}, ${instantSql[d](`${now - span} + i * ${Math.floor(span / size.runs)}`)},
        'schedule', 1, 'workflow', '${target}',
        CASE WHEN i % 100 < 7 THEN 'invocation_error' WHEN i % 100 < 10 THEN 'limit_exceeded' ELSE 'success' END,
        '{}', ${instantSql[d](`${now - span} + i * ${Math.floor(span / size.runs)} + 150`)}
      FROM g`);
  }
  const [listScheduleId] = await insertSchedules(db, [{ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: TARGET, nextFireAt: null }]);
  for (let from = 0; from < size.listRuns; from += chunk) {
    const to = Math.min(size.listRuns, from + chunk);
    await db.$executeRawUnsafe(`${seriesSql[d](from, to)}
      INSERT INTO runs (id, schedule_id, scheduled_for, trigger, attempt, invocation_target_type, invocation_target, status, result, created_at)
      SELECT ${idSql[d]('i', '0002')}, '${listScheduleId}', ${instantSql[d](`${now - span} + i * ${Math.floor(span / size.listRuns)}`)},
        'schedule', 1, 'workflow', '${target}', CASE WHEN i % 50 = 0 THEN 'invocation_error' ELSE 'success' END,
        '{"error":"session_not_found","message":"session nightly-batch is closed"}', ${instantSql[d](`${now - span} + i * ${Math.floor(span / size.listRuns)} + 150`)}
      FROM g`);
  }
  // PostgreSQL's autovacuum would analyze tables this size soon after; SQLite has no statistics
  // unless someone runs ANALYZE, and the product does not.
  if (d === 'postgresql') await db.$executeRawUnsafe('ANALYZE');
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  return {
    t,
    revision: { id: rev.id, blobId: rev.blobId },
    actor: { type: 'user', id: ctx.userId, roleCap: null },
    listScheduleId,
    seedSeconds: (performance.now() - started) / 1000,
  };
}

/** The queries the scrape made before migration 0012 (lib/schedules/operations/fire-metrics.ts at that time). */
async function wholeTableScrape(db: Db, now: Date): Promise<void> {
  const since = new Date(now.getTime() - 300_000);
  await Promise.all([
    db.run.groupBy({ by: ['status'], _count: { _all: true } }),
    db.run.groupBy({ by: ['status'], where: { createdAt: { gt: since } }, _count: { _all: true } }),
    fireLateness(db, since),
    db.schedule.count({ where: { nextFireAt: { lte: now } } }),
    db.schedule.findFirst({ where: { nextFireAt: { lte: now } }, orderBy: { nextFireAt: 'asc' }, select: { nextFireAt: true } }),
    db.schedule.aggregate({ _sum: { skippedOccurrences: true } }),
    db.schedule.groupBy({ by: ['state', 'enabled'], _count: { _all: true } }),
    workerLiveness(db, now),
    db.run.groupBy({ by: ['status'], where: { createdAt: { gt: since }, attempt: { gt: 1 } }, _count: { _all: true } }),
    db.pendingAttempt.count(),
    db.deadLetter.count(),
    db.schedule.count({ where: { enabled: false, pausedByType: 'system' } }),
  ]);
}

interface SizeResult {
  seedSeconds: number;
  scrapeMs: number;
  wholeTableMs: number;
  firstPageMs: number;
  deepPageMs: number;
  emptyMs: number;
  unfilteredMs: number;
  /** The same pages with the index the runs table had before 0012: runs(schedule_id, created_at, id). */
  firstPageBeforeMs: number;
  deepPageBeforeMs: number;
  emptyBeforeMs: number;
  unfilteredBeforeMs: number;
  plan: string;
  runsLine: string;
}

const STATUS_INDEX = 'runs_schedule_id_status_created_at_id_idx';
/** Put back the runs index of before 0012, without the status index that replaced it. */
async function restoreOldRunsIndex(db: Db): Promise<void> {
  await db.$executeRawUnsafe(`DROP INDEX ${STATUS_INDEX}`);
  await db.$executeRawUnsafe('CREATE INDEX runs_schedule_id_created_at_id_idx ON runs (schedule_id, created_at, id)');
  if (dialectOfDb(db) === 'postgresql') await db.$executeRawUnsafe('ANALYZE runs');
}

async function measureSize(dialect: Dialect, size: (typeof SIZES)[number]): Promise<SizeResult> {
  const f = await fixture(dialect, size, Date.now());
  const { db } = f.t;
  try {
    const scrapeMs = await timed(SCRAPES, () => metricsText(new Date(), db));
    const wholeTableMs = await timed(SCRAPES, () => wholeTableScrape(db, new Date()));
    const body = (await metricsText(new Date(), db)).body;
    const runsLine = RUN_STATUSES.map((s) => new RegExp(`^scheduler_runs\\{status="${s}"\\} (\\d+)`, 'm').exec(body)?.[1] ?? '?').join(' / ');

    const page = (status: 'invocation_error' | 'limit_exceeded' | undefined, startExecutionId?: string | null) =>
      listRuns({ db, actor: f.actor, revision: f.revision, scheduleId: f.listScheduleId, status, startExecutionId });
    // The second page's cursor (the first page's last id), found once.
    const cursor = (await page('invocation_error')).last_execution_id;
    if (!cursor) throw new Error('bench: the status filter has a single page');
    const order = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
    const pages = async (before: boolean) => [
      await timed(PAGES, () => page('invocation_error')),
      await timed(PAGES, () => page('invocation_error', cursor)),
      await timed(PAGES, () => page('limit_exceeded')),
      // Without a filter the page's queries changed with the index: one range of the old index before;
      // now one statement merging a range per status, then the rows by id (listRuns); timed alone,
      // the access checks left out.
      before
        ? await timed(PAGES, () => db.run.findMany({ where: { scheduleId: f.listScheduleId }, orderBy: order, take: 11 }))
        : await timed(PAGES, async () => db.run.findMany({ where: { id: { in: await newestRunIds(db, f.listScheduleId, RUN_STATUSES, null, 11) } } })),
    ];
    const [firstPageMs, deepPageMs, emptyMs, unfilteredMs] = await pages(false);
    const plan = await pagePlan(db, f.listScheduleId, cursor);
    await restoreOldRunsIndex(db);
    const [firstPageBeforeMs, deepPageBeforeMs, emptyBeforeMs, unfilteredBeforeMs] = await pages(true);
    return {
      seedSeconds: f.seedSeconds, scrapeMs, wholeTableMs, firstPageMs, deepPageMs, emptyMs, unfilteredMs,
      firstPageBeforeMs, deepPageBeforeMs, emptyBeforeMs, unfilteredBeforeMs, plan, runsLine,
    };
  } finally {
    await f.t.cleanup();
  }
}

/** The plan of a cursor page's query, as list-runs.ts writes it (Prisma's SQL, written out). */
async function pagePlan(db: Db, scheduleId: string, cursorId: string): Promise<string> {
  const c = await db.run.findUniqueOrThrow({ where: { id: cursorId }, select: { createdAt: true } });
  if (dialectOfDb(db) === 'sqlite') {
    const at = c.createdAt.toISOString().replace('Z', '+00:00');
    const rows = await db.$queryRawUnsafe<{ detail: string }[]>(
      `EXPLAIN QUERY PLAN SELECT * FROM runs WHERE schedule_id = ? AND status = ? AND created_at <= ? AND (created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT 11`,
      scheduleId, 'invocation_error', at, at, at, cursorId,
    );
    return rows.map((r) => r.detail).join('; ');
  }
  const rows = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
    `EXPLAIN SELECT * FROM runs WHERE schedule_id = $1 AND status = $2 AND created_at <= $3::timestamp(3) AND (created_at < $3::timestamp(3) OR (created_at = $3::timestamp(3) AND id < $4))
     ORDER BY created_at DESC, id DESC LIMIT 11`,
    scheduleId, 'invocation_error', c.createdAt.toISOString(), cursorId,
  );
  return rows.map((r) => r['QUERY PLAN'].trim()).filter((l) => !l.startsWith('Filter')).slice(0, 3).join('; ');
}

type Variant = 'shipped' | 'no-triggers' | 'before';
const VARIANTS: [Variant, string][] = [
  ['shipped', 'as shipped (counter triggers, status index)'],
  ['no-triggers', 'status index, no counter triggers'],
  ['before', 'before 0012 (no triggers, runs(schedule_id, created_at, id) instead of the status index)'],
];

/** Remove what `v` lacks from a fresh migrated database: the counter triggers, and for `before` the index swap. */
async function applyVariant(db: Db, v: Variant): Promise<void> {
  if (v === 'shipped') return;
  if (dialectOfDb(db) === 'sqlite') {
    const names = (await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'metric_%'`)).map((r) => r.name);
    for (const name of names) await db.$executeRawUnsafe(`DROP TRIGGER "${name}"`);
  } else {
    for (const table of ['runs', 'schedules', 'pending_attempts', 'dead_letters']) await db.$executeRawUnsafe(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  }
  if (v === 'before') await restoreOldRunsIndex(db);
}

/** A database for the write rounds: the seed, `writers` × BATCH minutely schedules due at `base`. */
async function writeFixture(dialect: Dialect, v: Variant, writers: number, base: number) {
  const t = await createTestDb(dialect);
  const ctx = await seed(t.db, undefined);
  await applyVariant(t.db, v);
  const groups: string[][] = [];
  for (let w = 0; w < writers; w++) {
    groups.push(await insertSchedules(t.db, Array.from({ length: BATCH }, () => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: TARGET, nextFireAt: new Date(base) }))));
  }
  return { t, groups, step: new Array<number>(writers).fill(0) };
}

/**
 * Section 3: the fire transaction's run insert + advance, per batch of BATCH, one database per
 * variant (built the same way, then written in interleaved rounds so the machine's noise falls on all).
 */
async function writeCost(dialect: Dialect): Promise<{ perBatchMs: Record<Variant, number>; fireMs: Record<Variant, number>; parallelMs?: Record<'shipped' | 'no-triggers', number> }> {
  const writers = dialect === 'postgresql' ? 4 : 1;
  const base = Date.UTC(2030, 0, 1);
  const fixtures = new Map<Variant, Awaited<ReturnType<typeof writeFixture>>>();
  for (const [v] of VARIANTS) fixtures.set(v, await writeFixture(dialect, v, writers, base));
  /** One fire-like transaction on writer `w`'s schedules: BATCH runs, then their advance. */
  const batch = (db: Db, f: Awaited<ReturnType<typeof writeFixture>>, w: number) => {
    const k = f.step[w]++;
    const seen = new Date(base + k * 60_000);
    const next = new Date(base + (k + 1) * 60_000);
    const runs: RunInsert[] = f.groups[w].map((scheduleId, i) => ({
      id: randomUUID(), scheduleId, scheduledFor: seen, trigger: 'schedule', status: i % 10 === 0 ? 'invocation_error' : 'success',
      result: { execution_id: randomUUID() }, executionId: null, createdAt: new Date(seen.getTime() + 150),
    }));
    const advances: Advance[] = f.groups[w].map((scheduleId) => ({ scheduleId, seen, next, nextScheduledFor: next, state: 'active', skipped: 0 }));
    return db.$transaction(async (tx) => {
      await insertRuns(tx, runs);
      const advanced = await advanceNextFire(tx, advances, next);
      if (advanced.size !== BATCH) throw new Error(`bench: advanced ${advanced.size} of ${BATCH}`);
    });
  };
  /** The variants in a different order each round, so none always runs first or last. */
  const rotated = (round: number) => VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length][0]);
  try {
    const samples: Record<Variant, number[]> = { shipped: [], 'no-triggers': [], before: [] };
    for (let round = 0; round < WRITE_ROUNDS + 2; round++) {
      for (const v of rotated(round)) {
        const f = fixtures.get(v)!;
        const t0 = performance.now();
        await batch(f.t.db, f, 0);
        if (round >= 2) samples[v].push(performance.now() - t0);
      }
    }
    const perBatchMs = Object.fromEntries(VARIANTS.map(([v]) => [v, median(samples[v])])) as Record<Variant, number>;

    let parallelMs: Record<'shipped' | 'no-triggers', number> | undefined;
    if (writers > 1) {
      // PostgreSQL: `writers` transactions at once (each on its own connection), as 4 workers commit.
      const pools = new Map((['shipped', 'no-triggers'] as const).map((v) => [v, createDb(fixtures.get(v)!.t.url, { poolSize: writers + 1 })]));
      try {
        const parallel: Record<'shipped' | 'no-triggers', number[]> = { shipped: [], 'no-triggers': [] };
        for (let round = 0; round < WRITE_ROUNDS + 2; round++) {
          for (const v of round % 2 ? (['shipped', 'no-triggers'] as const) : (['no-triggers', 'shipped'] as const)) {
            const f = fixtures.get(v)!;
            const t0 = performance.now();
            await Promise.all(f.groups.map((_, w) => batch(pools.get(v)!, f, w)));
            if (round >= 2) parallel[v].push(performance.now() - t0);
          }
        }
        parallelMs = { shipped: median(parallel.shipped), 'no-triggers': median(parallel['no-triggers']) };
      } finally {
        for (const pool of pools.values()) await pool.$disconnect();
      }
    }

    // The whole fire transaction (fireDue: claim, executions, runs, advance) on writer 0's schedules,
    // made due again each round (the re-arm is not timed); the other writers' schedules are put off.
    for (const f of fixtures.values()) await f.t.db.schedule.updateMany({ where: { id: { in: f.groups.slice(1).flat() } }, data: { nextFireAt: new Date('2099-01-01T00:00:00Z') } });
    const fires: Record<Variant, number[]> = { shipped: [], 'no-triggers': [], before: [] };
    for (let round = 0; round < WRITE_ROUNDS + 2; round++) {
      for (const v of rotated(round)) {
        const f = fixtures.get(v)!;
        const at = new Date(base + f.step[0]++ * 60_000);
        await f.t.db.schedule.updateMany({ where: { id: { in: f.groups[0] } }, data: { nextFireAt: at } });
        const t0 = performance.now();
        const fired = await fireDue({ db: f.t.db, now: new Date(at.getTime() + 100), limit: BATCH, limits: NO_LIMIT });
        if (round >= 2) fires[v].push(performance.now() - t0);
        if (fired.length !== BATCH) throw new Error(`bench: fireDue fired ${fired.length} of ${BATCH}`);
      }
    }
    const fireMs = Object.fromEntries(VARIANTS.map(([v]) => [v, median(fires[v])])) as Record<Variant, number>;
    return { perBatchMs, fireMs, parallelMs };
  } finally {
    for (const f of fixtures.values()) await f.t.cleanup();
  }
}

function printReads(results: Map<Dialect, SizeResult[]>): void {
  const [small, large] = SIZES;
  console.log(`1. GET /metrics scrape (metricsText in-process, median of ${SCRAPES}): ${fmt(small.schedules)} schedules / ${fmt(small.runs)} runs vs ${fmt(large.schedules)} / ${fmt(large.runs)}\n`);
  console.log(`| database | scrape @ ${small.label} | scrape @ ${large.label} | ratio | whole-table counts (before 0012) @ ${small.label} | @ ${large.label} | ratio |`);
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [d, [s, l]] of results) {
    console.log(`| ${d} | ${ms(s.scrapeMs)} | ${ms(l.scrapeMs)} | ${fmt(l.scrapeMs / s.scrapeMs, 2)}× | ${ms(s.wholeTableMs)} | ${ms(l.wholeTableMs)} | ${fmt(l.wholeTableMs / s.wholeTableMs, 1)}× |`);
  }
  for (const [d, [, l]] of results) console.log(`\n${d} @ ${large.label}: scheduler_runs success / limit_exceeded / invocation_error = ${l.runsLine}`);

  console.log(`\n2. list_executions (listRuns in-process, median of ${PAGES}): one schedule with ${fmt(small.listRuns)} vs ${fmt(large.listRuns)} runs (one in 50 failed, none limited)\n`);
  console.log(`| database | page | @ ${fmt(small.listRuns)} | @ ${fmt(large.listRuns)} | ratio | before 0012 @ ${fmt(small.listRuns)} | @ ${fmt(large.listRuns)} | ratio |`);
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const [d, [s, l]] of results) {
    const row = (page: string, a: number, b: number, a0: number, b0: number) =>
      console.log(`| ${d} | ${page} | ${ms(a)} | ${ms(b)} | ${fmt(b / a, 2)}× | ${ms(a0)} | ${ms(b0)} | ${fmt(b0 / a0, 1)}× |`);
    row('invocation_error, first', s.firstPageMs, l.firstPageMs, s.firstPageBeforeMs, l.firstPageBeforeMs);
    row('invocation_error, second (cursor)', s.deepPageMs, l.deepPageMs, s.deepPageBeforeMs, l.deepPageBeforeMs);
    row('limit_exceeded (no run)', s.emptyMs, l.emptyMs, s.emptyBeforeMs, l.emptyBeforeMs);
    row('no filter: the runs queries alone (before: 1 range; now: a range per status merged, then the rows)', s.unfilteredMs, l.unfilteredMs, s.unfilteredBeforeMs, l.unfilteredBeforeMs);
  }
  for (const [d, [, l]] of results) console.log(`\n${d} plan of a cursor page @ ${fmt(large.listRuns)}: ${l.plan}`);
}

async function main(): Promise<void> {
  const dialects: Dialect[] = SKIP_PG ? ['sqlite'] : ['sqlite', 'postgresql'];
  console.log(`bench:scale — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} CPUs${QUICK ? ' (quick)' : ''}\n`);
  const results = new Map<Dialect, SizeResult[]>();
  for (const d of WRITES_ONLY ? [] : dialects) {
    const rs: SizeResult[] = [];
    for (const size of SIZES) {
      rs.push(await measureSize(d, size));
      console.error(`  ${d} ${size.label}: seeded in ${fmt(rs.at(-1)!.seedSeconds, 1)} s`);
    }
    results.set(d, rs);
  }
  if (results.size > 0) printReads(results);
  if (READS_ONLY) {
    printGoals(results);
    return;
  }

  console.log(`\n3. Counter triggers on the fire path: one transaction inserting ${BATCH} runs and advancing ${BATCH} schedules (median of ${WRITE_ROUNDS}, rounds interleaved)\n`);
  console.log('| database | variant | per batch | per fire | vs before 0012 |');
  console.log('|---|---|---:|---:|---:|');
  for (const d of dialects) {
    const r = await writeCost(d);
    for (const [v, text] of VARIANTS) {
      console.log(`| ${d} | ${text} | ${ms(r.perBatchMs[v])} | ${fmt((r.perBatchMs[v] * 1000) / BATCH, 1)} µs | ${fmt(r.perBatchMs[v] / r.perBatchMs.before, 2)}× |`);
    }
    for (const [v, text] of VARIANTS) {
      console.log(`| ${d} | whole fire transaction (fireDue), ${text} | ${ms(r.fireMs[v])} | ${fmt((r.fireMs[v] * 1000) / BATCH, 1)} µs | ${fmt(r.fireMs[v] / r.fireMs.before, 2)}× |`);
    }
    if (r.parallelMs) {
      console.log(`| ${d} | 4 transactions at once, as shipped | ${ms(r.parallelMs.shipped)} | ${fmt((r.parallelMs.shipped * 1000) / (4 * BATCH), 1)} µs | ${fmt(r.parallelMs.shipped / r.parallelMs['no-triggers'], 2)}× without triggers |`);
      console.log(`| ${d} | 4 transactions at once, without the counter triggers | ${ms(r.parallelMs['no-triggers'])} | ${fmt((r.parallelMs['no-triggers'] * 1000) / (4 * BATCH), 1)} µs | |`);
    }
  }

  printGoals(results);
}

function printGoals(results: Map<Dialect, SizeResult[]>): void {
  console.log('');
  const [small, large] = SIZES;
  for (const [d, [s, l]] of results) {
    const scrape = l.scrapeMs / s.scrapeMs;
    const list = Math.max(l.firstPageMs / s.firstPageMs, l.deepPageMs / s.deepPageMs, l.emptyMs / s.emptyMs);
    console.log(`goal metrics scrape ${large.label} vs ${small.label} (${d}): ${fmt(scrape, 2)}× (target ≤ 2×): ${scrape <= 2 ? 'met' : 'missed'}`);
    console.log(`goal status-filtered list_executions ${label(large.listRuns)} vs ${label(small.listRuns)} (${d}): ${fmt(list, 2)}× (target ≤ 2×): ${list <= 2 ? 'met' : 'missed'}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
