/**
 * Whether any enabled alert rule (SPEC §17) belongs to one of a batch's scheduler revisions: the fire
 * path's first alert read, through the `alert_rules(revision_id)` index, on the transaction's driver
 * connection (run-sql.ts). Most batches meet no rule; then it is the only alert statement they run.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { executeSql, queryRows } from './run-sql';
import { sqlInstant } from './instant';

/** Param: JSON array of revision ids. One row when some enabled rule belongs to one of them. */
const ANY_ENABLED_RULE_SQL = {
  sqlite: `SELECT 1 AS found FROM alert_rules WHERE revision_id IN (SELECT value FROM json_each(?)) AND enabled = 1 LIMIT 1`,
  postgresql: `SELECT 1 AS found FROM alert_rules WHERE revision_id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND enabled LIMIT 1`,
} as const;

/** True when an enabled alert rule of any of `revisionIds` exists (false for none given). */
export async function anyEnabledAlertRule(tx: Tx, revisionIds: string[]): Promise<boolean> {
  if (revisionIds.length === 0) return false;
  return (await queryRows(tx, ANY_ENABLED_RULE_SQL, JSON.stringify(revisionIds))).length > 0;
}

/**
 * Lock order of alerting (docs/decisions.md 440): an alert rule's row before its incidents. A raise
 * (the fire path, check-ins, the minute check's silence and re-alerts) holds the rules it writes for
 * shared (`FOR KEY SHARE`, in id order: raises never wait for each other); a rule's delete, and a
 * schedule's delete for the rules on it, hold the rules exclusively (`FOR UPDATE`) before they end the
 * rules' incidents. So a delete and a raise of one rule meet at the rule and never hold an incident
 * the other waits for. SQLite: every transaction holds the write lock from its start (BEGIN
 * IMMEDIATE), so the texts only read.
 */
const LOCK_RULES_SHARED_SQL = {
  sqlite: `SELECT id FROM alert_rules WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  postgresql: `SELECT id FROM alert_rules WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY id FOR KEY SHARE`,
} as const;

/** One rule by id, held with `lock` on PostgreSQL (SQLite reads under its write lock). */
const lockRuleSql = (lock: string) => ({ sqlite: 'SELECT id FROM alert_rules WHERE id = ?', postgresql: `SELECT id FROM alert_rules WHERE id = $1 ${lock}` }) as const;

/** `lockAlertRule`'s text by purpose. */
const LOCK_RULE_SQL = { delete: lockRuleSql('FOR UPDATE'), change: lockRuleSql('FOR NO KEY UPDATE') } as const;

/**
 * Hold the alert rules `ruleIds` shared for the rest of `tx` (in id order, waiting for a delete of one
 * of them to end) and answer which of them still exist: a rule deleted since the caller read it is
 * not in the set, and the caller must not alert for it.
 */
export async function lockAlertRulesShared(tx: Tx, ruleIds: string[]): Promise<Set<string>> {
  if (ruleIds.length === 0) return new Set();
  const rows = await queryRows<{ id: string }>(tx, LOCK_RULES_SHARED_SQL, JSON.stringify(ruleIds));
  return new Set(rows.map((r) => r.id));
}

const LOCK_RULES_OF_SCHEDULES_SQL = {
  sqlite: `SELECT id FROM alert_rules WHERE schedule_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
  postgresql: `SELECT id FROM alert_rules WHERE schedule_id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY id FOR UPDATE`,
} as const;

/** Hold the alert rules on schedules `scheduleIds` exclusively for the rest of `tx`, in id order (a schedule's delete, before their incidents). */
export async function lockAlertRulesOfSchedules(tx: Tx, scheduleIds: string[]): Promise<void> {
  if (scheduleIds.length > 0) await queryRows(tx, LOCK_RULES_OF_SCHEDULES_SQL, JSON.stringify(scheduleIds));
}

/**
 * Hold alert rule `ruleId` for the rest of `tx`; false when it no longer exists. `delete`: exclusively
 * (`FOR UPDATE`), before its incidents and its channels' cascade. `change`: against a delete only
 * (`FOR NO KEY UPDATE`: raises holding it shared go on), before its channels are replaced.
 */
