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

/** Params: the instant they end (sqlInstant), blob id. Open incidents are few: read through the open_key index. */
const END_INCIDENTS_OF_BLOB_SQL = {
  sqlite: `UPDATE alert_incidents SET open_key = NULL, resolved_at = ? WHERE open_key IS NOT NULL AND revision_id IN (SELECT id FROM revisions WHERE blob_id = ?)`,
  postgresql: `UPDATE alert_incidents SET open_key = NULL, resolved_at = $1::timestamp(3) WHERE open_key IS NOT NULL AND revision_id IN (SELECT id FROM revisions WHERE blob_id = $2)`,
} as const;

/**
 * End at `now` (UTC) the open incidents of the alert rules of scheduler blob `blobId`, in the
 * transaction of the blob's delete: incidents have no foreign key, so the cascade leaves them, and
 * an incident left open is never resolved nor swept by retention (SPEC §17; a schedule's delete ends
 * its incidents the same way, decision 344). Lock order (decision 440): the caller holds the blob's
 * schedules and rules first (`lockBlobForDelete`). Answers how many ended.
 */
export async function endIncidentsOfBlob(tx: Tx, blobId: string, now: Date): Promise<number> {
  return executeSql(tx, END_INCIDENTS_OF_BLOB_SQL, sqlInstant(dialectOfDb(tx), now), blobId);
}
