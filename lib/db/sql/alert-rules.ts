/**
 * Whether any enabled alert rule (SPEC §17) belongs to one of a batch's scheduler revisions: the fire
 * path's first alert read, through the `alert_rules(revision_id)` index, on the transaction's driver
 * connection (run-sql.ts). Most batches meet no rule; then it is the only alert statement they run.
 */
import type { Tx } from '../client';
import { queryRows } from './run-sql';

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
