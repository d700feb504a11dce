/**
 * The sends of alerts (SPEC §17), after the transaction that raised them: claim the due `pending`
 * ones with a lease and count the send before it leaves, so two workers never send one at the same
 * time and a crashed worker's send is taken again only once its lease ends (at least once; the alert
 * id, the same on every send, lets a receiver drop a repeat). A claim takes a bounded number per
 * channel and, of one incident and channel, only the earliest pending alert (decision 341).
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

/**
 * The due alerts a claim may take, oldest due first: at most `perChannel` of each channel (a window over
 * the oldest 1,000 due), and of each (incident, channel) only the earliest raised that is still pending
 * — a later round (or event) waits until it is sent or given up, so one incident's notifications reach a
 * channel in the order they were raised, through crashes (a leased alert is still `pending`).
 * Params: now, per channel, limit.
 */
const CANDIDATES = (now: string, perChannel: string, limit: string) => `SELECT id FROM (
    SELECT id, due_at, ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY due_at, id) AS n FROM (
      SELECT a.id, a.channel_id, a.due_at FROM alerts a
      WHERE a.due_at <= ${now} AND a.status = 'pending'
        AND NOT EXISTS (
          SELECT 1 FROM alerts p WHERE p.incident_id = a.incident_id AND p.channel_id = a.channel_id AND p.status = 'pending'
            AND (p.created_at < a.created_at OR (p.created_at = a.created_at AND (p.round < a.round OR (p.round = a.round AND p.id < a.id))))
        )
      ORDER BY a.due_at LIMIT 1000
    ) due
  ) ranked WHERE n <= ${perChannel} ORDER BY due_at LIMIT ${limit}`;
const SELECT_DUE_SQL = {
  sqlite: CANDIDATES('?', '?', '?'),
  // FOR UPDATE does not take a window: the rows are locked by id, their due and pending state checked
  // again on the locked version (READ COMMITTED re-reads a row another worker claimed meanwhile).
  postgresql: `SELECT id FROM alerts WHERE due_at <= $1::timestamp(3) AND status = 'pending' AND id IN (${CANDIDATES('$1::timestamp(3)', '$2', '$3')}) ORDER BY due_at FOR UPDATE SKIP LOCKED`,
} as const;
const COLUMNS = 'id, channel_id, incident_id, revision_id, schedule_id, event, round, facts, sends, created_at';
/** Params: lease end, JSON ids. */
const LEASE_SQL = {
  sqlite: `UPDATE alerts SET due_at = ?, sends = sends + 1 WHERE id IN (SELECT value FROM json_each(?)) RETURNING ${COLUMNS}`,
  postgresql: `UPDATE alerts SET due_at = $1::timestamp(3), sends = sends + 1 WHERE id IN (SELECT jsonb_array_elements_text($2::jsonb)) RETURNING ${COLUMNS}`,
} as const;

/**
 * Claim up to `limit` alerts due at `now` (through the `due_at` index), at most `perChannel` of each
 * channel and only the earliest pending one of each (incident, channel) (decision 341), hold them until
 * `leaseUntil` and count their send, in the caller's transaction. Send exactly those, once each.
 */
export async function claimAlertSends(tx: Tx, now: Date, limit: number, leaseUntil: Date, perChannel: number): Promise<AlertSend[]> {
  const dialect = dialectOfDb(tx);
  // SQLite binds `?` in order (now, per channel, limit); PostgreSQL by number.
  const due = await queryRows<{ id: string }>(tx, SELECT_DUE_SQL, sqlInstant(dialect, now), perChannel, limit);
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
    facts: rawJson('alerts.facts', r.facts),
    sends: Number(r.sends),
    createdAt: rawInstant(r.created_at)!,
  }));
}
