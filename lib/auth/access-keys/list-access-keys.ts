import type { Tx } from '../../db';
import type { Actor } from '../actor';
import { ACCESS_KEY_SELECT, activeFirst, toAccessKeyInfo, type AccessKeyInfo } from './access-key-info';
import { listScope, type AccessKeyListRef } from './access-key-scope';

/**
 * The access key pairs of `ref` (SPEC §14): an org's pairs (every pair, for its admins in the browser;
 * for an API key, those acting as that key's entity), or those acting as the caller. Active pairs
 * first, then revoked ones, newest first. Never a secret.
 * @throws `404 not_found`, `403 forbidden` (see `listScope`).
 */
export async function listAccessKeys(db: Tx, opts: { actor: Actor; of: AccessKeyListRef }): Promise<AccessKeyInfo[]> {
  const where = await listScope(db, opts.actor, opts.of);
  const rows = await db.accessKey.findMany({ where, select: ACCESS_KEY_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return activeFirst(rows.map(toAccessKeyInfo));
}
