import type { Db } from '../../db';
import type { Actor } from '../../auth';
import { PAGE_SIZE, type SessionJson, type SessionState } from '../contract';
import { requireRevisionAccess } from '../guards';
import { afterCursor, cutPage, pageOrder } from '../paging';
import { sessionJson } from '../serialize';

export interface ListSessionsOptions {
  actor: Actor;
  revisionId: string;
  /** Only sessions in this state. */
  state?: SessionState;
  /** Exclusive cursor: the `last_session_id` of the previous page. */
  startSessionId?: string;
  /** Items per page; default 50. */
  pageSize?: number;
}

/**
 * A page of a workflow revision's sessions (SPEC §3.2 `list_sessions`), oldest first (`created_at`,
 * then `id`). `lastSessionId` is null on the last page. Needs `read`; any revision state.
 * @throws `404 not_found` (revision), `400 invalid_request_body` (unknown cursor, path `start_session_id`).
 */
export async function listSessions(
  db: Db,
  opts: ListSessionsOptions,
): Promise<{ sessions: SessionJson[]; lastSessionId: string | null }> {
  const { revision } = await requireRevisionAccess(db, { ...opts, need: 'read', blobType: 'workflow' });
  const size = opts.pageSize ?? PAGE_SIZE.sessions;
  const scope = { revisionId: revision.id, ...(opts.state ? { state: opts.state } : {}) };
  const cursor =
    opts.startSessionId !== undefined
      ? afterCursor(
          await db.workflowSession.findFirst({ where: { ...scope, id: opts.startSessionId } }),
          'asc',
          'start_session_id',
          opts.startSessionId,
        )
      : {};
  const rows = await db.workflowSession.findMany({
    where: { ...scope, ...cursor },
    orderBy: [...pageOrder('asc')],
    take: size + 1,
  });
  const { items, lastId } = cutPage(rows, size);
  return { sessions: items.map(sessionJson), lastSessionId: lastId };
}
