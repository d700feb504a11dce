/**
 * Tests and benchmarks only: fire history at scale, written with set-based SQL (a recursive CTE on
 * SQLite, generate_series on PostgreSQL), not row by row: `count` workflow executions and the
 * `count` run records that link them (run.execution_id ↔ execution.run_id, as the fire path writes
 * them), spread over the given schedules like minutely fires. Ids are random v4 UUIDs like the
 * product's, so the indexes are as scattered as real ones. 1M pairs take about 45 s on SQLite and
 * about 60 s on PostgreSQL on the reference machine (docs/performance.md "Retention").
 *
 * Shape: pair i belongs to schedule `i mod S` (S = the number of schedules); its occurrence is
 * `from + ⌊i / S⌋ minutes` and its `created_at` that instant + (i mod S) ms, so each minute's S fires
 * are created one after the other, schedule by schedule.
 */
import { dialectOfDb, sqlInstant, withSqliteConnection, type Db } from '../db';

export interface HistoryTarget {
  /** The scheduler's managed revision whose schedules the runs belong to (every schedule of it is used). */
  schedulerRevisionId: string;
  /** Where the executions ran: a workflow revision, one of its sessions and one of its definitions. */
  workflowRevisionId: string;
  sessionId: string;
  definitionId: string;
  /** The org the executions are created by (`created_by_type` org). */
  orgId: string;
}

const UUID_SQLITE = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
  || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

/** Executions first (each with a new run id: minutes × schedules), then the runs, read back from those executions. */
const SQL = {
  sqlite: {
    executions: `WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < ? - 1),
        s AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM schedules WHERE revision_id = ?)
      INSERT INTO executions (id, revision_id, session_id, definition_id, description, input_data, created_by_type, created_by_id, schedule_id, run_id, created_at)
      SELECT ${UUID_SQLITE}, ?, ?, ?, NULL, '[{"alias":"ticket_window","value":{"hours":24}}]', 'org', ?, s.id, ${UUID_SQLITE},
        strftime('%Y-%m-%dT%H:%M:%f', ?, '+' || (m.i * 60) || ' seconds', '+' || (s.k / 1000.0) || ' seconds') || '+00:00'
      FROM m CROSS JOIN s WHERE m.i * ? + s.k < ?`,
    runs: `INSERT INTO runs (id, schedule_id, scheduled_for, trigger, attempt, invocation_target_type, invocation_target, description, status, result, execution_id, created_at)
      SELECT e.run_id, e.schedule_id, strftime('%Y-%m-%dT%H:%M:00.000', e.created_at) || '+00:00', 'schedule', 1, s.invocation_target_type, s.invocation_target,
        NULL, 'success', json_object('execution_id', e.id, 'revision_id', e.revision_id, 'session_id', e.session_id, 'definition_id', e.definition_id),
        e.id, e.created_at
      FROM executions e JOIN schedules s ON s.id = e.schedule_id
      WHERE s.revision_id = ? AND e.created_at >= ? AND e.created_at < ? AND e.run_id IS NOT NULL`,
  },
  postgresql: {
    executions: `WITH s AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM schedules WHERE revision_id = $2)
      INSERT INTO executions (id, revision_id, session_id, definition_id, description, input_data, created_by_type, created_by_id, schedule_id, run_id, created_at)
      SELECT gen_random_uuid()::text, $3, $4, $5, NULL, '[{"alias":"ticket_window","value":{"hours":24}}]'::jsonb, 'org', $6, s.id, gen_random_uuid()::text,
        $7::timestamp(3) + m.i * interval '1 minute' + s.k * interval '1 millisecond'
      FROM generate_series(0, $1::int - 1) AS m(i) CROSS JOIN s WHERE m.i * $8::int + s.k < $9::int
      ORDER BY m.i, s.k`,
    runs: `INSERT INTO runs (id, schedule_id, scheduled_for, trigger, attempt, invocation_target_type, invocation_target, description, status, result, execution_id, created_at)
      SELECT e.run_id, e.schedule_id, date_trunc('minute', e.created_at), 'schedule', 1, s.invocation_target_type, s.invocation_target,
        NULL, 'success', jsonb_build_object('execution_id', e.id, 'revision_id', e.revision_id, 'session_id', e.session_id, 'definition_id', e.definition_id),
        e.id, e.created_at
      FROM executions e JOIN schedules s ON s.id = e.schedule_id
      WHERE s.revision_id = $1 AND e.created_at >= $2::timestamp(3) AND e.created_at < $3::timestamp(3) AND e.run_id IS NOT NULL`,
  },
} as const;

/**
 * Insert `count` executions and their `count` runs, the first at `from` (see the file comment for
 * the spread). Returns the instant just after the last one and how long each table took (ms). The
 * scheduler revision must hold at least one schedule; runs of those schedules already at the same
 * instants make the UNIQUE key refuse the statement.
 */
export async function seedHistory(db: Db, target: HistoryTarget, opts: { count: number; from: Date }): Promise<{ end: Date; executionsMs: number; runsMs: number }> {
  const dialect = dialectOfDb(db);
  const schedules = await db.schedule.count({ where: { revisionId: target.schedulerRevisionId } });
  if (schedules === 0) throw new Error('seedHistory: the scheduler revision has no schedules');
  const end = new Date(opts.from.getTime() + Math.ceil(opts.count / schedules) * 60_000);
  // A page cache large enough for the random index inserts (SQLite's default is 2 MB); restored after.
  const cache = dialect === 'sqlite' ? await withSqliteConnection(db, (c) => c.pragma('cache_size', { simple: true }) as number) : 0;
  if (dialect === 'sqlite') await withSqliteConnection(db, (c) => c.pragma('cache_size = -1000000'));
  try {
    let started = performance.now();
    // Minutes × schedules, minute by minute (the table's rows in created_at order, as fires write them).
    await db.$executeRawUnsafe(
      SQL[dialect].executions, Math.ceil(opts.count / schedules), target.schedulerRevisionId, target.workflowRevisionId, target.sessionId, target.definitionId, target.orgId,
      dialect === 'sqlite' ? opts.from.toISOString().slice(0, 23) : opts.from.toISOString(), schedules, opts.count,
    );
    const executionsMs = performance.now() - started;
    started = performance.now();
    await db.$executeRawUnsafe(SQL[dialect].runs, target.schedulerRevisionId, sqlInstant(dialect, opts.from), sqlInstant(dialect, end));
    return { end, executionsMs, runsMs: performance.now() - started };
  } finally {
    if (dialect === 'sqlite') await withSqliteConnection(db, (c) => c.pragma(`cache_size = ${cache}`));
  }
}
