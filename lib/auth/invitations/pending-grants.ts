/**
 * Blob grants by email that wait for an org's invitation link (docs/decisions.md 160). A grant to an
 * email that the blob's org does not know as an account yet is held as `grantee_type = 'email'` and
 * read by no access check; only the org's own invitation for that email (its link, accepted by a new
 * account or by a signed-in account of the email) makes it a grant of that account. Another org's link
 * for the same email never does: each org vouches only for the accounts its own links made or joined.
 */
import type { Tx } from '../../db';

/** The pending (`email`) grants on blobs of org `orgId` for `email`, oldest first. */
export function pendingGrantsOf(tx: Tx, orgId: string, email: string) {
  return tx.blobGrant.findMany({
    where: { granteeType: 'email', granteeId: email, blob: { orgId } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, blobId: true, role: true, blob: { select: { name: true, alias: true } } },
  });
}

/**
 * Org `orgId`'s pending grants for `email` become grants of user `userId` (its invitation was just
 * accepted by that account). A grant the user already held on the same blob is kept and the pending one
 * dropped. Grants of other orgs for the email stay pending.
 */
export async function adoptPendingGrants(tx: Tx, orgId: string, email: string, userId: string): Promise<void> {
  for (const g of await pendingGrantsOf(tx, orgId, email)) {
    const existing = await tx.blobGrant.findUnique({ where: { blobId_granteeType_granteeId: { blobId: g.blobId, granteeType: 'user', granteeId: userId } } });
    if (existing) await tx.blobGrant.delete({ where: { id: g.id } });
    else await tx.blobGrant.update({ where: { id: g.id }, data: { granteeType: 'user', granteeId: userId } });
  }
}

/** Drop org `orgId`'s pending grants for `email` (its invitation was withdrawn). */
export async function dropPendingGrants(tx: Tx, orgId: string, email: string): Promise<void> {
  await tx.blobGrant.deleteMany({ where: { granteeType: 'email', granteeId: email, blob: { orgId } } });
}

/**
 * The account of `email` that org `orgId` already knows, or null: one of its members, else an account
 * holding a grant on one of its blobs (it accepted one of the org's links before). Oldest first. Only
 * such an account may receive the org's grant by email at once; any other account of the email, made
 * through another org's link, is a stranger to this org (docs/decisions.md 160).
 */
export async function accountKnownToOrg(tx: Tx, orgId: string, email: string): Promise<string | null> {
  const order = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
  const member = await tx.user.findFirst({ where: { email, memberships: { some: { orgId } } }, orderBy: order, select: { id: true } });
  if (member) return member.id;
  const accounts = await tx.user.findMany({ where: { email }, orderBy: order, take: 50, select: { id: true } });
  if (accounts.length === 0) return null;
  const granted = await tx.blobGrant.findMany({
    where: { granteeType: 'user', granteeId: { in: accounts.map((a) => a.id) }, blob: { orgId } },
    select: { granteeId: true },
  });
  const ids = new Set(granted.map((g) => g.granteeId));
  return accounts.find((a) => ids.has(a.id))?.id ?? null;
}
