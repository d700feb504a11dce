/**
 * The save path shared by create and update (SPEC §5.2, §6.3, §12): every rule that needs the clock,
 * the configuration or the database, after the contract schema has passed. Nothing is written here;
 * the caller writes the returned fields in its own transaction.
 */
import { minIntervalSeconds, parseRateExpression, resolveLocalTime } from '../../cron';
import { readOrgAwsIn, type Actor } from '../../auth';
import type { HttpAllowList, Limits } from '../../config';
import { orgOfBlob, type Tx } from '../../db';
import { fireAtOf, nextOccurrenceInWindow, rateAnchorFor, type ScheduleTiming } from '../../engine';
import { DomainError, parseOrRefuse } from '../../errors';
import { checkAwsArnAtSave, deadLetterRole, DEFAULT_TARGET_TYPE, driverOf, NO_ALLOWED_HOSTS, targetTypeOf, type HostResolver } from '../../targets';
import type { MissingTargetSession } from '../../workflows';
import { requireSchedulerRole } from '../access';
import { CADENCE_FIELD, SCHEDULE_INFO_FIELDS, EVENTBRIDGE_DEFAULT_RETRY, ScheduleCreateInput, StoredTargetScheduleInput, type TargetFields } from '../contract';

/** The columns a save writes (besides ids, creator, timestamps and the `paused` columns). */
export interface SavedFields extends ScheduleTiming {
  alias: string | null;
  description: string | null;
  /** SPEC §12.4 window in minutes, or null when `off`. */
  flexibleWindowMinutes: number | null;
  retryMaximumAttempts: number | null;
  retryMaximumEventAgeSeconds: number | null;
  deadLetterArn: string | null;
  /** SPEC §13.5 `dead_letter.role_arn`, or null. */
  deadLetterRoleArn: string | null;
  actionAfterCompletion: 'none' | 'delete';
  pauseAfterFailures: number | null;
  /** SPEC §16.1 `completion.expect_within_seconds`, or null. */
  completionExpectSeconds: number | null;
  /** SPEC §16.2. */
  overlapPolicy: 'allow_all' | 'skip' | 'buffer_one';
  /** SPEC §18.2 `catch_up`, all null when none. */
  catchUpWindowSeconds: number | null;
  catchUpMode: 'all' | 'latest' | 'none' | null;
  catchUpMaxBurst: number | null;
  enabled: boolean;
  invocationTargetType: TargetFields['invocation_target_type'];
  invocationTarget: TargetFields['invocation_target'];
  /** When the next occurrence fires (with its flexible-window offset), or null when disabled. */
  nextFireAt: Date | null;
  /** That occurrence itself, when an offset moved `nextFireAt` off it (schema: null = `nextFireAt`). */
  nextScheduledFor: Date | null;
  /** Set (to `completed`) only when a facade's rules of time (`SaveRules`) saved it already missed. */
  state?: 'completed';
  /** Occurrences missed at save (0 or 1, a facade's rules of time only). */
  skippedOccurrences?: number;
}

/**
 * How a facade's saves differ from the product's (SPEC §14), passed in by the facade: the product API,
 * the web app and the CLI pass none (SPEC §5.2).
 * - `firstOccurrence`: the first occurrence of a timing being saved and whether it is missed already,
 *   given the product's rule (`productFirstOccurrence`, which throws the SPEC §5.2 refusals) to fall
 *   back on; a missed one is saved `completed` with it counted in `skipped_occurrences`. `at: null`:
 *   the timing has no occurrence of its own left to fire, and none was missed (Resume with catch-up
 *   of a one-time schedule whose instant passed while it was disabled: a backfill fires that
 *   instant, decision 351); the schedule is saved with no `next_fire_at`.
 * - `storedTargets`: targets are taken with each type's stored schema, wider than the save schema
 *   (an `aws` target of any service, whose fires are `unsupported_target`).
 */
