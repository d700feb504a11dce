import type { Db } from '../../db';
import { type Actor, readableBy } from '../../auth';
import { DomainError } from '../../errors';
import type { BlobDescription } from '../contract';
import { describeBlob } from './get-blob-description';
import { findVisibleOrg } from './find-org-by-ref';

export interface ListReadableBlobsOptions {
  actor: Actor;
  /** Org id or alias (the `{org}` path segment). */
  org: string;
}

/**
 * `GET /api/v1/orgs/{org}/blobs` (SPEC §3.3): the §3.3 description of every blob of `org` the actor
 * can read (org role or a blob grant), both types, oldest first (by `created_at`, then `id`).
 * @throws `404 not_found` when the org does not exist or the actor can read none of its blobs and holds
 *   no role on it (an org the caller cannot see answers as one that does not exist, SPEC §2).
 */
export async function listReadableBlobs(db: Db, opts: ListReadableBlobsOptions): Promise<{ blobs: BlobDescription[] }> {
  // Missing and hidden alike: one scoped statement, one answer (SPEC §2).
  const org = await findVisibleOrg(db, { org: opts.org, actor: opts.actor });
  if (!org) throw new DomainError('not_found', 'org not found');
  // Scoped in the query: blobs the actor cannot read are not found (SPEC §2).
  const blobs = await db.blob.findMany({
    where: { AND: [{ orgId: org.id }, readableBy(opts.actor)] },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  const out: BlobDescription[] = [];
  for (const b of blobs) out.push(await describeBlob(db, b.id));
  return { blobs: out };
}
