/**
 * Tests and benchmarks only: another tenant beside the seed's (SPEC §1: an org and its scheduler blob
 * with its managed revision), and the org itself as a write actor, e.g. to disable or delete its
 * schedules through the product's verbs.
 */
import type { Db } from '../db';

export interface Tenant {
  orgId: string;
  /** The scheduler's managed revision `{id, blobId}`. */
  revision: { id: string; blobId: string };
  /** The org acting as itself with role `write`. */
  actor: { type: 'org'; id: string; roleCap: 'write' };
}

/** A new org `alias` with one scheduler blob `hooks`. */
export async function createTenant(db: Db, alias: string): Promise<Tenant> {
  const org = await db.org.create({ data: { alias, name: alias } });
  const blob = await db.blob.create({ data: { orgId: org.id, alias: 'hooks', type: 'scheduler', name: 'Hooks' } });
  const rev = await db.revision.create({ data: { blobId: blob.id, state: 'managed' } });
  await db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: rev.id } });
  return { orgId: org.id, revision: { id: rev.id, blobId: blob.id }, actor: { type: 'org', id: org.id, roleCap: 'write' } };
}