export interface SaveRules {
  firstOccurrence?(timing: ScheduleTiming, now: Date, limits: Limits, productFirstOccurrence: (timing: ScheduleTiming, now: Date, limits: Limits) => Date): { at: Date | null; missed: boolean };
  storedTargets?: boolean;
}

/**
 * Where a webhook may go although its address is refused by default (SPEC §13.1,
 * `SCHEDULER_HTTP_ALLOWED_HOSTS`, lib/config), and how its host is resolved. The edges pass the
 * process's configuration (`runtime()`); left out, nothing private is allowed.
 */
export interface DestinationOptions {
  /** Default: none (every loopback, private, link-local, multicast and metadata address refused). */
  httpAllowList?: HttpAllowList;
  /** Default: the system resolver (`dns.lookup`, every address). A seam for tests. */
  resolveHost?: HostResolver;
}

/** What a save would write, and the target session it still needs (dry runs only). */
export interface CheckedSchedule {
  fields: SavedFields;
  /** Set only with `allowMissingSession`: the target session alias the save needs created first. */
  missingSession?: MissingTargetSession;
  /** The one occurrence a facade's rules of time saved already missed (counted in `skippedOccurrences`): a `missed` alert (SPEC §17). */
  missedAt?: Date;
}

/**
 * Parse `input` with the create schema; throw the SPEC error of the first issue. `target: 'stored'`
 * takes each type's stored schema (`StoredTargetScheduleInput`): a facade's saves (`SaveRules.storedTargets`), and
 * an update that keeps its stored target.
 */
export function parseScheduleInput(input: unknown, target: 'save' | 'stored' = 'save'): ScheduleCreateInput {
  return parseOrRefuse(target === 'stored' ? StoredTargetScheduleInput : ScheduleCreateInput, input, SCHEDULE_INFO_FIELDS);
}

/** The stored schedule an update starts from (what the save keeps when the timing is unchanged). */
export interface StoredSchedule extends ScheduleTiming {
  flexibleWindowMinutes: number | null;
  enabled: boolean;
  nextFireAt: Date | null;
  nextScheduledFor: Date | null;
}

/**
 * The target checks a save runs BEFORE its transaction (SPEC §13.1: a webhook's URL is resolved and
 * every address checked, as a fire checks it again): the `checkBeforeSave` of the driver of the type
 * the request names (or, sent without its type, the type its keys read as). Slow I/O such as a DNS
 * lookup (up to seconds) must not hold the database's write lock, which the worker's claim waits for.
 * The saver's `write` access to the scheduler is checked first (as the save checks it again): a
 * refusal names where a host resolves, which only a writer may learn.
 * Throws `404 not_found` / `403 forbidden` (access), and the driver's refusal (`400
 * invalid_invocation_target`, e.g. path `invocation_target.url`, naming the refused address and
 * SCHEDULER_HTTP_ALLOWED_HOSTS, or that the host does not resolve).
 */
export async function checkTargetBeforeSave(
  sent: { invocation_target_type?: string; invocation_target?: unknown },
  saver: { db: Tx; actor: Actor; revision: { blobId: string } },
  opts: DestinationOptions,
): Promise<void> {
  const t = sent.invocation_target;
  if (typeof t !== 'object' || t === null) return;
  const driver = driverOf(sent.invocation_target_type ?? targetTypeOf(t as Record<string, unknown>));
  if (!driver?.checkBeforeSave) return;
  await requireSchedulerRole(saver.db, saver.actor, saver.revision.blobId, 'write');
  await driver.checkBeforeSave(t, { allowList: opts.httpAllowList ?? NO_ALLOWED_HOSTS, resolve: opts.resolveHost });
}

/**
 * What every save carries from its caller (create, update, and their dry runs): who saves, under
 * which limits, at which instant, by which API's rules. `CreateScheduleOptions` and
 * `UpdateScheduleOptions` extend it, so a save hands its options down whole.
 */
