import { inTransaction, type Db } from '../../db';
import type { Actor } from '../../auth';
import { DomainError } from '../../errors';
import type { RevisionJson } from '../contract';
import { requireRevisionAccess } from '../guards';
import { revisionJson } from '../serialize';

export interface CommitRevisionOptions {
  actor: Actor;
  /** The draft revision to freeze. */
  revisionId: string;
  now?: Date;
}

/**
 * Freeze a draft workflow revision: `draft` → `committed` (SPEC §1). Its sessions and definitions stay
 * readable; it accepts no more writes or executions. Needs `write` on the blob. Does not move the default.
 * @throws `404 not_found` (missing, not a workflow revision, or unreadable), `403 forbidden` (read only),
 *   `409 invalid_revision_state` (already committed, or a scheduler's managed revision).
 */
export async function commitRevision(db: Db, opts: CommitRevisionOptions): Promise<RevisionJson> {
  return inTransaction(db, async (tx) => {
    const { revision, blob } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    const now = opts.now ?? new Date();
    // Compare-and-set on state: two concurrent commits change one row; the loser is refused below.
    const { count } = await tx.revision.updateMany({
      where: { id: revision.id, state: 'draft' },
      data: { state: 'committed', committedAt: now },
    });
    if (count !== 1) {
      throw new DomainError('invalid_revision_state', `revision ${revision.id} is ${revision.state}; only a draft can be committed`);
    }
    return revisionJson({ ...revision, state: 'committed', committedAt: now }, blob.defaultRevisionId);
  });
}
