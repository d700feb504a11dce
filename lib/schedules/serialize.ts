/**
 * Database rows → the wire shapes of SPEC §5.1 and §8.1. Optional fields are omitted, never null;
 * instants are ISO 8601 UTC with `Z`.
 */
import type { ScheduleRecord } from '../db';
import type { InvocationTarget, InvocationTargetType, Repeat, Run, RunResult, RunStatus, RunTrigger, Schedule, ScheduleState } from './contract';

/** A `schedules` row (Prisma's model or raw SQL's `ScheduleRecord`); the revision is not part of the wire shape. */
export type ScheduleRow = Omit<ScheduleRecord, 'revisionId'>;

export function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    ...(row.alias != null ? { alias: row.alias } : {}),
    name: row.name ?? row.alias ?? row.id,
    ...(row.description != null ? { description: row.description } : {}),
    repeat: row.repeat as Repeat,
    ...(row.repeat === 'one_time' && row.invocationTime != null ? { invocation_time: row.invocationTime } : {}),
    ...(row.repeat === 'recurring_cron' && row.cronExpression != null ? { cron_expression: row.cronExpression } : {}),
    timezone: row.timezone,
    ...(row.startDate ? { start_date: row.startDate.toISOString() } : {}),
    ...(row.endDate ? { end_date: row.endDate.toISOString() } : {}),
    enabled: row.enabled,
    state: row.state as ScheduleState,
    invocation_target_type: (row.invocationTargetType ?? 'workflow') as InvocationTargetType,
    invocation_target: row.invocationTarget as InvocationTarget,
    next_fire_at: row.nextFireAt ? row.nextFireAt.toISOString() : null,
    created_by: { type: row.createdByType as 'user' | 'org', id: row.createdById },
    skipped_occurrences: row.skippedOccurrences,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface RunRow {
  id: string;
  scheduleId: string;
  scheduledFor: Date;
  trigger: string;
  invocationTargetType?: string;
  invocationTarget: unknown;
  description: string | null;
  status: string;
  result: unknown;
  createdAt: Date;
}

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    scheduled_for: row.scheduledFor.toISOString(),
    trigger: row.trigger as RunTrigger,
    created_at: row.createdAt.toISOString(),
    invocation_target_type: (row.invocationTargetType ?? 'workflow') as InvocationTargetType,
    invocation_target: row.invocationTarget as InvocationTarget,
    ...(row.description != null ? { description: row.description } : {}),
    status: row.status as RunStatus,
    result: row.result as RunResult,
  };
}
