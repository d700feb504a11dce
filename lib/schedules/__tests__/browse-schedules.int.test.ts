/**
 * The schedule grid's server-side query (SPEC §10, lib/schedules/browse-schedules.ts) against a real
 * database in the dialect CI selects: every page of every filter / search / sort combination equals a
 * plain JavaScript oracle over all rows (filter, lower-case substring, sort with nulls last, id last).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { insertSchedules, type ScheduleFixture } from '../../testing/insert-schedules';
import { createTestDb } from '../../testing/test-db';
import { workflowTargetOf } from '../../testing/workflow-target';
import { seed } from '../../../prisma/seed';
import { randomUUID } from 'node:crypto';
import { insertRuns, type RunInsert } from '../../db';
import { browseSchedules, enabledCounts, inProgressRun, lastRunStatuses, pendingRetries, SCHEDULE_SORT_KEYS, toSchedule, type RunOutcomeState, type Schedule, type ScheduleSortKey } from '..';

let db: Db;
let cleanup: () => Promise<void>;
let user: Actor;
let scheduler: { id: string; blobId: string };
let all: Schedule[];

const ZONES = ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/New_York'];
const BLOBS = ['procedures', 'billing', 'reports'];
const SESSIONS = ['nightly-batch', 'adhoc-runs'];
const DEFINITIONS = ['triage', 'close-books', 'send_digest'];

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const ctx = await seed(db, undefined);
  user = { type: 'user', id: ctx.userId, roleCap: null };
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  // A scheduler of its own (same blob access) so the seeded schedules don't mix in.
  const own = await db.revision.create({ data: { blobId: rev.blobId, state: 'draft' } });
  scheduler = { id: own.id, blobId: rev.blobId };
  const base = Date.parse('2030-01-01T00:00:00Z');
  const fixtures: ScheduleFixture[] = Array.from({ length: 137 }, (_, i) => ({
    revisionId: own.id,
    // Every third has no alias (the grid shows the id); mixed case and `-`/`_` test the byte order.
    alias: i % 3 === 0 ? null : `${i % 2 ? 'Job' : 'job'}${i % 4 ? '-' : '_'}${String((i * 37) % 101).padStart(3, '0')}`,
    createdBy: { type: 'user', id: ctx.userId },
    description: i % 5 === 0 ? null : i % 7 === 0 ? `50% of the _backlog_ #${i}` : `Ticket sweep ${i % 11}`,
    cronExpression: i % 2 ? `${i % 60} * * * ? *` : `0 9 ? * MON-FRI *`,
    timezone: ZONES[i % ZONES.length],
    enabled: i % 6 !== 1,
    nextFireAt: i % 9 === 4 ? null : new Date(base + ((i * 7919) % 500) * 60_000),
    invocationTarget: {
      target: { org: 'acme-corp', blob: BLOBS[i % BLOBS.length], revision: 'default', session: SESSIONS[i % SESSIONS.length] },
      workflow: { definition: DEFINITIONS[i % DEFINITIONS.length], ...(i % 10 === 3 ? { org: 'acme-corp', blob: 'shared-flows' } : {}) },
      input_data: [],
    },
  }));
  await insertSchedules(db, fixtures);
  // A few completed ones, so the state filter and sort have both values.
  const some = await db.schedule.findMany({ where: { revisionId: own.id }, orderBy: { id: 'asc' }, take: 12 });
  await db.schedule.updateMany({ where: { id: { in: some.map((s) => s.id) } }, data: { state: 'completed', nextFireAt: null } });
  all = (await db.schedule.findMany({ where: { revisionId: own.id } })).map(toSchedule);
}, 120_000);
afterAll(async () => cleanup());

/** The grid's text as the SQL builds it, in plain JavaScript. */
function searchText(s: Schedule): string {
  const t = workflowTargetOf(s).target;
  const w = workflowTargetOf(s).workflow;
  return [s.alias ?? '', s.id, s.description ?? '', s.cron_expression ?? '', s.rate_expression ?? '', s.invocation_time ?? '', s.timezone, `${t.org ?? ''}/${t.blob}`, t.revision, t.session, w.definition, w.blob ?? '']
    .join('\n')
    .toLowerCase();
}

