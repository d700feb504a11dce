import type { Db, Tx } from '../../db';
import { type Actor, hasBlobAccess } from '../../auth';
import { DomainError } from '../../errors';
import type { BlobDescription, BlobType, RevisionState } from '../contract';
import { findBlobByRef } from './find-blob-by-ref';

export interface GetBlobDescriptionOptions {
  actor: Actor;
  /** Org id or alias (the `{org}` path segment). */
  org: string;
  /** Blob id or alias (the `{blob}` path segment). */
  blob: string;
}

/**
 * Discovery (SPEC §3.3): `{id, alias?, org: {id, alias?}, type, default_revision_id, revisions: [{id,
 * state, is_default, created_at}]}`, revisions oldest first. Both blob types.
 * @throws `404 not_found` when the org or blob does not exist, the blob is not in that org, or the
 *   actor cannot read it (SPEC §2: refusal looks like absence).
 */
export async function getBlobDescription(db: Db, opts: GetBlobDescriptionOptions): Promise<BlobDescription> {
  const blob = await findBlobByRef(db, { org: opts.org, blob: opts.blob });
  const notFound = new DomainError('not_found', 'blob not found');
  if (!blob) throw notFound;
  if (!(await hasBlobAccess(db, opts.actor, blob.id, 'read'))) throw notFound;
  return describeBlob(db, blob.id);
}

/**
 * The §3.3 description of blob `blobId`, without an access check (callers have done it).
 * @throws `404 not_found` when the blob does not exist.
 */
export async function describeBlob(db: Tx, blobId: string): Promise<BlobDescription> {
  const blob = await db.blob.findUnique({
    where: { id: blobId },
    include: { org: { select: { id: true, alias: true } }, revisions: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  });
  if (!blob) throw new DomainError('not_found', 'blob not found');
  return {
    id: blob.id,
    ...(blob.alias != null ? { alias: blob.alias } : {}),
    org: { id: blob.org.id, ...(blob.org.alias != null ? { alias: blob.org.alias } : {}) },
    type: blob.type as BlobType,
    default_revision_id: blob.defaultRevisionId,
    revisions: blob.revisions.map((r) => ({
      id: r.id,
      state: r.state as RevisionState,
      is_default: r.id === blob.defaultRevisionId,
      created_at: r.createdAt.toISOString(),
    })),
  };
}
