/**
 * Hold a blob's row for the rest of the caller's transaction, so changes to what hangs off it (a
 * scheduler's signing secrets, SPEC §13.1) take turns.
 *
 * PostgreSQL: `SELECT … FOR UPDATE` on the blob row; a second transaction waits here until the first
 * commits, then reads what it wrote. SQLite: every transaction is `BEGIN IMMEDIATE` (the write lock
 * is taken at its start), so transactions already take turns and nothing is needed.
 * Keep it the transaction's first read of the rows it guards: a read before it may be stale.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';

export const LOCK_BLOB_SQL = { postgresql: 'SELECT id FROM blobs WHERE id = $1 FOR UPDATE' } as const;

/** Lock blob `blobId` inside `tx`. Answers false when the blob does not exist. */
export async function lockBlob(tx: Tx, blobId: string): Promise<boolean> {
  if (dialectOfDb(tx) === 'sqlite') return (await tx.blob.count({ where: { id: blobId } })) === 1;
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_BLOB_SQL.postgresql, blobId);
  return rows.length === 1;
}
