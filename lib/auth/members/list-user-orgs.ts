import type { Tx } from '../../db';
import type { Actor } from '../actor';
import { isRole, type Role } from '../roles';

/** The orgs the user `actor` is a member of, with its role on each, by name. An org actor gets its own org. */
export async function listUserOrgs(db: Tx, opts: { actor: Actor }): Promise<{ id: string; alias: string | null; name: string; role: Role }[]> {
  if (opts.actor.type === 'org') {
    const org = await db.org.findUnique({ where: { id: opts.actor.id }, select: { id: true, alias: true, name: true } });
    return org ? [{ ...org, role: opts.actor.roleCap ?? 'admin' }] : [];
  }
  const rows = await db.membership.findMany({
    where: { userId: opts.actor.id },
    select: { role: true, org: { select: { id: true, alias: true, name: true } } },
    orderBy: { org: { name: 'asc' } },
  });
  return rows.map((m) => ({ ...m.org, role: isRole(m.role) ? m.role : 'read' }));
}
