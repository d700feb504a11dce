import type { Tx, Org } from '../../db';
import { orgsVisibleTo, type Actor } from '../../auth';
import { isIdShape, normalizeRef } from '../../ids';

export interface FindOrgByRefOptions {
  /** An org id or alias; trimmed and lowercased before lookup (SPEC §3.1). */
  org: string;
}

/**
 * The org named by id or alias, or null. No access check: callers decide what the actor may see.
 * SPEC §1, §3.3.
 */
export async function findOrgByRef(db: Tx, opts: FindOrgByRefOptions): Promise<Org | null> {
  const ref = normalizeRef(opts.org);
  if (!ref) return null;
  return isIdShape(ref) ? db.org.findUnique({ where: { id: ref } }) : db.org.findUnique({ where: { alias: ref } });
}

/**
 * The org named by id or alias that `actor` can see (SPEC §2: its own, a membership, or a readable
 * blob in it), or null for a missing and a hidden org alike, decided in one statement.
 */
export async function findVisibleOrg(db: Tx, opts: FindOrgByRefOptions & { actor: Actor }): Promise<Org | null> {
  const ref = normalizeRef(opts.org);
  if (!ref) return null;
  return db.org.findFirst({ where: { AND: [isIdShape(ref) ? { id: ref } : { alias: ref }, orgsVisibleTo(opts.actor)] } });
}
