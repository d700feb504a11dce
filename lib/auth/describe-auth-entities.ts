import type { Tx } from '../db';
import type { AuthEntity } from './actor';

/**
 * An auth entity (SPEC §1, the stored `created_by` of a schedule or execution) in human terms.
 * A `user` acted through a browser login or one of its personal API keys; an `org` acted through one
 * of its org API keys (an org has no other way to act). Which key was used is not recorded (SPEC §5.1
 * stores `{type, id}` only), so it cannot be named.
 */
export interface AuthEntityInfo {
  type: 'user' | 'org';
  /** The stored id, unchanged (for a title or small print). */
  id: string;
  /** The user's name or the org's name; the id itself when the entity no longer exists. */
  label: string;
  /** The user's email or the org's alias; null when the org has no alias or the entity is gone. */
  detail: string | null;
  /** False when the user or org was deleted after it acted: `label` is then the id. */
  exists: boolean;
}

/**
 * Names the entities in `entities` (each `{type, id}` as stored in `created_by`), one answer per input
 * in the same order; duplicates are looked up once (two queries in all, whatever the count). An entity
 * that no longer exists is answered with `exists: false` and its id as the label, never an error.
 *
 * It checks no access: callers pass only entities taken from rows the actor may read (a schedule or
 * execution already returned by a scoped read), so it reveals who created what the actor can see.
 */
export async function describeAuthEntities(db: Tx, entities: readonly AuthEntity[]): Promise<AuthEntityInfo[]> {
  const userIds = [...new Set(entities.filter((e) => e.type === 'user').map((e) => e.id))];
  const orgIds = [...new Set(entities.filter((e) => e.type === 'org').map((e) => e.id))];
  const [users, orgs] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
    orgIds.length ? db.org.findMany({ where: { id: { in: orgIds } }, select: { id: true, name: true, alias: true } }) : [],
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  return entities.map((e): AuthEntityInfo => {
    if (e.type === 'user') {
      const u = userById.get(e.id);
      return u ? { type: 'user', id: e.id, label: u.name || u.email, detail: u.email, exists: true } : { type: 'user', id: e.id, label: e.id, detail: null, exists: false };
    }
    const o = orgById.get(e.id);
    return o ? { type: 'org', id: e.id, label: o.name || (o.alias ?? e.id), detail: o.alias, exists: true } : { type: 'org', id: e.id, label: e.id, detail: null, exists: false };
  });
}
