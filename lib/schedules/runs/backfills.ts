/**
 * SPEC §18.1 backfills: `backfill_schedule` (and its dry run), `list_backfills`, `get_backfill`,
 * `cancel_backfill`. A backfill selects its occurrences once, when it is made (`backfill_occurrences`,
 * in firing order); the worker fires them (lib/engine/backfill.ts). Progress is read from the runs its
 * fires recorded (trigger `backfill:<id>`), so it is exact whatever crashed in between.
 */
import type { Actor } from '../../auth';
import { inTransaction, lockSchedule, type Db, type Tx } from '../../db';
import { occurrencesInRange } from '../../engine';
import { DomainError } from '../../errors';
import { isIdShape, newId, normalizeRef } from '../../ids';
import { backfillTrigger } from '../../targets';
import { requireSchedulerRole } from '../access';
import { recordActivity } from '../activity';
import {
  BACKFILL_DRY_RUN_INSTANTS,
  BACKFILL_MAX_OCCURRENCES,
  BACKFILL_ORDERS,
  BACKFILL_REPROCESS,
  BACKFILL_STATES,
  SCHEDULE_CLIENT_TOKEN_TTL_MS,
  type Backfill,
  type BackfillDryRun,
} from '../contract';
import { getScheduleRow } from '../read/find-schedule';
import { resolveBackfillBound, type BackfillBound } from './backfill-bounds';
import { findClientToken, rememberClientToken, requestHash } from '../save/client-tokens';
import { isUniqueViolation } from '../../workflows';

/** Page size of `list_backfills`. */
export const BACKFILLS_PAGE_SIZE = 20;
/** Rows per insert of a backfill's occurrences (10,000 at most). */
const INSERT_CHUNK = 500;

interface Scope {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
}

export interface BackfillScheduleOptions extends Scope {
  /** Id or alias. */
  scheduleRef: string;
  /** Exclusive; an instant, or text read by `resolveBackfillBound` in the schedule's timezone. */
  from: BackfillBound;
  /** Inclusive; as `from`. */
  to: BackfillBound;
  reprocess?: (typeof BACKFILL_REPROCESS)[number];
  maxConcurrency?: number;
  order?: (typeof BACKFILL_ORDERS)[number];
  now: Date;
  /**
   * An idempotency token (≤ 64 chars; decision 353): the same caller's retry with the same token and
   * the same request within 24 h answers the first backfill (as it is now) and makes no second one;
   * with another request it is `409 client_token_reused`.
   */
  clientToken?: string;
}

/** What a save's checks selected: the schedule, and the occurrences to fire in firing order. */
export interface Selection {
  schedule: { id: string; name: string; alias: string | null };
  /** The range's bounds as instants (`resolveBackfillBound`). */
  from: Date;
  to: Date;
  instants: Date[];
}

/**
 * The occurrences `backfill_schedule` would fire (SPEC §18.1), in the caller's transaction: the
 * checks, then the selection by `reprocess`, in `order`. Throws `404 schedule_not_found`,
 * `409 schedule_completed`, `400 invalid_backfill_range`, `400 backfill_too_large`.
 */
export async function selectBackfill(tx: Tx, opts: BackfillScheduleOptions): Promise<Selection> {
  const { now } = opts;
  await requireSchedulerRole(tx, opts.actor, opts.revision.blobId, 'write');
  const found = await getScheduleRow(tx, opts.revision.id, opts.scheduleRef);
  // Locked until the backfill is stored: two backfills of one schedule select one after the other,
  // so the second sees the first's queued occurrences (below), and the worker's fire cannot move
  // the schedule's next occurrence in between.
  const row = (await lockSchedule(tx, found.id)) ?? found;
  if (row.state === 'completed') throw new DomainError('schedule_completed', 'this schedule is completed; it can no longer fire');
  const from = resolveBackfillBound(opts.from, row.timezone, 'from');
  const to = resolveBackfillBound(opts.to, row.timezone, 'to');
  if (from.getTime() >= to.getTime()) throw new DomainError('invalid_backfill_range', '`from` must be before `to` (occurrences with from < scheduled_for ≤ to are fired)', { path: 'from' });
  if (to.getTime() > now.getTime()) throw new DomainError('invalid_backfill_range', `\`to\` must not be after now (${now.toISOString()}): a backfill fires past occurrences only`, { path: 'to' });
  const all = occurrencesInRange(row, from, to, BACKFILL_MAX_OCCURRENCES);
  if (all.length > BACKFILL_MAX_OCCURRENCES) {
    throw new DomainError('backfill_too_large', `the range holds more than ${BACKFILL_MAX_OCCURRENCES.toLocaleString('en-US')} occurrences; backfill a shorter range`, { path: 'to' });
  }
  const reprocess = opts.reprocess ?? 'missing';
  // The schedule's own occurrences from its pending one on are the worker's to fire (on time, or
  // by its catch-up policy): a backfill never fires them too. A disabled schedule has none (enabling
  // continues from now, SPEC §18.2).
  const own = row.enabled ? (row.nextScheduledFor ?? row.nextFireAt) : null;
  let instants = own ? all.filter((at) => at.getTime() < own.getTime()) : all;
  if (reprocess !== 'all' && instants.length > 0) {
    const keep = await selectable(tx, row.id, from, to, reprocess, row.completionExpectSeconds !== null);
    instants = instants.filter((at) => keep(at));
  }
  if ((opts.order ?? 'oldest_first') === 'newest_first') instants = [...instants].reverse();
  return { schedule: { id: row.id, name: row.name, alias: row.alias }, from, to, instants };
}

