/**
 * The save path shared by create and update (SPEC §5.2, §6.3): every rule that needs the clock, the
 * configuration or the database, after the contract schema has passed. Nothing is written here; the
 * caller writes the returned fields in its own transaction.
 */
import { minIntervalSeconds, resolveLocalTime } from '../cron';
import type { Actor } from '../auth';
import type { Limits } from '../config';
import type { Tx } from '../db';
import { DomainError } from '../errors';
import { checkInvocationTarget, embeddedGateway } from '../workflows';
import { firstIssueError, ScheduleCreateInput, ScheduleTimingInput, type ExternalTarget, type InvocationTarget } from './contract';
import { nextOccurrenceInWindow, type ScheduleTiming } from './occurrences';

/** The columns a save writes (besides ids, creator and timestamps). */
export interface SavedFields extends ScheduleTiming {
  alias: string | null;
  description: string | null;
  enabled: boolean;
  invocationTargetType: 'workflow' | ExternalTarget['type'];
  invocationTarget: InvocationTarget | ExternalTarget['target'];
  nextFireAt: Date | null;
  /** Set (to `completed`) only when an EventBridge-timed one-time schedule is saved already missed. */
  state?: 'completed';
  /** Occurrences missed at save (0 or 1, EventBridge timing only). */
  skippedOccurrences?: number;
}

/**
 * Which save-time rules of time apply (SPEC §14):
 * - `product` (the product API, the web app, the CLI): SPEC §5.2 — a one-time `invocation_time` must
 *   be in the future and inside the start..end window.
 * - `eventbridge` (the EventBridge-compatible API, as AWS does): a past `at()` is accepted and fires at
 *   once when it lies inside the catch-up window, else the schedule is saved completed with the missed
 *   occurrence counted in `skipped_occurrences`; `StartDate`/`EndDate` do not bound an `at()`; a
 *   recurring schedule's `start_date` more than 5 minutes in the past is refused.
 */
export type TimingRules = 'product' | 'eventbridge';

/** How far in the past an EventBridge recurring schedule's start_date may lie (AWS: 5 minutes). */
export const EVENTBRIDGE_START_DATE_GRACE_MS = 5 * 60_000;

/** Parse `input` with the create schema; throw the SPEC error of the first issue. */
export function parseScheduleInput(input: unknown): ScheduleCreateInput {
  return parseWith(ScheduleCreateInput, input);
}

/** Parse the fields of a schedule whose target is an `ExternalTarget` (no `invocation_target` in them). */
export function parseTimingInput(input: unknown): ScheduleTimingInput {
  return parseWith(ScheduleTimingInput, input);
}

function parseWith<S extends typeof ScheduleCreateInput | typeof ScheduleTimingInput>(schema: S, input: unknown) {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const e = firstIssueError(parsed.error);
    throw new DomainError(e.code, e.message, { path: e.path });
  }
  return parsed.data as ReturnType<S['parse']>;
}

export interface CheckScheduleOptions {
  db: Tx;
  /** The saver: the target is checked with this standing (SPEC §6.3). */
  actor: Actor;
  /** The parsed fields; `invocation_target` is absent when `external` is given. */
  input: ScheduleTimingInput & { invocation_target?: InvocationTarget };
  /** An `http` or `aws` target (EventBridge API only): stored as given, never resolved. */
  external?: ExternalTarget;
  limits: Limits;
  /** The request's instant (UTC). */
  now: Date;
  /** False on an update that leaves `invocation_target` as stored: it is not checked again. */
  checkTarget: boolean;
  /** Default `product`. */
  timing?: TimingRules;
}

/**
 * Check a parsed schedule against the clock, the limits and the catalog, and compute what to store.
 * Throws DomainError: `invalid_invocation_time` (past, outside the window), `invalid_date_window`
 * (end_date already passed), `invalid_cron_expression` (never fires inside the window),
 * `interval_too_short`, `invalid_invocation_target` (one identical refusal for every save-time check).
 */
