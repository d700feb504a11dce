import type { Tx } from '../../db';
import type { Actor } from '../actor';
import { API_KEY_SELECT, toApiKeyInfo, type ApiKeyInfo, type ApiKeyOwnerRef } from './api-key-info';
import { ownerScope } from './key-scope';

/**
 * The keys of `owner` (an org's keys for its admins, or the caller's personal keys), active ones
 * first, then newest first. Revoked keys stay listed with `revokedAt`.
 * @throws `404 not_found`, `403 forbidden` (see `ownerScope`).
 */
export async function listApiKeys(db: Tx, opts: { actor: Actor; owner: ApiKeyOwnerRef }): Promise<ApiKeyInfo[]> {
  const scope = await ownerScope(db, opts.actor, opts.owner);
  const rows = await db.apiKey.findMany({ where: scope, select: API_KEY_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  const keys = rows.map(toApiKeyInfo);
  return [...keys.filter((k) => !k.revokedAt), ...keys.filter((k) => k.revokedAt)];
}
