import { inTransaction, type Db } from '../../db';
import type { SessionJson } from '../contract';
import { setSessionState, type SetSessionStateOptions } from './set-session-state';

export type CloseSessionOptions = SetSessionStateOptions;

/**
 * Close a session (SPEC §1, §3.2 `close_session`): it stops accepting executions, and fires aimed at it
 * record `session_not_open` (SPEC §8.1). Idempotent. Needs `write` on a draft revision.
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `404 session_not_found`.
 */
export async function closeSession(db: Db, opts: CloseSessionOptions): Promise<SessionJson> {
  return inTransaction(db, (tx) => setSessionState(tx, { ...opts, state: 'closed' }));
}
