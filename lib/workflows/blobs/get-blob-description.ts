import type { Db, Tx } from '../../db';
import { type Actor, readableBy } from '../../auth';
import { DomainError } from '../../errors';
import type { BlobDescription, BlobType, RevisionState } from '../contract';
import { isIdShape, normalizeRef } from '../../ids';

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
 *   actor cannot read it (SPEC §2: refusal looks like absence). All of these are one statement (the
 *   blob by its reference, in the org by its reference, scoped to what the actor reads), so another
 *   org's blob is refused in the time a missing one is (docs/decisions.md 163).
 */
export async function getBlobDescription(db: Db, opts: GetBlobDescriptionOptions): Promise<BlobDescription> {
  const [ref, orgRef] = [normalizeRef(opts.blob), normalizeRef(opts.org)];
  const blob =
    ref && orgRef
      ? await db.blob.findFirst({
          where: { AND: [isIdShape(ref) ? { id: ref } : { alias: ref }, { org: isIdShape(orgRef) ? { id: orgRef } : { alias: orgRef } }, readableBy(opts.actor)] },
          select: { id: true },
        })
      : null;
  if (!blob) throw new DomainError('not_found', 'blob not found');
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
