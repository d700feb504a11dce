/**
 * SPEC §18.2 **Resume with catch-up**: enable a disabled schedule (it continues from now) and backfill
 * (`missing`, `max_concurrency: 1`) what it missed while paused, from `paused.at` to now — all or
 * nothing, in one transaction (decision 350). A one-time schedule whose instant passed while it was
 * disabled is enabled with no occurrence of its own left, and the backfill fires that instant
 * (decision 351).
 */
import type { Actor } from '../../auth';
import type { Limits } from '../../config';
import { resolveLocalTime } from '../../cron';
import { inTransaction, lockSchedule, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { BACKFILL_DRY_RUN_INSTANTS, BACKFILL_MAX_OCCURRENCES, type Backfill, type ResumeDryRun, type Schedule } from '../contract';
import { getScheduleRow } from '../read/find-schedule';
import type { SaveRules } from '../save/save-schedule';
import { checkUpdate, updateScheduleIn, type UpdateScheduleOptions } from '../save/update-schedule';
import { getBackfill, selectBackfill, storeBackfill, type BackfillScheduleOptions } from './backfills';

export interface ResumeWithCatchUpOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  limits: Limits;
  /** Id or alias. */
  scheduleRef: string;
  /** SPEC §15: the `version` the operator last read; another is `409 version_conflict`. Absent: no check. */
  expectedVersion?: number;
  /** The request's instant (UTC): the end of the range backfilled. */
  now: Date;
}

/**
 * The enable's rules of time (SPEC §18.2 "continues from now"): a one-time schedule whose instant is
 * not after now has no occurrence of its own left — it is not refused as a new schedule's past
 * `invocation_time` would be (SPEC §5.2 is a save-time rule for the instant being set, not one this
 * request sets); the backfill over the paused interval fires it. Any other timing: the product's rule.
 */
const RESUME_RULES: SaveRules = {
  firstOccurrence(timing, now, limits, product) {
    if (timing.repeat === 'one_time' && resolveLocalTime(timing.invocationTime ?? '', timing.timezone).getTime() <= now.getTime()) return { at: null, missed: false };
    return { at: product(timing, now, limits), missed: false };
  },
};

/** The backfill a resume makes: `missing` over the paused interval, one at a time (decision 300). */
function catchUpBackfill(opts: ResumeWithCatchUpOptions, scheduleId: string, from: Date): BackfillScheduleOptions {
  return { db: opts.db, actor: opts.actor, revision: opts.revision, scheduleRef: scheduleId, from, to: opts.now, reprocess: 'missing', maxConcurrency: 1, now: opts.now };
}

function enableOptions(opts: ResumeWithCatchUpOptions): UpdateScheduleOptions {
  return { ...opts, input: { enabled: true }, rules: RESUME_RULES };
}

/** The locked schedule and its paused interval's start (null: no pause recorded, or not before now). */
async function pausedSince(tx: Tx, opts: ResumeWithCatchUpOptions): Promise<{ id: string; from: Date | null }> {
  const found = await getScheduleRow(tx, opts.revision.id, opts.scheduleRef);
  const row = (await lockSchedule(tx, found.id)) ?? found;
  const from = !row.enabled && row.pausedAt && row.pausedAt.getTime() < opts.now.getTime() ? row.pausedAt : null;
  return { id: row.id, from };
}

/** A too-large catch-up says what was (not) done and what the operator can do instead. */
function explain(e: unknown, from: Date): unknown {
  if (!(e instanceof DomainError) || e.code !== 'backfill_too_large') return e;
  return new DomainError(
    'backfill_too_large',
    `the schedule missed more than ${BACKFILL_MAX_OCCURRENCES.toLocaleString('en-US')} occurrences while paused (since ${from.toISOString()}), more than one backfill takes; nothing was changed. Resume it without catch-up (Enable), then backfill a narrower range with Backfill…`,
  );
}

/**
 * Resume with catch-up (SPEC §18.2): in ONE transaction, enable the schedule (as `update_schedule
 * {enabled: true}`, with `expectedVersion`) and store the backfill of what it missed while paused;
 * either both are written or neither (a refusal of either rolls the other back). Answers the schedule
 * as enabled and the backfill (null when no pause is recorded or nothing was missed: no backfill is
 * stored then). Needs `write`. Throws
 * `404 schedule_not_found`, `409 version_conflict`, `409 schedule_completed`, `400 backfill_too_large`
 * (over 10,000 missed occurrences: nothing changed, the message says what to do instead), and the
 * SPEC §5.2 codes of the enable.
 */
export async function resumeWithCatchUp(opts: ResumeWithCatchUpOptions): Promise<{ schedule: Schedule; backfill: Backfill | null }> {
  const { schedule, backfillId } = await inTransaction(opts.db, async (tx) => {
    const { id, from } = await pausedSince(tx, opts);
    const enabled = await updateScheduleIn(tx, enableOptions(opts), { enabled: true });
    if (!from) return { schedule: enabled, backfillId: null };
    // All or nothing: a refused backfill throws, and the transaction rolls the enable back with it.
    const options = catchUpBackfill(opts, id, from);
    const selected = await selectBackfill(tx, options).catch((e: unknown) => {
      throw explain(e, from);
    });
    // Nothing missed (no occurrence in the paused interval, or an earlier catch-up still running
    // covers them all): the schedule is only enabled, as the preview says; no backfill of 0 is stored.
    if (selected.instants.length === 0) return { schedule: enabled, backfillId: null };
    return { schedule: enabled, backfillId: await storeBackfill(tx, options, selected) };
  });
  const backfill = backfillId ? await getBackfill({ db: opts.db, actor: opts.actor, revision: opts.revision, backfillRef: backfillId }) : null;
  return { schedule, backfill };
}

/**
 * Resume with catch-up's dry run: every check `resumeWithCatchUp` makes (the enable's and the
 * backfill's, same errors), and what its backfill would fire — the count and the first 20 instants.
 * Writes nothing.
 */
export async function dryRunResumeWithCatchUp(opts: ResumeWithCatchUpOptions): Promise<ResumeDryRun> {
  return inTransaction(opts.db, async (tx) => {
    const { id, from } = await pausedSince(tx, opts);
    await checkUpdate(tx, enableOptions(opts), { enabled: true }, true);
    const to = opts.now.toISOString();
    if (!from) return { dry_run: true, from: null, to, total: 0, first: [] };
    // The schedule is still disabled here: it has no pending occurrence, so the selection is the one
    // the resume makes after enabling (its next occurrence is after now, past every instant selected).
    const { instants } = await selectBackfill(tx, catchUpBackfill(opts, id, from)).catch((e: unknown) => {
      throw explain(e, from);
    });
    return { dry_run: true, from: from.toISOString(), to, total: instants.length, first: instants.slice(0, BACKFILL_DRY_RUN_INSTANTS).map((d) => d.toISOString()) };
  });
}
