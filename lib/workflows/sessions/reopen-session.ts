import { inTransaction, type Db } from '../../db';
import type { SessionJson } from '../contract';
import { setSessionState, type SetSessionStateOptions } from './set-session-state';

export type ReopenSessionOptions = SetSessionStateOptions;

/**
 * Reopen a closed session (SPEC §3.2 `reopen_session`): it accepts executions again. Idempotent.
 * Needs `write` on a draft revision.
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `404 session_not_found`.
 */
export async function reopenSession(db: Db, opts: ReopenSessionOptions): Promise<SessionJson> {
  return inTransaction(db, (tx) => setSessionState(tx, { ...opts, state: 'open' }));
}