const byteCompare = (a: string, b: string) => (a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b)));

function sortValue(s: Schedule, key: ScheduleSortKey): string | number | null {
  switch (key) {
    case 'name': return (s.alias ?? s.id).toLowerCase();
    case 'description': return (s.description ?? '').toLowerCase();
    case 'timezone': return s.timezone;
    case 'state': return s.state;
    case 'enabled': return s.enabled ? 1 : 0;
    case 'next_fire': return s.next_fire_at;
    case 'created': return s.created_at;
  }
}

function oracle(opts: { query?: string; state?: 'active' | 'completed'; enabled?: boolean; sort: ScheduleSortKey; descending: boolean }): string[] {
  const q = opts.query?.trim().toLowerCase() ?? '';
  const dir = opts.descending ? -1 : 1;
  return all
    .filter((s) => (opts.state ? s.state === opts.state : true) && (opts.enabled === undefined ? true : s.enabled === opts.enabled) && (!q || searchText(s).includes(q)))
    .sort((a, b) => {
      const x = sortValue(a, opts.sort);
      const y = sortValue(b, opts.sort);
      if (x === null && y !== null) return 1;
      if (y === null && x !== null) return -1;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : byteCompare(String(x ?? ''), String(y ?? ''));
      return c !== 0 ? c * dir : byteCompare(a.id, b.id) * dir;
    })
    .map((s) => s.id);
}

async function everyPage(opts: Parameters<typeof oracle>[0], pageSize: number): Promise<{ ids: string[]; totals: number[]; pageCounts: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  const pageCounts: number[] = [];
  for (let page = 1; ; page++) {
    const got = await browseSchedules({ db, actor: user, revision: scheduler, ...opts, page, pageSize });
    expect(got.page).toBe(page);
    ids.push(...got.schedules.map((s) => s.id));
    totals.push(got.total);
    pageCounts.push(got.pageCount);
    if (page >= got.pageCount) break;
  }
  return { ids, totals, pageCounts };
}

