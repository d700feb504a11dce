import { inTransaction, type Db } from '../../db';
import type { Actor } from '../../auth';
import { DomainError } from '../../errors';
import { newId } from '../../ids';
import type { SessionJson } from '../contract';
import { requireAliasGrammar, requireDraft, requireRevisionAccess, withAliasGuard } from '../guards';
import { sessionJson } from '../serialize';

export interface CreateSessionOptions {
  actor: Actor;
  /** The draft workflow revision to create the session in. */
  revisionId: string;
  /** Optional alias (SPEC §4 grammar), unique within the revision. */
  alias?: string;
  now?: Date;
}

/**
 * Create an `open` session in a draft workflow revision (SPEC §1, §3.2 `create_session`). Needs `write`.
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `400 invalid_alias`, `409 alias_taken`.
 */
export async function createSession(db: Db, opts: CreateSessionOptions): Promise<SessionJson> {
  return inTransaction(db, async (tx) => {
    const { revision } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    requireDraft(revision);
    if (opts.alias !== undefined) {
      requireAliasGrammar(opts.alias);
      const taken = await tx.workflowSession.findUnique({
        where: { revisionId_alias: { revisionId: revision.id, alias: opts.alias } },
        select: { id: true },
      });
      if (taken) throw new DomainError('alias_taken', `session alias "${opts.alias}" is taken in this revision`, { path: 'alias' });
    }
    const now = opts.now ?? new Date();
    const row = await withAliasGuard(opts.alias, () =>
      tx.workflowSession.create({
        data: { id: newId(), revisionId: revision.id, alias: opts.alias ?? null, state: 'open', createdAt: now, updatedAt: now },
      }),
    );
    return sessionJson(row);
  });
}