/**
 * Whether an occurrence is selected by `reprocess` (SPEC §18.1): `missing` — no run of any trigger
 * (nor an attempt pending or in flight, nor a place in another running backfill's queue) at its instant; `failed` — those, and the ones whose last attempt (the
 * newest run at the instant, any trigger) failed with nothing left to try, or whose outcome failed.
 */
async function selectable(tx: Tx, scheduleId: string, from: Date, to: Date, reprocess: 'missing' | 'failed', expectsCompletion: boolean): Promise<(at: Date) => boolean> {
  const range = { scheduleId, scheduledFor: { gt: from, lte: to } };
  const [runs, pending, queued] = await Promise.all([
    tx.run.findMany({ where: range, select: { scheduledFor: true, status: true, outcome: true, nextAttemptAt: true, createdAt: true, attempt: true } }),
    tx.pendingAttempt.findMany({ where: range, select: { scheduledFor: true } }),
    // Occurrences another running backfill of the schedule has yet to fire: they are on their way.
    tx.backfillOccurrence.findMany({ where: { firedAt: null, scheduledFor: range.scheduledFor, backfill: { scheduleId, state: 'running' } }, select: { scheduledFor: true } }),
  ]);
  const last = new Map<number, (typeof runs)[number]>();
  for (const r of runs) {
    const k = r.scheduledFor.getTime();
    const seen = last.get(k);
    if (!seen || r.createdAt > seen.createdAt || (r.createdAt.getTime() === seen.createdAt.getTime() && r.attempt > seen.attempt)) last.set(k, r);
  }
  const busy = new Set([...pending, ...queued].map((p) => p.scheduledFor.getTime()));
  return (at) => {
    const k = at.getTime();
    const r = last.get(k);
    if (!r) return !busy.has(k);
    if (reprocess === 'missing' || busy.has(k)) return false;
    return endedOf(r, expectsCompletion) === 'failed';
  };
}

/** How a run leaves its occurrence: `succeeded`, `failed`, or null while it goes on (a retry pending, an open outcome). */
function endedOf(r: { status: string; outcome: string | null; nextAttemptAt: Date | null }, expectsCompletion: boolean): 'succeeded' | 'failed' | null {
  if (r.status === 'success') {
    if (r.outcome === 'failed' || r.outcome === 'timed_out') return 'failed';
    if (expectsCompletion && (r.outcome === 'pending' || r.outcome === 'running')) return null;
    return 'succeeded';
  }
  return r.nextAttemptAt ? null : 'failed';
}

/** `backfill_schedule` with `dry_run: true`: the count and the first 20 instants, in firing order. Writes nothing. */
export async function dryRunBackfill(opts: BackfillScheduleOptions): Promise<BackfillDryRun> {
  const { instants } = await inTransaction(opts.db, (tx) => selectBackfill(tx, opts));
  return { dry_run: true, total: instants.length, first: instants.slice(0, BACKFILL_DRY_RUN_INSTANTS).map((d) => d.toISOString()) };
}

/**
 * `backfill_schedule` (SPEC §18.1): select the occurrences and store the backfill, in one transaction
 * with its activity entry; the worker fires them. Needs `write`. A selection of none is stored
 * `completed`.
 */
