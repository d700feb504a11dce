/**
 * Insert a batch of workflow executions (the embedded catalog's `create_execution`, SPEC §3.2) in
 * one statement. Only the catalog's batch verb calls this, after every check has passed.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { executeSql } from './run-sql';
import { sqlInstant } from './instant';

export interface ExecutionInsert {
  id: string;
  revisionId: string;
  sessionId: string;
  definitionId: string;
  description: string | null;
  inputData: unknown;
  createdByType: string;
  createdById: string;
  scheduleId: string | null;
  runId: string | null;
  createdAt: Date;
}

/** Param: JSON array of executions (snake_case keys). */
export const INSERT_EXECUTIONS_SQL = {
  sqlite: `INSERT INTO executions (id, revision_id, session_id, definition_id, description, input_data, created_by_type, created_by_id, schedule_id, run_id, created_at)
    SELECT e.value ->> 'id', e.value ->> 'revision_id', e.value ->> 'session_id', e.value ->> 'definition_id', e.value ->> 'description',
      json(e.value -> 'input_data'), e.value ->> 'created_by_type', e.value ->> 'created_by_id', e.value ->> 'schedule_id',
      e.value ->> 'run_id', e.value ->> 'created_at'
    FROM json_each(?) AS e`,
  postgresql: `INSERT INTO executions (id, revision_id, session_id, definition_id, description, input_data, created_by_type, created_by_id, schedule_id, run_id, created_at)
    SELECT id, revision_id, session_id, definition_id, description, input_data, created_by_type, created_by_id, schedule_id, run_id, created_at
    FROM jsonb_to_recordset($1::jsonb) AS e(id text, revision_id text, session_id text, definition_id text, description text,
      input_data jsonb, created_by_type text, created_by_id text, schedule_id text, run_id text, created_at timestamp(3))`,
} as const;

/** Insert `executions` inside the caller's transaction. */
export async function insertExecutions(tx: Tx, executions: ExecutionInsert[]): Promise<void> {
  if (executions.length === 0) return;
  const dialect = dialectOfDb(tx);
  const doc = executions.map((e) => ({
    id: e.id,
    revision_id: e.revisionId,
    session_id: e.sessionId,
    definition_id: e.definitionId,
    description: e.description,
    // JSON `null` input would become SQL NULL in a NOT NULL column; the contract never sends it.
    input_data: e.inputData ?? [],
    created_by_type: e.createdByType,
    created_by_id: e.createdById,
    schedule_id: e.scheduleId,
    run_id: e.runId,
    created_at: sqlInstant(dialect, e.createdAt),
  }));
  await executeSql(tx, INSERT_EXECUTIONS_SQL, JSON.stringify(doc));
}
