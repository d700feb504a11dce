import type { Db } from '../../db';
import { type Actor, readableBy } from '../../auth';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { BlobType } from '../contract';

export interface GetReadableRevisionOptions {
  actor: Actor;
  /** The `{revision_id}` path segment as sent: trimmed and lowercased before lookup (SPEC §3.1). */
  revisionId: string;
}

/** A revision as the command router needs it: where it lives and what kind of blob it belongs to. */
export interface ReadableRevision {
  id: string;
  blobId: string;
  orgId: string;
  /** `draft` | `committed` (workflow blobs) or `managed` (scheduler blobs). */
  state: string;
  blobType: BlobType;
}

/**
 * Revision `revisionId` of any blob `actor` can read, for `POST /api/v1/revisions/{revision_id}/data`
 * (SPEC §3). Scoped in the query (`readableBy`): an unreadable revision is not found.
 * @throws `404 not_found` ("revision not found") for a missing, malformed or unreadable id alike (SPEC §2).
 */
export async function getReadableRevision(db: Db, opts: GetReadableRevisionOptions): Promise<ReadableRevision> {
  const id = normalizeRef(opts.revisionId);
  const revision = isIdShape(id)
    ? await db.revision.findFirst({
        where: { id, blob: readableBy(opts.actor) },
        select: { id: true, blobId: true, state: true, blob: { select: { orgId: true, type: true } } },
      })
    : null;
  // Non-disclosure (SPEC §2): an unreadable revision answers exactly as a missing one.
  if (!revision) throw new DomainError('not_found', 'revision not found');
  return { id: revision.id, blobId: revision.blobId, orgId: revision.blob.orgId, state: revision.state, blobType: revision.blob.type as BlobType };
}
