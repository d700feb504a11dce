/**
 * The active workflow-target schedules whose stored `invocation_target` names a blob in its `target`
 * or its qualified `workflow` (SPEC §6.1, §6.2), in one statement: what a catalog change (commit, set
 * default, delete session, delete blob) may break. The stored refs are "as written" (any case, with
 * whitespace), so this is a loose pre-filter: the lowercased ref CONTAINS the blob's id or alias; the
 * caller resolves each candidate exactly (org included). One pass over `schedules` (no JSON index):
 * a few ms at 10,000 schedules, run only when a catalog page renders its confirmations.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';

/** Params: the blob id, the blob alias (lowercase; the id again when it has none), twice: target, then workflow. */
export const SCHEDULES_NAMING_BLOB_SQL = {
  sqlite: `SELECT s.id AS id, s.alias AS alias, s.enabled AS enabled, s.revision_id AS revision_id, s.invocation_target AS invocation_target
    FROM schedules s
    WHERE s.state = 'active' AND s.invocation_target_type = 'workflow'
      AND (instr(lower(COALESCE(json_extract(s.invocation_target, '$.target.blob'), '')), ?) > 0
        OR instr(lower(COALESCE(json_extract(s.invocation_target, '$.target.blob'), '')), ?) > 0
        OR instr(lower(COALESCE(json_extract(s.invocation_target, '$.workflow.blob'), '')), ?) > 0
        OR instr(lower(COALESCE(json_extract(s.invocation_target, '$.workflow.blob'), '')), ?) > 0)
    ORDER BY s.revision_id, s.created_at, s.id`,
  postgresql: `SELECT s.id AS id, s.alias AS alias, s.enabled AS enabled, s.revision_id AS revision_id, s.invocation_target AS invocation_target
    FROM schedules s
    WHERE s.state = 'active' AND s.invocation_target_type = 'workflow'
      AND (strpos(lower(COALESCE(s.invocation_target->'target'->>'blob', '')), $1) > 0
        OR strpos(lower(COALESCE(s.invocation_target->'target'->>'blob', '')), $2) > 0
        OR strpos(lower(COALESCE(s.invocation_target->'workflow'->>'blob', '')), $3) > 0
        OR strpos(lower(COALESCE(s.invocation_target->'workflow'->>'blob', '')), $4) > 0)
    ORDER BY s.revision_id, s.created_at, s.id`,
} as const;

export interface ScheduleNamingBlob {
  id: string;
  alias: string | null;
  enabled: boolean;
  /** The scheduler's managed revision. */
  revisionId: string;
  /** The stored `invocation_target` (parsed JSON). */
  invocationTarget: unknown;
}

/** Candidates naming blob `blobId` / `blobAlias` (see the module comment: the caller resolves them exactly). */
export async function findSchedulesNamingBlob(tx: Tx, blobId: string, blobAlias: string | null): Promise<ScheduleNamingBlob[]> {
  const alias = (blobAlias ?? blobId).toLowerCase();
  const rows = await tx.$queryRawUnsafe<{ id: string; alias: string | null; enabled: boolean | number | bigint; revision_id: string; invocation_target: unknown }[]>(
    SCHEDULES_NAMING_BLOB_SQL[dialectOfDb(tx)],
    blobId,
    alias,
    blobId,
    alias,
  );
  return rows.map((r) => ({
    id: r.id,
    alias: r.alias,
    enabled: Boolean(Number(r.enabled)),
    revisionId: r.revision_id,
    invocationTarget: typeof r.invocation_target === 'string' ? JSON.parse(r.invocation_target) : r.invocation_target,
  }));
}
