import type { Tx, Blob } from '../../db';
import { isIdShape, normalizeRef } from '../../ids';
import { findOrgByRef } from './find-org-by-ref';

export interface FindBlobByRefOptions {
  /** Org id or alias. Required when `blob` is an alias; when given with a blob id it must be that blob's org. */
  org?: string;
  /** Blob id or alias. References are trimmed and lowercased before lookup (SPEC §3.1). */
  blob: string;
}

/**
 * The blob named by id, or by org (id or alias) + blob alias (SPEC §3.3, §6.1), or null when there is
 * none: unknown id or alias, a blob alias without an org, or an org that is not the blob's. Any blob type.
 * No access check: callers check the actor's role (and answer as for absence when it has none, SPEC §2).
 */
export async function findBlobByRef(db: Tx, opts: FindBlobByRefOptions): Promise<Blob | null> {
  const ref = normalizeRef(opts.blob);
  if (!ref) return null;
  const org = opts.org !== undefined ? await findOrgByRef(db, { org: opts.org }) : null;
  if (opts.org !== undefined && !org) return null;
  if (isIdShape(ref)) {
    const blob = await db.blob.findUnique({ where: { id: ref } });
    if (!blob || (org && blob.orgId !== org.id)) return null;
    return blob;
  }
  if (!org) return null;
  return db.blob.findUnique({ where: { orgId_alias: { orgId: org.id, alias: ref } } });
}
