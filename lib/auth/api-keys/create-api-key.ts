import { inTransaction, type Db } from '../../db';
import type { Actor } from '../actor';
import type { ApiKeyCreateInput } from '../contract';
import { generateApiKey } from '../keys';
import { API_KEY_SELECT, toApiKeyInfo, type ApiKeyInfo, type ApiKeyOwnerRef } from './api-key-info';
import { ownerScope } from './key-scope';

export interface CreateApiKeyOptions {
  actor: Actor;
  owner: ApiKeyOwnerRef;
  input: ApiKeyCreateInput;
  now: Date;
}

/**
 * Create an API key (SPEC §2): an org key acts as the org (needs `admin` on it), a personal key acts
 * as the caller; either carries `read` or `write`, which caps the owner's roles. Only the SHA-256 of
 * the key is stored.
 * @returns `key`, the full secret, to be shown ONCE and never logged; and the stored key's info.
 * @throws `404 not_found`, `403 forbidden` (see `ownerScope`).
 */
export async function createApiKey(db: Db, opts: CreateApiKeyOptions): Promise<{ key: string; apiKey: ApiKeyInfo }> {
  return inTransaction(db, async (tx) => {
    const scope = await ownerScope(tx, opts.actor, opts.owner);
    const k = generateApiKey();
    const row = await tx.apiKey.create({
      data: { name: opts.input.name, prefix: k.prefix, secretHash: k.secretHash, role: opts.input.role, ...scope, createdAt: opts.now },
      select: API_KEY_SELECT,
    });
    return { key: k.key, apiKey: toApiKeyInfo(row) };
  });
}