export async function lockAlertRule(tx: Tx, ruleId: string, purpose: 'delete' | 'change'): Promise<boolean> {
  return (await queryRows(tx, LOCK_RULE_SQL[purpose], ruleId)).length === 1;
}

/** Which open incidents `endIncidents` ends: those of the given ids, alert rules or schedules, or of a scheduler blob's revisions. */
export type IncidentsToEnd = ['ids' | 'ruleIds' | 'scheduleIds', string[]] | ['blobId', string];

/** The `WHERE` of each kind: SQLite on the bare table, PostgreSQL on `i`; the second parameter. */
const INCIDENTS_WHERE = {
  ids: { sqlite: 'id IN (SELECT value FROM json_each(?))', postgresql: 'i.id IN (SELECT jsonb_array_elements_text($2::jsonb))' },
  ruleIds: { sqlite: 'rule_id IN (SELECT value FROM json_each(?))', postgresql: 'i.rule_id IN (SELECT jsonb_array_elements_text($2::jsonb))' },
  scheduleIds: { sqlite: 'schedule_id IN (SELECT value FROM json_each(?))', postgresql: 'i.schedule_id IN (SELECT jsonb_array_elements_text($2::jsonb))' },
  blobId: { sqlite: 'revision_id IN (SELECT id FROM revisions WHERE blob_id = ?)', postgresql: 'i.revision_id IN (SELECT id FROM revisions WHERE blob_id = $2)' },
} as const;

/**
 * Params: the instant they end (sqlInstant), then the kind's value. PostgreSQL locks the incidents
 * in id order (the sort runs below `FOR UPDATE`, so rows are locked as they leave it) and the update
 * writes only rows locked there; a row another transaction ended while this one waited for it no
 * longer matches when PostgreSQL reads it again, and is skipped.
 */
const END_INCIDENTS_SQL = Object.fromEntries(
  Object.entries(INCIDENTS_WHERE).map(([kind, where]) => [
    kind,
    {
      sqlite: `UPDATE alert_incidents SET open_key = NULL, resolved_at = ? WHERE open_key IS NOT NULL AND ${where.sqlite}`,
      postgresql: `WITH locked AS MATERIALIZED (SELECT i.id FROM alert_incidents AS i WHERE i.open_key IS NOT NULL AND ${where.postgresql} ORDER BY i.id FOR UPDATE OF i)
        UPDATE alert_incidents AS i SET open_key = NULL, resolved_at = $1::timestamp(3) FROM locked WHERE i.id = locked.id AND i.open_key IS NOT NULL`,
    },
  ]),
) as Record<keyof typeof INCIDENTS_WHERE, { sqlite: string; postgresql: string }>;

/**
 * End at `now` (UTC) the open incidents `which` names (SPEC §17: `open_key` null, `resolved_at`
 * now), in the caller's transaction; answers how many ended. Every end of incidents outside a raise
 * goes through this: a rule's delete, a schedule's delete, the minute check's clean-ups, a
 * scheduler's delete. (A raise resolves its own incidents one by one, holding their schedules and
 * rules first.)
 *
 * Lock order (docs/decisions.md 440, 442): callers hold the schedules or rules the incidents belong
 * to first where they still exist; the incidents themselves are then locked in id order on
 * PostgreSQL, so two of these statements over overlapping incidents (a scheduler's delete and the
 * minute check's re-alert ending the incidents of a schedule the fire path deleted, which has no
 * schedule left to lock) wait for each other in one order and never deadlock.
 */
export async function endIncidents(tx: Tx, which: IncidentsToEnd, now: Date): Promise<number> {
  const [kind, value] = which;
  if (Array.isArray(value) && value.length === 0) return 0;
  return executeSql(tx, END_INCIDENTS_SQL[kind], sqlInstant(dialectOfDb(tx), now), Array.isArray(value) ? JSON.stringify(value) : value);
}