export async function checkSchedule(opts: CheckScheduleOptions): Promise<SavedFields> {
  const { input, now } = opts;
  const timing: ScheduleTiming = {
    repeat: input.repeat,
    cronExpression: input.repeat === 'recurring_cron' ? (input.cron_expression ?? null) : null,
    invocationTime: input.repeat === 'one_time' ? (input.invocation_time ?? null) : null,
    timezone: input.timezone,
    startDate: input.start_date ? new Date(input.start_date) : null,
    endDate: input.end_date ? new Date(input.end_date) : null,
  };

  const eventbridge = opts.timing === 'eventbridge';
  let first: Date | null;
  let missed = false;
  if (timing.repeat === 'one_time' && eventbridge) {
    // SPEC §14: as AWS, a past at() is accepted and StartDate/EndDate do not bound it. Inside the
    // catch-up window it stays due and the worker fires it at once; older, it is missed now.
    first = resolveLocalTime(timing.invocationTime ?? '', timing.timezone);
    missed = first.getTime() < now.getTime() - opts.limits.catchupWindowSeconds * 1000;
  } else if (timing.repeat === 'one_time') {
    const at = resolveLocalTime(timing.invocationTime ?? '', timing.timezone);
    if (at.getTime() <= now.getTime()) {
      throw new DomainError('invalid_invocation_time', `invocation_time ${timing.invocationTime} in ${timing.timezone} is in the past`, { path: 'invocation_time' });
    }
    first = nextOccurrenceInWindow(timing, now);
    if (!first) {
      throw new DomainError('invalid_invocation_time', 'invocation_time lies outside the start_date..end_date window', { path: 'invocation_time' });
    }
  } else {
    if (eventbridge && timing.startDate && timing.startDate.getTime() < now.getTime() - EVENTBRIDGE_START_DATE_GRACE_MS) {
      throw new DomainError('invalid_date_window', 'start_date cannot be earlier than 5 minutes ago', { path: 'start_date' });
    }
    if (timing.endDate && timing.endDate.getTime() <= now.getTime()) {
      throw new DomainError('invalid_date_window', 'end_date is in the past, so the schedule could never fire', { path: 'end_date' });
    }
    first = nextOccurrenceInWindow(timing, now);
    if (!first) {
      throw new DomainError('invalid_cron_expression', `cron_expression "${timing.cronExpression}" never fires inside the schedule's window`, { path: 'cron_expression' });
    }
    const gap = minIntervalSeconds(timing.cronExpression ?? '', timing.timezone, now);
    if (gap !== null && gap < opts.limits.minIntervalSeconds) {
      throw new DomainError('interval_too_short', `cron_expression fires ${gap} s apart; the shortest interval allowed is ${opts.limits.minIntervalSeconds} s (scheduler.min_interval_seconds)`, { path: 'cron_expression' });
    }
  }

  let target: Pick<SavedFields, 'invocationTargetType' | 'invocationTarget'>;
  if (opts.external) target = { invocationTargetType: opts.external.type, invocationTarget: opts.external.target };
  else {
    if (!input.invocation_target) throw new DomainError('invalid_request_body', 'invocation_target is required', { path: 'invocation_target' });
    const checked = opts.checkTarget ? await checkTargetAtSave(opts.db, opts.actor, input.invocation_target) : input.invocation_target;
    target = { invocationTargetType: 'workflow', invocationTarget: checked };
  }

  const enabled = input.enabled ?? true;
  return {
    ...timing,
    alias: input.alias ?? null,
    description: input.description ?? null,
    enabled,
    ...target,
    nextFireAt: enabled && !missed ? first : null,
    ...(missed ? { state: 'completed' as const, skippedOccurrences: 1 } : {}),
  };
}

const TARGET_REFUSAL = 'invocation_target does not resolve to a writable draft revision, an existing session in it, and a workflow definition you can read';

/**
 * SPEC §6.3: check, with the saver's standing, everything a fire will check. Every failure gets the
 * SAME `400 invalid_invocation_target` and message, so a refusal never tells whether something exists.
 * Returns the target to store: a pinned target's session rewritten to its id (SPEC §6.1).
 */
async function checkTargetAtSave(db: Tx, actor: Actor, it: InvocationTarget): Promise<InvocationTarget> {
  const checked = await checkInvocationTarget(embeddedGateway, db, actor, it);
  if (!checked.ok) throw new DomainError('invalid_invocation_target', TARGET_REFUSAL, { path: 'invocation_target' });
  if (checked.target.pinned) return { ...it, target: { ...it.target, session: checked.target.sessionId } };
  return it;
}