export async function backfillSchedule(opts: BackfillScheduleOptions): Promise<Backfill> {
  const { db, actor, revision, now } = opts;
  const key = `backfill_schedule:${revision.id}:${actor.type}:${actor.id}:${opts.clientToken}`;
  /**
   * The request as the backfill reads it: the schedule's id, the bounds as instants, the defaults
   * filled in — a retry naming the schedule by alias or id, or the same instants in another form, is
   * the same request.
   */
  const hashOf = async (tx: Tx | Db): Promise<string> => {
    const row = await getScheduleRow(tx as Tx, revision.id, opts.scheduleRef);
    const at = (b: BackfillBound, path: 'from' | 'to') => resolveBackfillBound(b, row.timezone, path).toISOString();
    return requestHash({ schedule: row.id, from: at(opts.from, 'from'), to: at(opts.to, 'to'), reprocess: opts.reprocess ?? 'missing', max_concurrency: opts.maxConcurrency ?? 1, order: opts.order ?? 'oldest_first' });
  };
  /** The first backfill's id for this token, or null when the token is new (or expired). */
  const replay = async (tx: Tx | Db): Promise<string | null> => {
    const seen = opts.clientToken ? await findClientToken(tx as Tx, key, now) : null;
    if (!seen) return null;
    if (seen.requestHash !== (await hashOf(tx))) {
      throw new DomainError('client_token_reused', `client_token "${opts.clientToken}" was already used for a backfill with another request; send a new token for a new backfill`, { path: 'client_token' });
    }
    return (seen.response as { backfill_id: string }).backfill_id;
  };
  let id: string;
  try {
    id = await inTransaction(db, async (tx) => {
      // Exactly once per token: read under the write lock (SQLite's BEGIN IMMEDIATE); on PostgreSQL a
      // twin that commits first makes rememberClientToken below violate the key and roll this back.
      const first = await replay(tx);
      if (first) return first;
      const made = await storeBackfill(tx, opts);
      if (opts.clientToken) await rememberClientToken(tx, { key, requestHash: await hashOf(tx), response: { backfill_id: made }, now, ttlMs: SCHEDULE_CLIENT_TOKEN_TTL_MS });
      return made;
    });
  } catch (e) {
    const twin = isUniqueViolation(e) && opts.clientToken ? await replay(db) : null;
    if (!twin) throw e;
    id = twin;
  }
  return getBackfill({ db, actor, revision, backfillRef: id });
}

/**
 * `backfillSchedule`'s writes in the caller's transaction (Resume with catch-up enables and backfills
 * in one): select, store the backfill, its occurrences and its activity entry. Answers its id. Same errors.
 * `selected`: the caller's `selectBackfill` of these same options in this transaction (not selected again).
 */
export async function storeBackfill(tx: Tx, opts: BackfillScheduleOptions, selected?: Selection): Promise<string> {
  const { actor, now } = opts;
  const id = newId();
  const { schedule, from, to, instants } = selected ?? (await selectBackfill(tx, opts));
  const empty = instants.length === 0;
  await tx.backfill.create({
    data: {
      id,
      revisionId: opts.revision.id,
      scheduleId: schedule.id,
      rangeFrom: from,
      rangeTo: to,
      reprocess: opts.reprocess ?? 'missing',
      maxConcurrency: opts.maxConcurrency ?? 1,
      fireOrder: opts.order ?? 'oldest_first',
      total: instants.length,
      state: empty ? 'completed' : 'running',
      ...createdBy(actor),
      createdAt: now,
      finishedAt: empty ? now : null,
    },
  });
  // Serialization is desired: one transaction client runs one statement at a time.
  for (let i = 0; i < instants.length; i += INSERT_CHUNK) {
    await tx.backfillOccurrence.createMany({ data: instants.slice(i, i + INSERT_CHUNK).map((at, k) => ({ backfillId: id, seq: i + k + 1, scheduledFor: at })) });
  }
  await recordActivity(tx, { revisionId: opts.revision.id, schedule, action: 'backfill', backfillId: id, count: instants.length, by: actor, at: now });
  return id;
}

function createdBy(actor: Actor): { createdByType: string; createdById: string } {
  return actor.accessKeyId ? { createdByType: 'access_key', createdById: actor.accessKeyId } : { createdByType: actor.type, createdById: actor.id };
}

type BackfillRow = Awaited<ReturnType<Db['backfill']['findFirstOrThrow']>>;

/** A backfill row and its progress, read from its runs (see the top of this file). */
async function toBackfill(db: Db | Tx, row: BackfillRow): Promise<Backfill> {
  const schedule = await db.schedule.findUnique({ where: { id: row.scheduleId }, select: { completionExpectSeconds: true } });
  const runs = await db.run.findMany({
    where: { scheduleId: row.scheduleId, trigger: backfillTrigger(row.id), scheduledFor: { gt: row.rangeFrom, lte: row.rangeTo } },
    select: { scheduledFor: true, attempt: true, status: true, outcome: true, nextAttemptAt: true },
  });
  const last = new Map<number, (typeof runs)[number]>();
  for (const r of runs) {
    const seen = last.get(r.scheduledFor.getTime());
    if (!seen || r.attempt > seen.attempt) last.set(r.scheduledFor.getTime(), r);
  }
  let succeeded = 0;
  let failed = 0;
  for (const r of last.values()) {
    const ended = endedOf(r, schedule?.completionExpectSeconds != null);
    if (ended === 'succeeded') succeeded++;
    else if (ended === 'failed') failed++;
  }
  const inFlight = Math.max(0, row.fired - succeeded - failed);
  const stored = BACKFILL_STATES.find((s) => s === row.state) ?? 'running';
  // Every occurrence fired and ended: completed, as the worker records it on its next pass.
  const state = stored === 'running' && row.fired >= row.total && inFlight === 0 ? 'completed' : stored;
  const by = row.createdByType === 'user' || row.createdByType === 'org' || row.createdByType === 'access_key' ? row.createdByType : 'user';
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    from: row.rangeFrom.toISOString(),
    to: row.rangeTo.toISOString(),
    reprocess: BACKFILL_REPROCESS.find((r) => r === row.reprocess) ?? 'missing',
    max_concurrency: row.maxConcurrency,
    order: BACKFILL_ORDERS.find((o) => o === row.fireOrder) ?? 'oldest_first',
    state,
    total: row.total,
    fired: row.fired,
    succeeded,
    failed,
    in_flight: inFlight,
    created_by: { type: by, id: row.createdById },
    created_at: row.createdAt.toISOString(),
    ...(row.finishedAt ? { finished_at: row.finishedAt.toISOString() } : {}),
  };
}

