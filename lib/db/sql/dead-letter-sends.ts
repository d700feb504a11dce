/**
 * The SQS sends of dead letters (SPEC §12.3), after the transaction that stored them: claim the due
 * `pending` ones with a lease (so two workers never send one at the same time), send, record.
 * A process that dies mid-send leaves the send due again once its lease ends: at least once.
 *
 * - PostgreSQL: `FOR UPDATE SKIP LOCKED`, then the UPDATE moves `sqs_due_at` to the lease's end.
 * - SQLite: runs under `BEGIN IMMEDIATE` (lib/db/client.ts), the single write lock.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';
import { rawInstant, rawJson, rawText } from './schedule-record';

/** A dead letter whose send is this caller's until `leaseUntil`. */
export interface DeadLetterSend {
  id: string;
  scheduleId: string;
  revisionId: string;
  scheduledFor: Date;
  attempts: number;
  exhausted: string;
  lastRunId: string;
  lastResult: unknown;
  lastRequest: unknown;
  invocationTargetType: string;
  invocationTarget: unknown;
  deadLetterArn: string;
  /** Sends tried so far, this one included. */
  sqsAttempts: number;
}

const COLUMNS = `id, schedule_id, revision_id, scheduled_for, attempts, exhausted, last_run_id, last_result, last_request,
  invocation_target_type, invocation_target, dead_letter_arn, sqs_attempts`;

/** Params: now, limit (select); lease end, JSON ids (update). */
const SELECT_DUE_SQL = {
  sqlite: `SELECT id FROM dead_letters WHERE sqs_due_at <= ? AND sqs_status = 'pending' ORDER BY sqs_due_at LIMIT ?`,
  postgresql: `SELECT id FROM dead_letters WHERE sqs_due_at <= $1::timestamp(3) AND sqs_status = 'pending' ORDER BY sqs_due_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
} as const;
const LEASE_SQL = {
  sqlite: `UPDATE dead_letters SET sqs_due_at = ?, sqs_attempts = sqs_attempts + 1 WHERE id IN (SELECT value FROM json_each(?)) RETURNING ${COLUMNS}`,
  postgresql: `UPDATE dead_letters SET sqs_due_at = $1::timestamp(3), sqs_attempts = sqs_attempts + 1
    WHERE id IN (SELECT jsonb_array_elements_text($2::jsonb)) RETURNING ${COLUMNS}`,
} as const;

/**
 * Claim up to `limit` dead letters whose send is due at `now` (through the `sqs_due_at` index) and hold
 * them until `leaseUntil`, in the caller's transaction. Send exactly those.
 */
export async function claimDeadLetterSends(tx: Tx, now: Date, limit: number, leaseUntil: Date): Promise<DeadLetterSend[]> {
  const dialect = dialectOfDb(tx);
  const due = await tx.$queryRawUnsafe<{ id: string }[]>(SELECT_DUE_SQL[dialect], sqlInstant(dialect, now), limit);
  if (due.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<Record<string, unknown>[]>(LEASE_SQL[dialect], sqlInstant(dialect, leaseUntil), JSON.stringify(due.map((d) => d.id)));
  return rows.map((r) => ({
    id: rawText('dead_letters.id', r.id),
    scheduleId: rawText('dead_letters.schedule_id', r.schedule_id),
    revisionId: rawText('dead_letters.revision_id', r.revision_id),
    scheduledFor: rawInstant(r.scheduled_for)!,
    attempts: Number(r.attempts),
    exhausted: rawText('dead_letters.exhausted', r.exhausted),
    lastRunId: rawText('dead_letters.last_run_id', r.last_run_id),
    lastResult: rawJson('dead_letters.last_result', r.last_result),
    lastRequest: rawJson('dead_letters.last_request', r.last_request),
    invocationTargetType: rawText('dead_letters.invocation_target_type', r.invocation_target_type),
    invocationTarget: rawJson('dead_letters.invocation_target', r.invocation_target),
    deadLetterArn: rawText('dead_letters.dead_letter_arn', r.dead_letter_arn),
    sqsAttempts: Number(r.sqs_attempts),
  }));
}
