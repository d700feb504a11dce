/**
 * Database rows → the wire shapes of SPEC §5.1 and §8.1. Optional fields are omitted, never null;
 * instants are ISO 8601 UTC with `Z`.
 */
import { rawOneOf, scheduleRecordOf, type ScheduleRecord, type ScheduleRowLike, type RunOutcomeColumns } from '../../db';
import { driverOf, triggerParts } from '../../targets';
import { DEFAULT_TARGET_TYPE, EVENTBRIDGE_DEFAULT_RETRY, EXHAUSTED_REASONS, RUN_OUTCOMES, RUN_STATUSES, RUN_TRIGGERS, storedTargetFields, type Paused, type TargetFields, type Run, type RunResult, type Schedule } from '../contract';

/** A `schedules` row as answers read it: the row codec's record, or Prisma's model row (parsed by the codec); without its revision. */
export type ScheduleRow = ScheduleRowLike;

/** A `schedules` row → its wire shape (SPEC §5.1), through the row codec (lib/db `scheduleRecordOf`). */
export function toSchedule(stored: ScheduleRow): Schedule {
  const row = scheduleRecordOf(stored);
  return {
    id: row.id,
    ...(row.alias != null ? { alias: row.alias } : {}),
    name: row.name,
    ...(row.description != null ? { description: row.description } : {}),
    repeat: row.repeat,
    ...(row.repeat === 'one_time' && row.invocationTime != null ? { invocation_time: row.invocationTime } : {}),
    ...(row.repeat === 'recurring_cron' && row.cronExpression != null ? { cron_expression: row.cronExpression } : {}),
    ...(row.repeat === 'recurring_rate' && row.rateExpression != null ? { rate_expression: row.rateExpression } : {}),
    timezone: row.timezone,
    ...(row.startDate ? { start_date: row.startDate.toISOString() } : {}),
    ...(row.endDate ? { end_date: row.endDate.toISOString() } : {}),
    ...(row.flexibleWindowMinutes !== null ? { flexible_time_window: { mode: 'flexible' as const, maximum_window_minutes: row.flexibleWindowMinutes } } : {}),
    enabled: row.enabled,
    ...(row.retryMaximumAttempts !== null
      ? { retry_policy: { maximum_retry_attempts: row.retryMaximumAttempts, maximum_event_age_seconds: row.retryMaximumEventAgeSeconds ?? EVENTBRIDGE_DEFAULT_RETRY.maximum_event_age_seconds } }
      : {}),
    ...(row.deadLetterArn !== null ? { dead_letter: { arn: row.deadLetterArn, ...(row.deadLetterRoleArn ? { role_arn: row.deadLetterRoleArn } : {}) } } : {}),
    ...(row.actionAfterCompletion === 'delete' ? { action_after_completion: 'delete' as const } : {}),
    ...(row.pauseAfterFailures !== null ? { pause_after_failures: row.pauseAfterFailures } : {}),
    ...(row.completionExpectSeconds !== null ? { completion: { expect_within_seconds: row.completionExpectSeconds } } : {}),
    ...(row.overlapPolicy !== 'allow_all' ? { overlap_policy: row.overlapPolicy } : {}),
    ...(row.catchUpMode !== null
      ? { catch_up: { window_seconds: row.catchUpWindowSeconds ?? 0, mode: row.catchUpMode, ...(row.catchUpMaxBurst !== null ? { max_burst: row.catchUpMaxBurst } : {}) } }
      : {}),
    state: row.state,
    ...targetFields(row.invocationTargetType, row.invocationTarget),
    next_fire_at: row.nextFireAt ? row.nextFireAt.toISOString() : null,
    created_by: { type: row.createdByType, id: row.createdById },
    skipped_occurrences: row.skippedOccurrences,
    ...(!row.enabled && row.pausedAt ? { paused: pausedOf(row, row.pausedAt) } : {}),
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * A stored target with its type (SPEC §6, §13), as the contract pairs them and as every answer shows it:
 * the row's `invocation_target_type` (the default type when a row predates the column) says which shape
 * the JSON is, and its driver's `redact.target` hides its secrets (SPEC §13.5: a webhook's header values
 * are `"••••"` to every role). The one way a stored target leaves the domain in an answer.
 */
export function targetFields(type: string | undefined, target: unknown): TargetFields {
  const t = type ?? DEFAULT_TARGET_TYPE;
  const driver = driverOf(t);
  return storedTargetFields(t, driver && typeof target === 'object' && target !== null ? driver.redact.target(target) : target);
}

/** SPEC §12.5 `paused` of a disabled row. */
function pausedOf(row: Pick<ScheduleRecord, 'pausedByType' | 'pausedById' | 'pauseNote' | 'pausedBulk'>, at: Date): Paused {
  const by: Paused['by'] = row.pausedByType === 'user' || row.pausedByType === 'org' ? { type: row.pausedByType, id: row.pausedById ?? '' } : { type: 'system' };
  return { by, at: at.toISOString(), ...(row.pauseNote ? { note: row.pauseNote } : {}), ...(row.pausedBulk ? { bulk: true as const } : {}) };
}

/** A `runs` row as read (its SPEC §16.1 outcome columns absent on rows read without them). */
export interface RunRow extends RunOutcomeColumns {
  id: string;
  scheduleId: string;
  scheduledFor: Date;
  trigger: string;
  attempt: number;
  invocationTargetType?: string;
  invocationTarget: unknown;
  description: string | null;
  status: string;
  result: unknown;
  nextAttemptAt: Date | null;
  exhausted: string | null;
  deadLetterId: string | null;
  createdAt: Date;
}

/** A stored `runs.trigger` → `trigger` (and `backfill_id` for a backfill's, SPEC §18.1). */
export function triggerOf(stored: string): Pick<Run, 'trigger' | 'backfill_id'> {
  const parts = triggerParts(stored);
  if (!parts) return { trigger: rawOneOf(RUN_TRIGGERS, 'runs.trigger', stored) };
  return parts.backfillId ? { trigger: parts.trigger, backfill_id: parts.backfillId } : { trigger: parts.trigger };
}

/** A `runs` row → its wire shape (SPEC §8.1, §16.1). */
export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    scheduled_for: row.scheduledFor.toISOString(),
    ...triggerOf(row.trigger),
    created_at: row.createdAt.toISOString(),
    ...targetFields(row.invocationTargetType, row.invocationTarget),
    ...(row.description != null ? { description: row.description } : {}),
    attempt: row.attempt,
    status: rawOneOf(RUN_STATUSES, 'runs.status', row.status),
    ...(row.nextAttemptAt ? { next_attempt_at: row.nextAttemptAt.toISOString() } : {}),
    ...(row.exhausted ? { exhausted: rawOneOf(EXHAUSTED_REASONS, 'runs.exhausted', row.exhausted) } : {}),
    ...(row.deadLetterId ? { dead_letter_id: row.deadLetterId } : {}),
    result: row.result as RunResult,
    ...(row.outcome ? { outcome: rawOneOf(RUN_OUTCOMES, 'runs.outcome', row.outcome) } : {}),
    ...(row.startedAt ? { started_at: row.startedAt.toISOString() } : {}),
    ...(row.finishedAt ? { finished_at: row.finishedAt.toISOString() } : {}),
    ...(row.durationMs != null ? { duration_ms: row.durationMs } : {}),
    ...(row.exitCode != null ? { exit_code: row.exitCode } : {}),
    ...(row.outcomeMessage != null ? { outcome_message: row.outcomeMessage } : {}),
  };
}
