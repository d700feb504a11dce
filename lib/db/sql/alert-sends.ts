/**
 * The sends of alerts (SPEC §17), after the transaction that raised them: claim the due `pending`
 * ones with a lease and count the send before it leaves, so two workers never send one at the same
 * time and a crashed worker's send is taken again only once its lease ends (at least once; the alert
 * id, the same on every send, lets a receiver drop a repeat).
 *
 * - PostgreSQL: `FOR UPDATE SKIP LOCKED`, then the UPDATE moves `due_at` to the lease's end.
 * - SQLite: runs under `BEGIN IMMEDIATE` (lib/db/client.ts), the single write lock.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';
import { queryRows } from './run-sql';
import { rawInstant, rawJson, rawText } from './schedule-record';

/** An alert whose send is this caller's until its lease ends. */
export interface AlertSend {
  id: string;
  channelId: string;
  incidentId: string;
  revisionId: string;
  scheduleId: string;
  event: string;
  round: number;
  facts: unknown;
  /** Sends started so far, this one included. */
  sends: number;
  createdAt: Date;
}

/** Params: now, limit. */
const SELECT_DUE_SQL = {
  sqlite: `SELECT id FROM alerts WHERE due_at <= ? AND status = 'pending' ORDER BY due_at LIMIT ?`,
  postgresql: `SELECT id FROM alerts WHERE due_at <= $1::timestamp(3) AND status = 'pending' ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
} as const;
const COLUMNS = 'id, channel_id, incident_id, revision_id, schedule_id, event, round, facts, sends, created_at';
/** Params: lease end, JSON ids. */
const LEASE_SQL = {
  sqlite: `UPDATE alerts SET due_at = ?, sends = sends + 1 WHERE id IN (SELECT value FROM json_each(?)) RETURNING ${COLUMNS}`,
  postgresql: `UPDATE alerts SET due_at = $1::timestamp(3), sends = sends + 1 WHERE id IN (SELECT jsonb_array_elements_text($2::jsonb)) RETURNING ${COLUMNS}`,
} as const;

/**
 * Claim up to `limit` alerts due at `now` (through the `due_at` index), hold them until `leaseUntil`
 * and count their send, in the caller's transaction. Send exactly those, once each.
 */
export async function claimAlertSends(tx: Tx, now: Date, limit: number, leaseUntil: Date): Promise<AlertSend[]> {
  const dialect = dialectOfDb(tx);
  const due = await queryRows<{ id: string }>(tx, SELECT_DUE_SQL, sqlInstant(dialect, now), limit);
  if (due.length === 0) return [];
  const rows = await queryRows(tx, LEASE_SQL, sqlInstant(dialect, leaseUntil), JSON.stringify(due.map((d) => d.id)));
  return rows.map((r) => ({
    id: rawText('alerts.id', r.id),
    channelId: rawText('alerts.channel_id', r.channel_id),
    incidentId: rawText('alerts.incident_id', r.incident_id),
    revisionId: rawText('alerts.revision_id', r.revision_id),
    scheduleId: rawText('alerts.schedule_id', r.schedule_id),
    event: rawText('alerts.event', r.event),
    round: Number(r.round),
    facts: rawJson(r.facts),
    sends: Number(r.sends),
    createdAt: rawInstant(r.created_at)!,
  }));
}
