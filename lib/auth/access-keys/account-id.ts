import { createHash } from 'node:crypto';
import { inTransaction, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';

/** The 12-digit candidate for `orgId` at `attempt` (0, 1, …): digits of SHA-256(org id, attempt). */
function candidate(orgId: string, attempt: number): string {
  const digest = createHash('sha256').update(`${orgId}:${attempt}`).digest();
  // 48 bits mod 10^12: close enough to uniform; the first digit may be 0, as AWS account ids may be.
  return (digest.readUIntBE(0, 6) % 1_000_000_000_000).toString().padStart(12, '0');
}

/**
 * The org's AWS account id on the EventBridge-compatible API (SPEC §14): 12 digits, stable. Assigned
 * on first use from the org id (the same org always tries the same digits first) and stored; a clash
 * with another org's id (UNIQUE `orgs.account_id`) moves to the next candidate.
 * @throws `404 not_found` when the org does not exist.
 */
export async function ensureAccountId(db: Tx, orgId: string): Promise<string> {
  const org = await db.org.findUnique({ where: { id: orgId }, select: { accountId: true } });
  if (!org) throw new DomainError('not_found', 'org not found');
  if (org.accountId) return org.accountId;
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = candidate(orgId, attempt);
    const taken = await db.org.findUnique({ where: { accountId: id }, select: { id: true } });
    if (taken && taken.id !== orgId) continue;
    // Only where still unset: two first uses at once agree on the stored value.
    await db.org.updateMany({ where: { id: orgId, accountId: null }, data: { accountId: id } });
    const stored = await db.org.findUnique({ where: { id: orgId }, select: { accountId: true } });
    if (stored?.accountId) return stored.accountId;
  }
  throw new Error(`no free account id for org ${orgId}`);
}

/**
 * The org's account id (SPEC §14) for a page or the EventBridge API to show: read, and assigned in its
 * own transaction on first use (`ensureAccountId`). @throws `404 not_found` when the org does not exist.
 */
export async function orgAccountId(db: Db, orgId: string): Promise<string> {
  const org = await db.org.findUnique({ where: { id: orgId }, select: { accountId: true } });
  if (org?.accountId) return org.accountId;
  return inTransaction(db, (tx) => ensureAccountId(tx, orgId));
}