export interface SaveRequest {
  /** The saver: the target is checked with this standing (SPEC §6.3). */
  actor: Actor;
  limits: Limits;
  /** The request's instant (UTC). */
  now: Date;
  /** A facade's save rules (`SaveRules`). Default: the product's. */
  rules?: SaveRules;
  /** A facade's own write that must commit with the save or not at all (`AlsoInTransaction`). */
  alsoInTransaction?: AlsoInTransaction;
}

/**
 * A write a caller adds to a verb's transaction, run last inside it: it commits with the verb's
 * writes or not at all (the EventBridge API's `ClientToken`, lib/api/eventbridge/client-token.ts, so
 * that a retry after a connection lost at COMMIT finds the token whenever the change was saved).
 */
export type AlsoInTransaction = (tx: Tx) => Promise<void>;

/** What one save asks `checkSchedule` to check, beside its `SaveRequest`. */
export interface CheckScheduleOptions {
  /** The parsed fields, with the target of any type. */
  input: ScheduleCreateInput;
  /** The schedule's id (a create's new id): the flexible-window offset derives from it (SPEC §12.4). */
  scheduleId: string;
  /**
   * An update's stored schedule, or null for a create. When the update leaves the timing and
   * `enabled` as stored, the pending occurrence is kept (SPEC §8) and the clock rules are not applied
   * again (a one-time schedule whose occurrence is being retried has its time in the past).
   */
  stored: StoredSchedule | null;
  /** The scheduler's blob: its org's AWS settings apply (SPEC §13.5). */
  blobId: string;
  /** False on an update that leaves `invocation_target` as stored: it is not checked again. */
  checkTarget: boolean;
  /**
   * An update's stored target (the row's type and JSON), or null for a create: what a driver's `seal`
   * keeps a secret sent masked from (SPEC §13.5).
   */
  storedTarget?: { type: string; target: unknown } | null;
  /** False on an update that sends neither `dead_letter` nor `invocation_target`: the dead letter is not checked again (SPEC §13.5). */
  checkDeadLetter: boolean;
  /** A dry run: a target session alias that does not exist yet is reported, not refused (`checkInvocationTarget`). */
  allowMissingSession?: boolean;
}

/** True when `a` and `b` fire at the same occurrences (SPEC §8: the fields an edit must recompute for). */
export function sameTiming(a: StoredSchedule, b: StoredSchedule): boolean {
  const t = (d: Date | null) => d?.getTime() ?? null;
  return (
    a.repeat === b.repeat &&
    a.cronExpression === b.cronExpression &&
    a.rateExpression === b.rateExpression &&
    t(a.rateAnchor) === t(b.rateAnchor) &&
    a.invocationTime === b.invocationTime &&
    a.timezone === b.timezone &&
    t(a.startDate) === t(b.startDate) &&
    t(a.endDate) === t(b.endDate) &&
    a.flexibleWindowMinutes === b.flexibleWindowMinutes &&
    a.enabled === b.enabled
  );
}

/**
 * Check a parsed schedule against the clock, the limits and the catalog, and compute what to store.
 * Throws DomainError: `invalid_invocation_time` (past, outside the window), `invalid_date_window`
 * (end_date already passed, or no rate occurrence inside the window), `invalid_cron_expression`
 * (never fires inside the window), `interval_too_short` (cron or rate), `invalid_invocation_target`
 * (one identical refusal for every save-time check of a workflow target; for a webhook, the refused
 * address and SCHEDULER_HTTP_ALLOWED_HOSTS, SPEC §13.1). With a facade's `rules`, its rules of time
 * (`SaveRules.firstOccurrence`).
 */
