import { inTransaction, type Db } from '../../db';
import type { Actor } from '../../auth';
import { requireDraft, requireRevisionAccess } from '../guards';
import { requireSessionByRef } from './find-session-by-ref';

export interface DeleteSessionOptions {
  actor: Actor;
  revisionId: string;
  /** Session id or alias (SPEC §3.2). */
  session: string;
}

/**
 * Delete a session and its executions (SPEC §3.2 `delete_session`). Fires aimed at it then record
 * `session_not_found` (SPEC §8.1). Needs `write` on a draft revision.
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `404 session_not_found`.
 */
export async function deleteSession(db: Db, opts: DeleteSessionOptions): Promise<void> {
  return inTransaction(db, async (tx) => {
    const { revision } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    requireDraft(revision);
    const session = await requireSessionByRef(tx, { revisionId: revision.id, session: opts.session });
    // Executions go with the session (ON DELETE CASCADE on executions.session_id).
    await tx.workflowSession.delete({ where: { id: session.id } });
  });
}
