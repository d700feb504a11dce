/**
 * A `schedules` row as raw SQL returns it, mapped to the camelCase shape of the Prisma model, for the
 * statements of this folder that read schedules without Prisma's model API.
 */
/** A `schedules` row, camelCase like the Prisma model (see prisma/schema.prisma for each column). */
export interface ScheduleRecord {
  id: string;
  revisionId: string;
  alias: string | null;
  /** The name in its schedule group (SPEC §14): the EventBridge `Name`, else the alias, else the id. Never null. */
  name: string;
  description: string | null;
  repeat: string;
  invocationTime: string | null;
  cronExpression: string | null;
  rateExpression: string | null;
  rateAnchor: Date | null;
  timezone: string;
  startDate: Date | null;
  endDate: Date | null;
  flexibleWindowMinutes: number | null;
  retryMaximumAttempts: number | null;
  retryMaximumEventAgeSeconds: number | null;
  deadLetterArn: string | null;
  actionAfterCompletion: string;
  pauseAfterFailures: number | null;
  consecutiveFailures: number;
  enabled: boolean;
  pausedByType: string | null;
  pausedById: string | null;
  pausedAt: Date | null;
  pauseNote: string | null;
  pausedBulk: boolean;
  state: string;
  invocationTargetType: string;
  invocationTarget: unknown;
  /** What the EventBridge-compatible API stored beside the product's fields (SPEC §14), or null. */
  eventbridge: unknown;
  nextFireAt: Date | null;
  nextScheduledFor: Date | null;
  createdByType: string;
  createdById: string;
  skippedOccurrences: number;
  /** SPEC §15: incremented by every change but a fire's. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A raw instant column (Date, or text on SQLite) as a Date; null stays null. */
export const rawInstant = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | Date));

/** A raw boolean column (boolean on PostgreSQL, 0/1 on SQLite). */
export const rawBoolean = (v: unknown): boolean => v === true || v === 1 || v === 1n;

/** A raw nullable integer column (number, bigint or null). */
export const rawIntOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A raw JSON column (parsed, or text on SQLite) as a value; SQL NULL is null. */
export const rawJson = (v: unknown): unknown => (v === null || v === undefined ? null : typeof v === 'string' ? JSON.parse(v) : v);

/** Prisma's raw results carry Date, boolean and JSON values on both adapters; normalize defensively. */
export function toScheduleRecord(r: Record<string, unknown>): ScheduleRecord {
  return {
    id: r.id as string,
    revisionId: r.revision_id as string,
    alias: (r.alias as string | null) ?? null,
    name: r.name as string,
    description: (r.description as string | null) ?? null,
    repeat: r.repeat as string,
    invocationTime: (r.invocation_time as string | null) ?? null,
    cronExpression: (r.cron_expression as string | null) ?? null,
    rateExpression: (r.rate_expression as string | null) ?? null,
    rateAnchor: rawInstant(r.rate_anchor),
    timezone: r.timezone as string,
    startDate: rawInstant(r.start_date),
    endDate: rawInstant(r.end_date),
    flexibleWindowMinutes: rawIntOrNull(r.flexible_window_minutes),
    retryMaximumAttempts: rawIntOrNull(r.retry_maximum_attempts),
    retryMaximumEventAgeSeconds: rawIntOrNull(r.retry_maximum_event_age_seconds),
    deadLetterArn: (r.dead_letter_arn as string | null) ?? null,
    actionAfterCompletion: (r.action_after_completion as string | undefined) ?? 'none',
    pauseAfterFailures: rawIntOrNull(r.pause_after_failures),
    consecutiveFailures: Number(r.consecutive_failures ?? 0),
    enabled: rawBoolean(r.enabled),
    pausedByType: (r.paused_by_type as string | null) ?? null,
    pausedById: (r.paused_by_id as string | null) ?? null,
    pausedAt: rawInstant(r.paused_at),
    pauseNote: (r.pause_note as string | null) ?? null,
    pausedBulk: rawBoolean(r.paused_bulk),
    state: r.state as string,
    invocationTargetType: (r.invocation_target_type as string | undefined) ?? 'workflow',
    invocationTarget: rawJson(r.invocation_target),
    eventbridge: rawJson(r.eventbridge),
    nextFireAt: rawInstant(r.next_fire_at),
    nextScheduledFor: rawInstant(r.next_scheduled_for),
    createdByType: r.created_by_type as string,
    createdById: r.created_by_id as string,
    skippedOccurrences: Number(r.skipped_occurrences),
    // A statement that selects its columns without `version` (the fire path's) reads 1: it never answers it.
    version: Number(r.version ?? 1),
    createdAt: rawInstant(r.created_at)!,
    updatedAt: rawInstant(r.updated_at)!,
  };
}
