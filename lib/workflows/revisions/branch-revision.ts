import { inTransaction, type Db, type Prisma } from '../../db';
import type { Actor } from '../../auth';
import { DomainError } from '../../errors';
import { newId } from '../../ids';
import type { RevisionJson } from '../contract';
import { requireRevisionAccess } from '../guards';
import { revisionJson } from '../serialize';

export interface BranchRevisionOptions {
  actor: Actor;
  /** The committed revision to branch from. */
  revisionId: string;
  now?: Date;
}

/**
 * Branch a committed workflow revision into a new `draft` (SPEC §1): every definition and session is
 * copied with a NEW id but the SAME alias (definitions keep name and spec; sessions keep their state).
 * Executions are not copied. The new revision records its parent and does not become the default
 * (see `setDefaultRevision`). Needs `write` on the blob.
 * @throws `404 not_found`, `403 forbidden`, `409 invalid_revision_state` (source is a draft or managed).
 */
export async function branchRevision(db: Db, opts: BranchRevisionOptions): Promise<RevisionJson> {
  return inTransaction(db, async (tx) => {
    const { revision, blob } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    if (revision.state !== 'committed') {
      throw new DomainError('invalid_revision_state', `revision ${revision.id} is ${revision.state}; only a committed revision can be branched`);
    }
    const now = opts.now ?? new Date();
    const created = await tx.revision.create({
      data: { id: newId(), blobId: blob.id, state: 'draft', parentRevisionId: revision.id, createdAt: now },
    });
    const [definitions, sessions] = await Promise.all([
      tx.definition.findMany({ where: { revisionId: revision.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
      tx.workflowSession.findMany({ where: { revisionId: revision.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    ]);
    if (definitions.length > 0) {
      await tx.definition.createMany({
        data: definitions.map((d) => ({
          id: newId(),
          revisionId: created.id,
          alias: d.alias,
          name: d.name,
          spec: d.spec as Prisma.InputJsonValue,
          createdAt: d.createdAt,
          updatedAt: now,
        })),
      });
    }
    if (sessions.length > 0) {
      await tx.workflowSession.createMany({
        data: sessions.map((s) => ({
          id: newId(),
          revisionId: created.id,
          alias: s.alias,
          state: s.state,
          createdAt: s.createdAt,
          updatedAt: now,
        })),
      });
    }
    return revisionJson(created, blob.defaultRevisionId);
  });
}