export async function checkSchedule(db: Tx, request: SaveRequest, opts: CheckScheduleOptions): Promise<CheckedSchedule> {
  const { input, stored } = opts;
  const { now, limits, rules } = request;
  const startDate = input.start_date ? new Date(input.start_date) : null;
  const rateExpression = input.repeat === 'recurring_rate' ? (input.rate_expression ?? null) : null;
  // SPEC §12.1: changing rate_expression or start_date (or becoming a rate) re-anchors.
  const keepAnchor =
    stored !== null && stored.repeat === 'recurring_rate' && stored.rateExpression === rateExpression && (stored.startDate?.getTime() ?? null) === (startDate?.getTime() ?? null);
  const timing: ScheduleTiming = {
    repeat: input.repeat,
    cronExpression: input.repeat === 'recurring_cron' ? (input.cron_expression ?? null) : null,
    rateExpression,
    rateAnchor: rateExpression === null ? null : keepAnchor ? stored.rateAnchor : rateAnchorFor(startDate, now),
    invocationTime: input.repeat === 'one_time' ? (input.invocation_time ?? null) : null,
    timezone: input.timezone,
    startDate,
    endDate: input.end_date ? new Date(input.end_date) : null,
  };
  const window = input.flexible_time_window?.mode === 'flexible' ? input.flexible_time_window.maximum_window_minutes : null;
  const enabled = input.enabled ?? true;

  const keep = stored !== null && sameTiming(stored, { ...timing, flexibleWindowMinutes: window, enabled, nextFireAt: null, nextScheduledFor: null });
  let next: { fireAt: Date; scheduledFor: Date } | null = null;
  let missed = false;
  let missedAt: Date | undefined;
  if (keep) {
    next = stored.nextFireAt ? { fireAt: stored.nextFireAt, scheduledFor: stored.nextScheduledFor ?? stored.nextFireAt } : null;
  } else {
    const first = rules?.firstOccurrence ? rules.firstOccurrence(timing, now, limits, firstOccurrence) : { at: firstOccurrence(timing, now, limits), missed: false };
    missed = first.missed;
    if (missed && first.at) missedAt = first.at;
    next = enabled && !missed && first.at ? { scheduledFor: first.at, fireAt: fireAtOf(opts.scheduleId, window, first.at) } : null;
  }

  // SPEC §6.3: the driver's in-transaction check, with the saver's standing (only when the target is
  // sent: an update that keeps its stored target does not check it again).
  const type = input.invocation_target_type ?? DEFAULT_TARGET_TYPE;
  const driver = driverOf(type);
  const orgId = opts.checkTarget || (opts.checkDeadLetter && input.dead_letter) ? await orgOfBlob(db, opts.blobId) : '';
  const checked: { target: unknown; missingSession?: MissingTargetSession } =
    opts.checkTarget && driver?.checkAtSave
      ? await driver.checkAtSave(db, request.actor, input.invocation_target, { allowMissingSession: opts.allowMissingSession ?? false, orgId })
      : { target: input.invocation_target };
  // SPEC §13.5: an SQS dead letter is sent with the org's credentials, as an aws target is: its role
  // (its own, else the target's `role_arn`) required in `role` mode, its ARNs within allowed_accounts.
  if (opts.checkDeadLetter && input.dead_letter) {
    const role = deadLetterRole(input.dead_letter.role_arn, input.invocation_target);
    checkAwsArnAtSave(await readOrgAwsIn(db, orgId), input.dead_letter.arn, role, { arn: 'dead_letter.arn', role: 'dead_letter.role_arn' });
  }
  // SPEC §13.5: secrets are stored sealed, whichever API saves; a value sent masked keeps the stored one.
  const before = opts.storedTarget?.type === type ? opts.storedTarget.target : null;
  const target = driver?.seal ? driver.seal(checked.target, before) : checked.target;

  const retry = input.retry_policy ?? null;
  const fields: SavedFields = {
    ...timing,
    alias: input.alias ?? null,
    description: input.description ?? null,
    flexibleWindowMinutes: window,
    // A retry policy names what it sets; the other field takes its EventBridge default (SPEC §12.2).
    retryMaximumAttempts: retry ? (retry.maximum_retry_attempts ?? EVENTBRIDGE_DEFAULT_RETRY.maximum_retry_attempts) : null,
    retryMaximumEventAgeSeconds: retry ? (retry.maximum_event_age_seconds ?? EVENTBRIDGE_DEFAULT_RETRY.maximum_event_age_seconds) : null,
    deadLetterArn: input.dead_letter?.arn ?? null,
    deadLetterRoleArn: input.dead_letter?.role_arn ?? null,
    actionAfterCompletion: input.action_after_completion ?? 'none',
    pauseAfterFailures: input.pause_after_failures ?? null,
    completionExpectSeconds: input.completion?.expect_within_seconds ?? null,
    overlapPolicy: input.overlap_policy ?? 'allow_all',
    catchUpWindowSeconds: input.catch_up?.window_seconds ?? null,
    catchUpMode: input.catch_up?.mode ?? null,
    catchUpMaxBurst: input.catch_up?.max_burst ?? null,
    enabled,
    invocationTargetType: type,
    invocationTarget: target as TargetFields['invocation_target'],
    nextFireAt: next?.fireAt ?? null,
    nextScheduledFor: next && next.scheduledFor.getTime() !== next.fireAt.getTime() ? next.scheduledFor : null,
    ...(missed ? { state: 'completed' as const, skippedOccurrences: 1 } : {}),
  };
  return { fields, ...(checked.missingSession ? { missingSession: checked.missingSession } : {}), ...(missedAt ? { missedAt } : {}) };
}

