import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import { ACCESS_KEY_SELECT, toAccessKeyInfo, type AccessKeyInfo } from './access-key-info';
import { revokeScope } from './access-key-scope';

/**
 * Revoke pair `keyId` (the row id): from `now` on every request signed with it is refused with
 * `UnrecognizedClientException` (each request reads the row; nothing caches a pair). Idempotent: a
 * revoked pair keeps its first `revokedAt`.
 * @throws `404 not_found` ("access key not found") for a pair that does not exist or that the caller
 *   does not manage (the same answer); `403 forbidden` for a `read` API key.
 */
export async function revokeAccessKey(db: Db, opts: { actor: Actor; keyId: string; now: Date }): Promise<AccessKeyInfo> {
  return inTransaction(db, async (tx) => {
    const scope = await revokeScope(tx, opts.actor);
    const id = normalizeRef(opts.keyId);
    const row = isIdShape(id) ? await tx.accessKey.findFirst({ where: { id, ...scope }, select: ACCESS_KEY_SELECT }) : null;
    if (!row) throw new DomainError('not_found', 'access key not found');
    if (row.revokedAt) return toAccessKeyInfo(row);
    return toAccessKeyInfo(await tx.accessKey.update({ where: { id: row.id }, data: { revokedAt: opts.now }, select: ACCESS_KEY_SELECT }));
  });
}
