/**
 * Who acts (SPEC §1 "auth entity"). A user (browser login or personal key) or an org (org key).
 * `roleCap` is the role of the API key used, if any: it caps the entity's own roles.
 */
export interface Actor {
  type: 'user' | 'org';
  id: string;
  /** The key's role when the actor came from an API key; null for a browser login or a fire. */
  roleCap: 'read' | 'write' | null;
  /** The access key id when the actor came from an access key pair (SPEC §14): the activity log names it (SPEC §15). */
  accessKeyId?: string;
}

/** The stored form of `created_by` (SPEC §5.1). */
export interface AuthEntity {
  type: 'user' | 'org';
  id: string;
}

/** The actor a fire acts as: the schedule's `created_by` with its full standing (SPEC §2, §8). */
export function actorFromEntity(entity: AuthEntity): Actor {
  return { type: entity.type, id: entity.id, roleCap: null };
}

/**
 * A string naming an actor's standing (type, id, role cap), for sharing one access decision between
 * the fires of a batch: two actors with the same key get the same answer from every access rule.
 */
export function actorKey(actor: Actor): string {
  return JSON.stringify([actor.type, actor.id, actor.roleCap ?? null]);
}
