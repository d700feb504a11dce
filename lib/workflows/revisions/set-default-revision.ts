import { inTransaction, type Db } from '../../db';
import type { Actor } from '../../auth';
import type { RevisionJson } from '../contract';
import { requireRevisionAccess } from '../guards';
import { revisionJson } from '../serialize';

export interface SetDefaultRevisionOptions {
  actor: Actor;
  /** The workflow revision (draft or committed) to make its blob's default. */
  revisionId: string;
}

/**
 * Point the blob's default at `revisionId` (SPEC §1). Following targets (SPEC §6.1) resolve the new
 * default from their next fire on. A committed default is allowed; fires of following targets then
 * record `default_revision_committed` (SPEC §8.1). Idempotent. Needs `write` on the blob.
 * @throws `404 not_found` (missing, not a workflow revision, unreadable), `403 forbidden`.
 */
export async function setDefaultRevision(db: Db, opts: SetDefaultRevisionOptions): Promise<RevisionJson> {
  return inTransaction(db, async (tx) => {
    const { revision, blob } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    await tx.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: revision.id } });
    return revisionJson(revision, revision.id);
  });
}
