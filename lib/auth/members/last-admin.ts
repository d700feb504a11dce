import type { Tx } from '../../db';
import { DomainError } from '../../errors';

/**
 * An org keeps at least one admin, or nobody could manage its members and keys any more.
 * @throws `409 last_admin` when `userId` is the org's only admin.
 */
export async function requireAnotherAdmin(db: Tx, orgId: string, userId: string): Promise<void> {
  const others = await db.membership.count({ where: { orgId, role: 'admin', userId: { not: userId } } });
  if (others === 0) throw new DomainError('last_admin', 'an org keeps at least one admin: make another member admin first');
}
