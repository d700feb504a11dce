/**
 * A `schedules` row as raw SQL returns it, mapped to the camelCase shape of the Prisma model, for the
 * statements of this folder that read schedules without Prisma's model API.
 */
/** A `schedules` row, camelCase like the Prisma model. */
export interface ScheduleRecord {
  id: string;
  revisionId: string;
  alias: string | null;
  /** The EventBridge name (SPEC §14); null only for rows written before it existed. */
  name?: string | null;
  description: string | null;
  repeat: string;
  invocationTime: string | null;
  cronExpression: string | null;
  timezone: string;
  startDate: Date | null;
  endDate: Date | null;
  enabled: boolean;
  state: string;
  /** `workflow` | `http` | `aws` (SPEC §13). */
  invocationTargetType?: string;
  invocationTarget: unknown;
  /** What the EventBridge-compatible API stored beside the product's fields (SPEC §14), or null. */
  eventbridge?: unknown;
  nextFireAt: Date | null;
  createdByType: string;
  createdById: string;
  skippedOccurrences: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A raw instant column (Date, or text on SQLite) as a Date; null stays null. */
export const rawInstant = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | Date));

/** A raw JSON column (parsed, or text on SQLite) as a value; SQL NULL is null. */
export const rawJson = (v: unknown): unknown => (v === null || v === undefined ? null : typeof v === 'string' ? JSON.parse(v) : v);

/** Prisma's raw results carry Date, boolean and JSON values on both adapters; normalize defensively. */
export function toScheduleRecord(r: Record<string, unknown>): ScheduleRecord {
  return {
    id: r.id as string,
    revisionId: r.revision_id as string,
    alias: (r.alias as string | null) ?? null,
    name: (r.name as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    repeat: r.repeat as string,
    invocationTime: (r.invocation_time as string | null) ?? null,
    cronExpression: (r.cron_expression as string | null) ?? null,
    timezone: r.timezone as string,
    startDate: rawInstant(r.start_date),
    endDate: rawInstant(r.end_date),
    enabled: r.enabled === true || r.enabled === 1 || r.enabled === 1n,
    state: r.state as string,
    invocationTargetType: (r.invocation_target_type as string | undefined) ?? 'workflow',
    invocationTarget: typeof r.invocation_target === 'string' ? JSON.parse(r.invocation_target) : r.invocation_target,
    eventbridge: rawJson(r.eventbridge),
    nextFireAt: rawInstant(r.next_fire_at),
    createdByType: r.created_by_type as string,
    createdById: r.created_by_id as string,
    skippedOccurrences: Number(r.skipped_occurrences),
    createdAt: rawInstant(r.created_at)!,
    updatedAt: rawInstant(r.updated_at)!,
  };
}

