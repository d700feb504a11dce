import { inTransaction, type Db } from '../../db';
import type { BlobDescription } from '../contract';
import { insertBlob, type InsertBlobOptions } from './insert-blob';

export type CreateWorkflowBlobOptions = InsertBlobOptions;

/**
 * Create a workflow blob in `org` with a first, empty `draft` revision set as its default (SPEC §1).
 * Needs `write` on the org. Returns the §3.3 description.
 * @throws `404 not_found` (org missing or not visible), `403 forbidden` (read-only on the org),
 *   `400 invalid_alias`, `409 alias_taken` (alias unique per org).
 */
export async function createWorkflowBlob(db: Db, opts: CreateWorkflowBlobOptions): Promise<BlobDescription> {
  return inTransaction(db, (tx) => insertBlob(tx, { ...opts, type: 'workflow', firstRevisionState: 'draft' }));
}