describe('browseSchedules', () => {
  it('pages through every schedule in every sort, both directions, like the oracle', async () => {
    for (const sort of SCHEDULE_SORT_KEYS) {
      for (const descending of [false, true]) {
        const expected = oracle({ sort, descending });
        const got = await everyPage({ sort, descending }, 50);
        expect(got.ids, `${sort} ${descending ? 'desc' : 'asc'}`).toEqual(expected);
        expect(new Set(got.totals)).toEqual(new Set([137]));
        expect(got.pageCounts[0]).toBe(3);
      }
    }
  });

  it('filters by text (any field, case-insensitive, % and _ literal), state and enabled', async () => {
    const cases: Parameters<typeof oracle>[0][] = [
      { query: 'JOB-0', sort: 'name', descending: false },
      { query: 'berlin', sort: 'next_fire', descending: true },
      { query: 'billing', sort: 'created', descending: false },
      { query: 'acme-corp/reports', sort: 'name', descending: false },
      { query: 'adhoc-runs', enabled: false, sort: 'timezone', descending: false },
      { query: 'send_digest', sort: 'description', descending: false },
      { query: 'shared-flows', sort: 'name', descending: true },
      { query: 'mon-fri', state: 'active', sort: 'next_fire', descending: false },
      { query: '50%', sort: 'name', descending: false },
      { query: '_backlog_', sort: 'name', descending: false },
      { query: '%', sort: 'name', descending: false },
      { query: 'x_y', sort: 'name', descending: false },
      { query: all[5].id.slice(0, 13).toUpperCase(), sort: 'name', descending: false },
      { state: 'completed', sort: 'name', descending: false },
      { state: 'active', enabled: true, sort: 'enabled', descending: true },
      { query: '   ', sort: 'created', descending: false },
    ];
    for (const c of cases) {
      const expected = oracle(c);
      const got = await everyPage(c, 20);
      expect(got.ids, JSON.stringify(c)).toEqual(expected);
      expect(got.totals[0], JSON.stringify(c)).toBe(expected.length);
    }
    // The literal cases really narrow: `%` and `_` are not wildcards.
    expect(oracle({ query: '%', sort: 'name', descending: false }).length).toBeLessThan(all.length);
    expect(oracle({ query: 'x_y', sort: 'name', descending: false })).toEqual([]);
  });

  it('clamps a page past the end to the last page, and answers an empty scheduler with page 1 of 1', async () => {
    const last = await browseSchedules({ db, actor: user, revision: scheduler, page: 99, pageSize: 50 });
    expect(last.page).toBe(3);
    expect(last.schedules.map((s) => s.id)).toEqual(oracle({ sort: 'created', descending: false }).slice(100));
    const empty = await browseSchedules({ db, actor: user, revision: scheduler, query: 'no such schedule anywhere', page: 4 });
    expect(empty).toMatchObject({ schedules: [], total: 0, page: 1, pageCount: 1 });
  });

  it('refuses an actor without read access with not_found', async () => {
    const stranger: Actor = { type: 'user', id: 'no-such-user', roleCap: null };
    await expect(browseSchedules({ db, actor: stranger, revision: scheduler })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('gives the newest run of each schedule of a page, by created_at then id, and only of this scheduler', async () => {
    const page = all.slice(0, 6);
    const t0 = Date.parse('2030-02-01T00:00:00Z');
    const runs: RunInsert[] = [];
    const add = (scheduleId: string, createdAt: number, status: string, trigger = 'schedule', id = randomUUID()) =>
      runs.push({ id, scheduleId, scheduledFor: new Date(createdAt - 100 - runs.length), trigger, status, result: {}, executionId: null, createdAt: new Date(createdAt) });
    // page[0]: three runs, the newest is the manual one; page[1]: two at the same instant, the larger id wins;
    // page[2]: one run; page[3..5]: none.
    add(page[0].id, t0, 'success');
    add(page[0].id, t0 + 2000, 'limit_exceeded', 'manual');
    add(page[0].id, t0 + 1000, 'invocation_error');
    add(page[1].id, t0 + 5000, 'success', 'schedule', 'ffffffff-0000-4000-8000-000000000000');
    add(page[1].id, t0 + 5000, 'invocation_error', 'manual', '00000000-0000-4000-8000-000000000000');
    add(page[2].id, t0 + 9000, 'success');
    await insertRuns(db, runs);
    const got = await lastRunStatuses({ db, actor: user, revision: scheduler, scheduleIds: page.map((s) => s.id) });
    expect(got).toEqual({
      [page[0].id]: { status: 'limit_exceeded', trigger: 'manual', created_at: new Date(t0 + 2000).toISOString(), outcome: null },
      [page[1].id]: { status: 'success', trigger: 'schedule', created_at: new Date(t0 + 5000).toISOString(), outcome: null },
      [page[2].id]: { status: 'success', trigger: 'schedule', created_at: new Date(t0 + 9000).toISOString(), outcome: null },
    });
    // The seeded scheduler's schedules are not this scheduler's: asked through this one, they have no runs.
    const seeded = await db.schedule.findFirstOrThrow({ where: { revisionId: { not: scheduler.id } } });
    expect(await lastRunStatuses({ db, actor: user, revision: scheduler, scheduleIds: [seeded.id] })).toEqual({});
  });

  it('filters by the newest run\'s outcome, and the last-run column carries that outcome (SPEC §16.3)', async () => {
    const own = await db.revision.create({ data: { blobId: scheduler.blobId, state: 'draft' } });
    const revision = { id: own.id, blobId: scheduler.blobId };
    const names = ['o-ok', 'o-failed-after-ok', 'o-ok-then-error', 'o-timed-out-after-skip', 'o-never', 'o-running'];
    const ids = await insertSchedules(db, names.map((alias) => ({ revisionId: own.id, alias, createdBy: { type: 'user' as const, id: user.id }, invocationTarget: {}, nextFireAt: null })));
    const id = Object.fromEntries(names.map((n, i) => [n, ids[i]]));
    const t0 = Date.parse('2030-05-01T00:00:00Z');
    const runs: { row: RunInsert; outcome: string | null }[] = [];
    const add = (scheduleId: string, ms: number, status: string, outcome: string | null) =>
      runs.push({ row: { id: randomUUID(), scheduleId, scheduledFor: new Date(t0 + ms), trigger: 'schedule', status, result: {}, executionId: null, createdAt: new Date(t0 + ms) }, outcome });
    add(id['o-ok'], 1000, 'success', 'succeeded');
    add(id['o-failed-after-ok'], 1000, 'success', 'succeeded');
    add(id['o-failed-after-ok'], 2000, 'success', 'failed');
    add(id['o-ok-then-error'], 1000, 'success', 'succeeded');
    add(id['o-ok-then-error'], 2000, 'invocation_error', null);
    add(id['o-timed-out-after-skip'], 1000, 'skipped', null);
    add(id['o-timed-out-after-skip'], 2000, 'success', 'timed_out');
    add(id['o-running'], 3000, 'success', 'running');
    await insertRuns(db, runs.map((r) => r.row));
    for (const r of runs) if (r.outcome) await db.run.update({ where: { id: r.row.id }, data: { outcome: r.outcome } });

    const filtered = async (outcome: RunOutcomeState) => (await browseSchedules({ db, actor: user, revision, outcome, sort: 'name' })).schedules.map((x) => x.alias);
    expect(await filtered('succeeded')).toEqual(['o-ok']);
    expect(await filtered('failed')).toEqual(['o-failed-after-ok']);
    expect(await filtered('timed_out')).toEqual(['o-timed-out-after-skip']);
    expect(await filtered('running')).toEqual(['o-running']);
    expect(await filtered('pending')).toEqual([]);
    const page = await browseSchedules({ db, actor: user, revision, outcome: 'failed' });
    expect([page.total, page.pageCount]).toEqual([1, 1]);
    // The column shows the same newest run's outcome (null where the newest run has none).
    const last = await lastRunStatuses({ db, actor: user, revision, scheduleIds: ids });
    expect(Object.fromEntries(names.map((n) => [n, last[id[n]]?.outcome]))).toEqual({
      'o-ok': 'succeeded', 'o-failed-after-ok': 'failed', 'o-ok-then-error': null, 'o-timed-out-after-skip': 'timed_out', 'o-never': undefined, 'o-running': 'running',
    });
    // The schedule page's "in progress since": the oldest open run, from its /start (else its delivery).
    expect(await inProgressRun({ db, actor: user, revision, scheduleId: id['o-ok'] })).toBeNull();
    const open = runs.find((r) => r.outcome === 'running')!.row;
    await db.run.update({ where: { id: open.id }, data: { startedAt: new Date(t0 + 3500), outcomeDueAt: new Date(t0 + 63_500) } });
    expect(await inProgressRun({ db, actor: user, revision, scheduleId: id['o-running'] })).toEqual({
      run_id: open.id, outcome: 'running', since: new Date(t0 + 3500).toISOString(), due_at: new Date(t0 + 63_500).toISOString(),
    });
    // Asked through another scheduler, it is not there.
    expect(await inProgressRun({ db, actor: user, revision: scheduler, scheduleId: id['o-running'] })).toBeNull();
  });

  it('lists the pending attempts of a page\'s schedules, soonest due first, and only of this scheduler (the grid\'s "retrying", SPEC §12.2)', async () => {
    const [a, b] = all.filter((s) => s.state === 'active');
    const seeded = await db.schedule.findFirstOrThrow({ where: { revisionId: { not: scheduler.id } } });
    const t0 = Date.parse('2030-03-01T00:00:00Z');
    const at = (ms: number) => new Date(t0 + ms);
    await db.pendingAttempt.createMany({
      data: [
        // a: two occurrences being retried (a short interval, a long back-off): the sooner due first.
        { scheduleId: a.id, scheduledFor: at(0), attempt: 4, dueAt: at(480_000) },
        { scheduleId: a.id, scheduledFor: at(60_000), attempt: 2, dueAt: at(120_000) },
        // Another scheduler's schedule, asked for through this one: not listed.
        { scheduleId: seeded.id, scheduledFor: at(0), attempt: 2, dueAt: at(60_000) },
      ],
    });
    try {
      expect(await pendingRetries({ db, actor: user, revision: scheduler, scheduleIds: [a.id, b.id, seeded.id] })).toEqual({
        [a.id]: [
          { scheduled_for: at(60_000).toISOString(), attempt: 2, due_at: at(120_000).toISOString() },
          { scheduled_for: at(0).toISOString(), attempt: 4, due_at: at(480_000).toISOString() },
        ],
      });
      expect(await pendingRetries({ db, actor: user, revision: scheduler, scheduleIds: [] })).toEqual({});
    } finally {
      await db.pendingAttempt.deleteMany({ where: { scheduleId: { in: [a.id, seeded.id] } } });
    }
  });

  it('finds a rate schedule by its rate expression (SPEC §12.1 cadence in the grid search)', async () => {
    const own = await db.revision.create({ data: { blobId: scheduler.blobId, state: 'draft' } });
    const target = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] };
    const [rate, cron] = await insertSchedules(db, [
      { revisionId: own.id, createdBy: { type: 'user', id: user.id }, nextFireAt: null, invocationTarget: target },
      { revisionId: own.id, createdBy: { type: 'user', id: user.id }, nextFireAt: null, invocationTarget: target, cronExpression: '0 7 * * ? *' },
    ]);
    await db.schedule.update({ where: { id: rate }, data: { repeat: 'recurring_rate', cronExpression: null, rateExpression: '7 hours' } });
    const found = async (query: string) => (await browseSchedules({ db, actor: user, revision: { id: own.id, blobId: scheduler.blobId }, query })).schedules.map((s) => s.id);
    expect(await found('7 hours')).toEqual([rate]);
    expect(await found('0 7 *')).toEqual([cron]);
  });

  it('counts the active schedules that are enabled and disabled', async () => {
    const active = all.filter((s) => s.state === 'active');
    expect(await enabledCounts({ db, actor: user, revision: scheduler })).toEqual({
      enabled: active.filter((s) => s.enabled).length,
      disabled: active.filter((s) => !s.enabled).length,
      bulkPaused: 0,
    });
    expect(active.filter((s) => !s.enabled).length).toBeGreaterThan(0);
  });

  it('finds non-ASCII text typed as written, lower-case, upper-case or capitalized, on both dialects', async () => {
    const own = await db.revision.create({ data: { blobId: scheduler.blobId, state: 'draft' } });
    const revision = { id: own.id, blobId: scheduler.blobId };
    const fixture = (description: string): ScheduleFixture => ({
      revisionId: own.id,
      createdBy: { type: 'user', id: user.id },
      description,
      nextFireAt: null,
      invocationTarget: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] },
    });
    const [transfer, summer, plain] = await insertSchedules(db, [fixture('Überweisung prüfen #03'), fixture('ÉTÉ À PARIS'), fixture('plain ascii')]);
    const found = async (query: string) => (await browseSchedules({ db, actor: user, revision, query })).schedules.map((s) => s.id);
    for (const q of ['Überweisung', 'überweisung', 'ÜBERWEISUNG', 'prüfen', 'PRÜFEN', 'Prüfen']) expect(await found(q), q).toEqual([transfer]);
    for (const q of ['été', 'ÉTÉ', 'Été à paris']) expect(await found(q), q).toEqual([summer]);
    expect(await found('PLAIN')).toEqual([plain]);
    expect(await found('ü')).toEqual([transfer]);
  });
});
