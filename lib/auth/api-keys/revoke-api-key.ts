import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import { API_KEY_SELECT, toApiKeyInfo, type ApiKeyInfo } from './api-key-info';
import { manageableKeysWhere } from './key-scope';

/**
 * Revoke key `keyId`: from `now` on, every request with it is `401 unauthorized` (actorFromApiKey
 * reads `revokedAt` on each request; nothing caches a key). Idempotent: revoking a revoked key keeps
 * its first `revokedAt`. The caller must own the personal key or administer the key's org.
 * @throws `404 not_found` ("API key not found") for a key that does not exist or that the caller does
 *   not manage (the same answer); `403 forbidden` when not a browser login.
 */
export async function revokeApiKey(db: Db, opts: { actor: Actor; keyId: string; now: Date }): Promise<ApiKeyInfo> {
  return inTransaction(db, async (tx) => {
    const scope = await manageableKeysWhere(tx, opts.actor);
    const id = normalizeRef(opts.keyId);
    const row = isIdShape(id) ? await tx.apiKey.findFirst({ where: { id, ...scope }, select: API_KEY_SELECT }) : null;
    if (!row) throw new DomainError('not_found', 'API key not found');
    if (row.revokedAt) return toApiKeyInfo(row);
    return toApiKeyInfo(await tx.apiKey.update({ where: { id: row.id }, data: { revokedAt: opts.now }, select: API_KEY_SELECT }));
  });
}
