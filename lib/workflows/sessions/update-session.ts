import { inTransaction, type Db } from '../../db';
import type { Actor } from '../../auth';
import { DomainError } from '../../errors';
import type { SessionJson } from '../contract';
import { requireAliasGrammar, requireDraft, requireRevisionAccess, withAliasGuard } from '../guards';
import { sessionJson } from '../serialize';
import { requireSessionByRef } from './find-session-by-ref';

export interface UpdateSessionOptions {
  actor: Actor;
  revisionId: string;
  /** Session id or alias (SPEC §3.2). */
  session: string;
  /** New alias (SPEC §4 grammar); `null` removes it; `undefined` leaves it. */
  alias?: string | null;
  now?: Date;
}

/**
 * Rename a session (SPEC §3.2 `update_session`). Pinned schedule targets hold the session id, so a
 * rename does not move them; following targets resolve the alias at each fire (SPEC §6.1). Needs `write`
 * on a draft revision. Setting the alias it already has is a no-op.
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `404 session_not_found`,
 *   `400 invalid_alias`, `409 alias_taken`.
 */
export async function updateSession(db: Db, opts: UpdateSessionOptions): Promise<SessionJson> {
  return inTransaction(db, async (tx) => {
    const { revision } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    requireDraft(revision);
    const session = await requireSessionByRef(tx, { revisionId: revision.id, session: opts.session });
    if (opts.alias === undefined || opts.alias === session.alias) return sessionJson(session);
    if (opts.alias !== null) {
      requireAliasGrammar(opts.alias);
      const taken = await tx.workflowSession.findUnique({
        where: { revisionId_alias: { revisionId: revision.id, alias: opts.alias } },
        select: { id: true },
      });
      if (taken) throw new DomainError('alias_taken', `session alias "${opts.alias}" is taken in this revision`, { path: 'alias' });
    }
    const row = await withAliasGuard(opts.alias, () =>
      tx.workflowSession.update({ where: { id: session.id }, data: { alias: opts.alias, updatedAt: opts.now ?? new Date() } }),
    );
    return sessionJson(row);
  });
}
