/**
 * Tests and benchmarks only: insert many schedules at once, with the next_fire_at the caller chooses,
 * bypassing the save path (`createSchedule` checks and resolves each one, which is what a product
 * save needs and what a 100,000-schedule fixture cannot afford). One JSON-packed statement per
 * 5,000 rows.
 */
import { randomUUID } from 'node:crypto';
import { dialectOfDb, sqlInstant, type Db } from '../db';

export interface ScheduleFixture {
  revisionId: string;
  /** Default none. Unique per scheduler. */
  alias?: string | null;
  createdBy: { type: 'user' | 'org'; id: string };
  invocationTarget: unknown;
  /** Default `workflow`; `http` or `aws` for an external target (SPEC §13). */
  invocationTargetType?: string;
  /** Default `recurring_cron`. */
  repeat?: 'recurring_cron' | 'one_time';
  /** Default `* * * * ? *` (every minute) for `recurring_cron`. */
  cronExpression?: string;
  /** `YYYY-MM-DDTHH:mm:ss` for `one_time`. */
  invocationTime?: string;
  timezone?: string;
  description?: string | null;
  endDate?: Date | null;
  nextFireAt: Date | null;
  enabled?: boolean;
}

const SQL = {
  sqlite: `INSERT INTO schedules (id, revision_id, alias, name, description, repeat, invocation_time, cron_expression, timezone, end_date,
      enabled, state, invocation_target_type, invocation_target, next_fire_at, created_by_type, created_by_id, created_at, updated_at)
    SELECT s.value ->> 'id', s.value ->> 'revision_id', s.value ->> 'alias', s.value ->> 'name', s.value ->> 'description', s.value ->> 'repeat', s.value ->> 'invocation_time',
      s.value ->> 'cron_expression', s.value ->> 'timezone', s.value ->> 'end_date', s.value ->> 'enabled', 'active',
      s.value ->> 'invocation_target_type', json(s.value -> 'invocation_target'), s.value ->> 'next_fire_at', s.value ->> 'created_by_type', s.value ->> 'created_by_id',
      s.value ->> 'created_at', s.value ->> 'created_at'
    FROM json_each(?) AS s`,
  postgresql: `INSERT INTO schedules (id, revision_id, alias, name, description, repeat, invocation_time, cron_expression, timezone, end_date,
      enabled, state, invocation_target_type, invocation_target, next_fire_at, created_by_type, created_by_id, created_at, updated_at)
    SELECT id, revision_id, alias, name, description, repeat, invocation_time, cron_expression, timezone, end_date,
      enabled, 'active', invocation_target_type, invocation_target, next_fire_at, created_by_type, created_by_id, created_at, created_at
    FROM jsonb_to_recordset($1::jsonb) AS s(id text, revision_id text, alias text, name text, description text, repeat text, invocation_time text,
      cron_expression text, timezone text, end_date timestamp(3), enabled boolean, invocation_target_type text, invocation_target jsonb,
      next_fire_at timestamp(3), created_by_type text, created_by_id text, created_at timestamp(3))`,
} as const;

/** Insert `fixtures`; returns their ids in order. */
export async function insertSchedules(db: Db, fixtures: ScheduleFixture[], now = new Date()): Promise<string[]> {
  const dialect = dialectOfDb(db);
  const ids: string[] = [];
  for (let i = 0; i < fixtures.length; i += 5000) {
    const doc = fixtures.slice(i, i + 5000).map((f) => {
      const id = randomUUID();
      ids.push(id);
      const enabled = f.enabled ?? true;
      return {
        id,
        revision_id: f.revisionId,
        alias: f.alias ?? null,
        // Named as a product-API create names it (SPEC §14): by its alias, else its id.
        name: f.alias ?? id,
        description: f.description ?? null,
        repeat: f.repeat ?? 'recurring_cron',
        invocation_time: f.repeat === 'one_time' ? f.invocationTime : null,
        cron_expression: f.repeat === 'one_time' ? null : (f.cronExpression ?? '* * * * ? *'),
        timezone: f.timezone ?? 'UTC',
        end_date: f.endDate ? sqlInstant(dialect, f.endDate) : null,
        enabled: dialect === 'sqlite' ? (enabled ? 1 : 0) : enabled,
        invocation_target_type: f.invocationTargetType ?? 'workflow',
        invocation_target: f.invocationTarget,
        next_fire_at: enabled && f.nextFireAt ? sqlInstant(dialect, f.nextFireAt) : null,
        created_by_type: f.createdBy.type,
        created_by_id: f.createdBy.id,
        created_at: sqlInstant(dialect, now),
      };
    });
    await db.$executeRawUnsafe(SQL[dialect], JSON.stringify(doc));
  }
  return ids;
}
