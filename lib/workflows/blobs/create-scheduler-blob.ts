import { inTransaction, type Db, type Tx } from '../../db';
import type { BlobDescription } from '../contract';
import { insertBlob, type InsertBlobOptions } from './insert-blob';

export type CreateSchedulerBlobOptions = InsertBlobOptions;

/**
 * Create a scheduler blob in `org` with its one `managed` revision set as its default (SPEC §1: always
 * writable, never committed or branched). Needs `write` on the org. Returns the §3.3 description.
 * @throws `404 not_found`, `403 forbidden`, `400 invalid_alias`, `409 alias_taken` (as `createWorkflowBlob`).
 */
export async function createSchedulerBlob(db: Db, opts: CreateSchedulerBlobOptions): Promise<BlobDescription> {
  return inTransaction(db, (tx) => insertSchedulerBlob(tx, opts));
}

/**
 * `createSchedulerBlob` inside the caller's transaction, for a domain verb that writes the blob with
 * other rows (an EventBridge schedule group, SPEC §14). Same checks and errors.
 */
export async function insertSchedulerBlob(tx: Tx, opts: CreateSchedulerBlobOptions): Promise<BlobDescription> {
  return insertBlob(tx, { ...opts, type: 'scheduler', firstRevisionState: 'managed' });
}
