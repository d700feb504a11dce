/** Internal: the one write behind `closeSession` and `reopenSession`. */
import type { Tx } from '../../db';
import type { Actor } from '../../auth';
import type { SessionJson, SessionState } from '../contract';
import { requireDraft, requireRevisionAccess } from '../guards';
import { sessionJson } from '../serialize';
import { requireSessionByRef } from './find-session-by-ref';

export interface SetSessionStateOptions {
  actor: Actor;
  revisionId: string;
  /** Session id or alias (SPEC §3.2). */
  session: string;
  now?: Date;
}

export async function setSessionState(db: Tx, opts: SetSessionStateOptions & { state: SessionState }): Promise<SessionJson> {
  const { revision } = await requireRevisionAccess(db, { ...opts, need: 'write', blobType: 'workflow' });
  requireDraft(revision);
  const session = await requireSessionByRef(db, { revisionId: revision.id, session: opts.session });
  if (session.state === opts.state) return sessionJson(session);
  const row = await db.workflowSession.update({
    where: { id: session.id },
    data: { state: opts.state, updatedAt: opts.now ?? new Date() },
  });
  return sessionJson(row);
}