/**
 * The first occurrence strictly after `now` of a timing being saved, after the clock rules of SPEC
 * §5.2 and §12.1 (a saved schedule must be able to fire). Throws the codes `checkSchedule` names.
 */
function firstOccurrence(timing: ScheduleTiming, now: Date, limits: Limits): Date {
  const field = CADENCE_FIELD[timing.repeat];
  if (timing.repeat === 'one_time') {
    const at = resolveLocalTime(timing.invocationTime ?? '', timing.timezone);
    if (at.getTime() <= now.getTime()) {
      throw new DomainError('invalid_invocation_time', `invocation_time ${timing.invocationTime} in ${timing.timezone} is in the past`, { path: 'invocation_time' });
    }
    const first = nextOccurrenceInWindow(timing, now);
    if (!first) throw new DomainError('invalid_invocation_time', 'invocation_time lies outside the start_date..end_date window', { path: 'invocation_time' });
    return first;
  }
  if (timing.endDate && timing.endDate.getTime() <= now.getTime()) {
    throw new DomainError('invalid_date_window', 'end_date is in the past, so the schedule could never fire', { path: 'end_date' });
  }
  const first = nextOccurrenceInWindow(timing, now);
  const minimum = limits.minIntervalSeconds;
  if (timing.repeat === 'recurring_rate') {
    if (!first) throw new DomainError('invalid_date_window', `rate_expression "${timing.rateExpression}" has no occurrence inside the schedule's window`, { path: 'end_date' });
    const gap = parseRateExpression(timing.rateExpression ?? '').intervalMs / 1000;
    if (gap < minimum) {
      throw new DomainError('interval_too_short', `rate_expression fires ${gap} s apart; the shortest interval allowed is ${minimum} s (scheduler.min_interval_seconds)`, { path: field });
    }
    return first;
  }
  if (!first) throw new DomainError('invalid_cron_expression', `cron_expression "${timing.cronExpression}" never fires inside the schedule's window`, { path: field });
  const gap = minIntervalSeconds(timing.cronExpression ?? '', timing.timezone, now);
  if (gap !== null && gap < minimum) {
    throw new DomainError('interval_too_short', `cron_expression fires ${gap} s apart; the shortest interval allowed is ${minimum} s (scheduler.min_interval_seconds)`, { path: field });
  }
  return first;
}