/** The backfill `ref` (its id) of this scheduler, or `404 backfill_not_found`. */
async function requireBackfill(db: Db | Tx, revisionId: string, ref: string): Promise<BackfillRow> {
  const id = normalizeRef(ref);
  const row = isIdShape(id) ? await db.backfill.findFirst({ where: { id, revisionId } }) : null;
  if (!row) throw new DomainError('backfill_not_found', 'backfill not found', { path: 'backfill_id' });
  return row;
}

/** `get_backfill` (SPEC §18.1): one backfill with its progress. Needs `read`. */
export async function getBackfill(opts: Scope & { backfillRef: string }): Promise<Backfill> {
  await requireSchedulerRole(opts.db, opts.actor, opts.revision.blobId, 'read');
  return toBackfill(opts.db, await requireBackfill(opts.db, opts.revision.id, opts.backfillRef));
}

/**
 * `list_backfills` (SPEC §18.1): the scheduler's backfills, or one schedule's, 20 a page, newest
 * first. Needs `read`. Throws `404 schedule_not_found`, `400 invalid_request_body` (cursor).
 */
export async function listBackfills(opts: Scope & { scheduleRef?: string; startBackfillId?: string | null; pageSize?: number }): Promise<{ backfills: Backfill[]; last_backfill_id: string | null }> {
  const { db, revision } = opts;
  const size = opts.pageSize ?? BACKFILLS_PAGE_SIZE;
  await requireSchedulerRole(db, opts.actor, revision.blobId, 'read');
  const scheduleId = opts.scheduleRef !== undefined ? (await getScheduleRow(db, revision.id, opts.scheduleRef)).id : undefined;
  const scope = { revisionId: revision.id, ...(scheduleId ? { scheduleId } : {}) };
  let cursor: { createdAt: Date; id: string } | null = null;
  if (opts.startBackfillId) {
    const id = normalizeRef(opts.startBackfillId);
    cursor = isIdShape(id) ? await db.backfill.findFirst({ where: { id, ...scope }, select: { createdAt: true, id: true } }) : null;
    if (!cursor) throw new DomainError('invalid_request_body', 'start_backfill_id is not a backfill of this list', { path: 'start_backfill_id' });
  }
  const rows = await db.backfill.findMany({
    where: { ...scope, ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: size + 1,
  });
  const page = rows.slice(0, size);
  const backfills: Backfill[] = [];
  // Serialization is desired: each progress read is one statement; a page holds at most 20.
  for (const row of page) backfills.push(await toBackfill(db, row));
  return { backfills, last_backfill_id: rows.length > size ? page[page.length - 1].id : null };
}

/**
 * `cancel_backfill` (SPEC §18.1): a running backfill becomes `cancelled` and nothing more of it is
 * claimed (the worker claims only running ones, under the same row); what is in flight ends as it
 * would. A backfill already completed or cancelled is answered as it is. Needs `write`.
 */
export async function cancelBackfill(opts: Scope & { backfillRef: string; now: Date }): Promise<Backfill> {
  const { db, actor, revision, now } = opts;
  await inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const row = await requireBackfill(tx, revision.id, opts.backfillRef);
    const { count } = await tx.backfill.updateMany({ where: { id: row.id, state: 'running' }, data: { state: 'cancelled', finishedAt: now } });
    if (count === 0) return;
    const schedule = await tx.schedule.findUnique({ where: { id: row.scheduleId }, select: { id: true, name: true, alias: true } });
    if (schedule) await recordActivity(tx, { revisionId: revision.id, schedule, action: 'cancel_backfill', backfillId: row.id, by: actor, at: now });
  });
  return getBackfill({ db, actor, revision, backfillRef: opts.backfillRef });
}
