import type { Db } from '../../db';
import type { Actor } from '../../auth';
import type { SessionJson } from '../contract';
import { requireRevisionAccess } from '../guards';
import { sessionJson } from '../serialize';
import { requireSessionByRef } from './find-session-by-ref';

export interface GetSessionOptions {
  actor: Actor;
  revisionId: string;
  /** Session id or alias (SPEC §3.2). */
  session: string;
}

/**
 * One session of a workflow revision (SPEC §3.2 `get_session`). Needs `read`; any revision state.
 * @throws `404 not_found` (revision), `404 session_not_found`.
 */
export async function getSession(db: Db, opts: GetSessionOptions): Promise<SessionJson> {
  const { revision } = await requireRevisionAccess(db, { ...opts, need: 'read', blobType: 'workflow' });
  return sessionJson(await requireSessionByRef(db, { revisionId: revision.id, session: opts.session }));
}
