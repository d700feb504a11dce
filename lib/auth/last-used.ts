/**
 * The `lastUsedAt` stamp of a credential (API keys, access key pairs), written after a request
 * authenticated with it. A stamp is bookkeeping, not the request: when the storage refuses it (disk
 * full, read-only database: `storageFaultOf` in lib/errors) it is lost and the request goes on, so
 * reads keep answering; the request's own write, if any, answers the condition.
 */
import { inTransaction, type Db, type Tx } from '../db';
import { storageFaultOf } from '../errors';

/** Run `write` (the stamp's update) in a transaction of its own; a storage fault is swallowed, any other error thrown. */
export async function stampLastUsed(db: Db, write: (tx: Tx) => Promise<unknown>): Promise<void> {
  try {
    await inTransaction(db, write);
  } catch (e) {
    if (!storageFaultOf(e)) throw e;
  }
}
