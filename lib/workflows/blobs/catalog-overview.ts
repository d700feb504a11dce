import type { Db } from '../../db';
import { type Actor, blobRole, orgRole, readableBy, roleAtLeast, type Role, visibleOrgIds } from '../../auth';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { BlobDescription, RevisionState } from '../contract';
import { describeBlob } from './get-blob-description';

/** One workflow blob as the catalog pages list it. */
export interface CatalogBlob {
  id: string;
  alias: string | null;
  name: string;
  defaultRevisionId: string | null;
  revisionCount: number;
}

/** An org with the workflow blobs of it the actor can read, and whether the actor may create blobs in it. */
export interface CatalogOrg {
  id: string;
  alias: string | null;
  name: string;
  /** `write` on the org: may create a workflow blob (SPEC §2). */
  canCreateBlob: boolean;
  blobs: CatalogBlob[];
}

/**
 * For the catalog page (SPEC §1, §3.3): every org the actor sees (membership or a blob grant), by name,
 * each with its WORKFLOW blobs the actor can read (org role or blob grant), by name. Orgs with no readable
 * workflow blob are listed only when the actor may create one there.
 */
export async function listCatalogOrgs(db: Db, opts: { actor: Actor }): Promise<CatalogOrg[]> {
  const orgIds = await visibleOrgIds(db, opts.actor);
  const [orgs, blobs] = await Promise.all([
    db.org.findMany({ where: { id: { in: orgIds } }, orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
    // Scoped in the query: the workflow blobs the actor can read, of every visible org at once.
    db.blob.findMany({
      where: { AND: [{ type: 'workflow', orgId: { in: orgIds } }, readableBy(opts.actor)] },
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
      include: { _count: { select: { revisions: true } } },
    }),
  ]);
  const out: CatalogOrg[] = [];
  for (const org of orgs) {
    const canCreateBlob = roleAtLeast(await orgRole(db, opts.actor, org.id), 'write');
    const readable: CatalogBlob[] = blobs
      .filter((b) => b.orgId === org.id)
      .map((b) => ({ id: b.id, alias: b.alias, name: b.name, defaultRevisionId: b.defaultRevisionId, revisionCount: b._count.revisions }));
    if (readable.length > 0 || canCreateBlob) out.push({ id: org.id, alias: org.alias, name: org.name, canCreateBlob, blobs: readable });
  }
  return out;
}

/** A workflow blob for its catalog page: the §3.3 description plus names and the actor's role. */
export interface CatalogBlobDetail extends BlobDescription {
  name: string;
  orgName: string;
  role: Role;
}

/**
 * One workflow blob by id, readable by the actor, with its revisions oldest first (SPEC §3.3).
 * @throws `404 not_found` when it does not exist, is not a workflow blob, or the actor cannot read it (SPEC §2).
 */
export async function getCatalogBlob(db: Db, opts: { actor: Actor; blobId: string }): Promise<CatalogBlobDetail> {
  const id = normalizeRef(opts.blobId);
  // Scoped in the query: another org's blob and a made-up id are missed by the same statement (decisions 163).
  const blob = isIdShape(id) ? await db.blob.findFirst({ where: { AND: [{ id, type: 'workflow' }, readableBy(opts.actor)] }, include: { org: true } }) : null;
  // The page shows what the role allows, so the role's value is loaded (blobRole) once it is readable.
  const role = blob ? await blobRole(db, opts.actor, blob.id) : null;
  if (!blob || !role || !roleAtLeast(role, 'read')) throw new DomainError('not_found', 'blob not found');
  return { ...(await describeBlob(db, blob.id)), name: blob.name, orgName: blob.org.name, role };
}

/** A workflow revision for its catalog page, with its blob. */
export interface CatalogRevision {
  id: string;
  state: RevisionState;
  isDefault: boolean;
  createdAt: string;
  blob: { id: string; alias: string | null; name: string; org: { id: string; alias: string | null; name: string } };
  role: Role;
}

/**
 * One workflow revision by id, readable by the actor.
 * @throws `404 not_found` when it does not exist, is not a workflow revision, or the actor cannot read it (SPEC §2).
 */
export async function getCatalogRevision(db: Db, opts: { actor: Actor; revisionId: string }): Promise<CatalogRevision> {
  const id = normalizeRef(opts.revisionId);
  // Scoped in the query: another org's revision and a made-up id are missed by the same statement (decisions 163).
  const rev = isIdShape(id)
    ? await db.revision.findFirst({ where: { id, blob: { AND: [{ type: 'workflow' }, readableBy(opts.actor)] } }, include: { blob: { include: { org: true } } } })
    : null;
  // The page shows what the role allows, so the role's value is loaded (blobRole) once it is readable.
  const role = rev ? await blobRole(db, opts.actor, rev.blobId) : null;
  if (!rev || !role || !roleAtLeast(role, 'read')) throw new DomainError('not_found', 'revision not found');
  const { blob } = rev;
  return {
    id: rev.id,
    state: rev.state as RevisionState,
    isDefault: blob.defaultRevisionId === rev.id,
    createdAt: rev.createdAt.toISOString(),
    blob: { id: blob.id, alias: blob.alias, name: blob.name, org: { id: blob.org.id, alias: blob.org.alias, name: blob.org.name } },
    role,
  };
}
