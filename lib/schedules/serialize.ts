/**
 * Database rows → the wire shapes of SPEC §5.1 and §8.1. Optional fields are omitted, never null;
 * instants are ISO 8601 UTC with `Z`.
 */
import type { ScheduleRecord } from '../db';
import { EVENTBRIDGE_DEFAULT_RETRY, type ExhaustedReason, type Paused, type TargetFields, type Repeat, type Run, type RunResult, type RunStatus, type RunTrigger, type Schedule, type ScheduleState } from './contract';

/** A `schedules` row (Prisma's model or raw SQL's `ScheduleRecord`); the revision is not part of the wire shape. */
export type ScheduleRow = Omit<ScheduleRecord, 'revisionId'>;

export function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    ...(row.alias != null ? { alias: row.alias } : {}),
    name: row.name,
    ...(row.description != null ? { description: row.description } : {}),
    repeat: row.repeat as Repeat,
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
    ...(row.deadLetterArn !== null ? { dead_letter: { arn: row.deadLetterArn } } : {}),
    ...(row.actionAfterCompletion === 'delete' ? { action_after_completion: 'delete' as const } : {}),
    ...(row.pauseAfterFailures !== null ? { pause_after_failures: row.pauseAfterFailures } : {}),
    state: row.state as ScheduleState,
    ...targetFields(row.invocationTargetType, row.invocationTarget),
    next_fire_at: row.nextFireAt ? row.nextFireAt.toISOString() : null,
    created_by: { type: row.createdByType as 'user' | 'org', id: row.createdById },
    skipped_occurrences: row.skippedOccurrences,
    ...(!row.enabled && row.pausedAt ? { paused: pausedOf(row, row.pausedAt) } : {}),
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * A stored target with its type (SPEC §6, §13), as the contract pairs them: the row's
 * `invocation_target_type` (`workflow` when a row predates the column) says which shape the JSON is.
 */
export function targetFields(type: string | undefined, target: unknown): TargetFields {
  return { invocation_target_type: type ?? 'workflow', invocation_target: target } as TargetFields;
}

/** SPEC §12.5 `paused` of a disabled row. */
function pausedOf(row: ScheduleRow, at: Date): Paused {
  const by: Paused['by'] = row.pausedByType === 'user' || row.pausedByType === 'org' ? { type: row.pausedByType, id: row.pausedById ?? '' } : { type: 'system' };
  return { by, at: at.toISOString(), ...(row.pauseNote ? { note: row.pauseNote } : {}), ...(row.pausedBulk ? { bulk: true as const } : {}) };
}

export interface RunRow {
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

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    scheduled_for: row.scheduledFor.toISOString(),
    trigger: row.trigger as RunTrigger,
    created_at: row.createdAt.toISOString(),
    ...targetFields(row.invocationTargetType, row.invocationTarget),
    ...(row.description != null ? { description: row.description } : {}),
    attempt: row.attempt,
    status: row.status as RunStatus,
    ...(row.nextAttemptAt ? { next_attempt_at: row.nextAttemptAt.toISOString() } : {}),
    ...(row.exhausted ? { exhausted: row.exhausted as ExhaustedReason } : {}),
    ...(row.deadLetterId ? { dead_letter_id: row.deadLetterId } : {}),
    result: row.result as RunResult,
  };
}
