import { findScopedRevision, type Db } from '../../db';
import { type Actor, rolesGranting } from '../../auth';
import { DomainError } from '../../errors';
import { idOfRef } from '../../ids';
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
 * (SPEC §3). Scoped in the query (`readableBy`'s rule): an unreadable revision is not found.
 * @throws `404 not_found` ("revision not found") for a missing, malformed or unreadable id alike (SPEC §2).
 */
export async function getReadableRevision(db: Db, opts: GetReadableRevisionOptions): Promise<ReadableRevision> {
  const id = idOfRef(opts.revisionId);
  // One statement on the driver, scoped by `readableBy`'s rule in SQL (docs/decisions.md 385).
  const roles = rolesGranting(opts.actor, 'read');
  const revision = id !== null && roles.length > 0 ? await findScopedRevision(db, id, opts.actor, roles) : null;
  // Non-disclosure (SPEC §2): an unreadable revision answers exactly as a missing one.
  if (!revision) throw new DomainError('not_found', 'revision not found');
  return { id: revision.id, blobId: revision.blobId, orgId: revision.orgId, state: revision.state, blobType: revision.blobType as BlobType };
}
