/**
 * The reads a schedule save makes before it writes (SPEC §5.2, §9, §14), as typed statements on the
 * transaction's driver connection (`readRows`, docs/decisions.md 386): how many schedules a scheduler
 * holds (the per-scheduler limit), which schedule holds a token as its alias or its name (decision
 * 150), and a blob's org. Each is one probe of an index (`schedules(revision_id, …)`, the unique
 * `(revision_id, alias)` and `(revision_id, name)`, `blobs.id`).
 */
import type { Tx } from '../client';
import { readRows } from './run-sql';
import { rawText, rawTextOrNull } from './schedule-record';

/** Params: revision id. */
export const COUNT_SCHEDULES_SQL = {
  sqlite: 'SELECT COUNT(*) AS n FROM schedules WHERE revision_id = ?',
  postgresql: 'SELECT COUNT(*) AS n FROM schedules WHERE revision_id = $1',
} as const;

/** How many schedules revision `revisionId` holds. */
export async function countSchedules(tx: Tx, revisionId: string): Promise<number> {
  const [r] = await readRows(tx, COUNT_SCHEDULES_SQL, revisionId);
  return Number(r?.n ?? 0);
}

/** Params: revision id, token, token (and, `_EXCEPT`, the id left out). */
export const TOKEN_HOLDER_SQL = {
  sqlite: 'SELECT id, alias, name FROM schedules WHERE revision_id = ? AND (alias = ? OR name = ?) LIMIT 1',
  postgresql: 'SELECT id, alias, name FROM schedules WHERE revision_id = $1 AND (alias = $2 OR name = $3) LIMIT 1',
} as const;
export const TOKEN_HOLDER_EXCEPT_SQL = {
  sqlite: 'SELECT id, alias, name FROM schedules WHERE revision_id = ? AND (alias = ? OR name = ?) AND id <> ? LIMIT 1',
  postgresql: 'SELECT id, alias, name FROM schedules WHERE revision_id = $1 AND (alias = $2 OR name = $3) AND id <> $4 LIMIT 1',
} as const;

/** A schedule of revision `revisionId` other than `exceptId` whose alias or name is `token`, or null. */
export async function findScheduleHoldingToken(tx: Tx, revisionId: string, token: string, exceptId?: string): Promise<{ id: string; alias: string | null; name: string } | null> {
  const [r] = exceptId ? await readRows(tx, TOKEN_HOLDER_EXCEPT_SQL, revisionId, token, token, exceptId) : await readRows(tx, TOKEN_HOLDER_SQL, revisionId, token, token);
  return r ? { id: rawText('schedules.id', r.id), alias: rawTextOrNull('schedules.alias', r.alias), name: rawText('schedules.name', r.name) } : null;
}

/** Params: blob id. */
export const BLOB_ORG_SQL = {
  sqlite: 'SELECT org_id FROM blobs WHERE id = ?',
  postgresql: 'SELECT org_id FROM blobs WHERE id = $1',
} as const;

/** The org of blob `blobId`. Throws when there is no such blob (callers checked access to it first). */
export async function orgOfBlob(tx: Tx, blobId: string): Promise<string> {
  const [r] = await readRows(tx, BLOB_ORG_SQL, blobId);
  if (!r) throw new Error(`blob ${blobId} not found`);
  return rawText('blobs.org_id', r.org_id);
}
