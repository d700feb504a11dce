import { inTransaction, type Db } from '../../db';
import type { BlobDescription } from '../contract';
import { insertBlob, type InsertBlobOptions } from './insert-blob';

export type CreateSchedulerBlobOptions = InsertBlobOptions;

/**
 * Create a scheduler blob in `org` with its one `managed` revision set as its default (SPEC §1: always
 * writable, never committed or branched). Needs `write` on the org. Returns the §3.3 description.
 * @throws `404 not_found`, `403 forbidden`, `400 invalid_alias`, `409 alias_taken` (as `createWorkflowBlob`).
 */
export async function createSchedulerBlob(db: Db, opts: CreateSchedulerBlobOptions): Promise<BlobDescription> {
  return inTransaction(db, (tx) => insertBlob(tx, { ...opts, type: 'scheduler', firstRevisionState: 'managed' }));
}
