import { inTransaction, type Db } from '../../db';
import type { Actor } from '../actor';
import type { AccessKeyCreateInput } from '../contract';
import { ACCESS_KEY_SELECT, toAccessKeyInfo, type AccessKeyInfo } from './access-key-info';
import { createScope, type AccessKeyOwnerRef } from './access-key-scope';
import { ensureAccountId } from './account-id';
import { generateAccessKeyPair } from './generate-access-key';
import { sealSecret } from './secret-box';

export interface CreateAccessKeyOptions {
  actor: Actor;
  /** The org the pair belongs to (id or alias), and whether it acts as the org or as the caller. */
  owner: AccessKeyOwnerRef;
  input: AccessKeyCreateInput;
  now: Date;
}

/**
 * Issue an access key pair for the EventBridge-compatible API (SPEC §14). The secret is sealed with
 * the server key (secret-box.ts) and returned once: show it to the caller, never log it.
 * Assigns the org's account id when it has none yet.
 * @returns `secretAccessKey` (shown ONCE) and the stored pair's info.
 * @throws `404 not_found`, `403 forbidden` (see `createScope`).
 */
export async function createAccessKey(db: Db, opts: CreateAccessKeyOptions): Promise<{ secretAccessKey: string; accessKey: AccessKeyInfo }> {
  return inTransaction(db, async (tx) => {
    const scope = await createScope(tx, opts.actor, opts.owner, opts.input.role);
    await ensureAccountId(tx, scope.orgId);
    const pair = generateAccessKeyPair();
    const row = await tx.accessKey.create({
      data: {
        accessKeyId: pair.accessKeyId,
        name: opts.input.name,
        role: opts.input.role,
        ...scope,
        secretCiphertext: sealSecret(pair.secretAccessKey, pair.accessKeyId),
        createdAt: opts.now,
      },
      select: ACCESS_KEY_SELECT,
    });
    return { secretAccessKey: pair.secretAccessKey, accessKey: toAccessKeyInfo(row) };
  });
}
