/**
 * Access key pairs through the product API (SPEC §14 "Credentials", like API keys): list, issue and
 * revoke the pairs that act as the calling key's own entity (docs/decisions.md). Thin: parse, one
 * lib/auth call, the JSON shape below. The secret is answered once, on creation.
 *
 * - `GET /api/v1/access-keys`: the caller's pairs.
 * - `POST /api/v1/access-keys` `{name, role, org?}`: a pair acting as the caller (an org key: its org;
 *   a personal key: its user, in `org`, which it names by id or alias). Needs a `write` key.
 * - `GET /api/v1/orgs/{org}/access-keys`: the caller's pairs in that org.
 * - `DELETE /api/v1/access-keys/{id}`: revoke. Needs a `write` key.
 */
import { AccessKeyCreateInput, createAccessKey, listAccessKeys, parseAuthInput, revokeAccessKey, type AccessKeyInfo, type Actor } from '../auth';
import { DomainError } from '../errors';
import { json } from './http';
import { readJsonObject } from './revision-command';
import { runtime } from './runtime';

/** A pair as the product API returns it (never the secret). Optional fields are omitted when empty. */
export function accessKeyJson(k: AccessKeyInfo) {
  return {
    id: k.id,
    access_key_id: k.accessKeyId,
    name: k.name,
    role: k.role,
    org: { id: k.org.id, ...(k.org.alias ? { alias: k.org.alias } : {}) },
    ...(k.org.accountId ? { account_id: k.org.accountId } : {}),
    acts_as: k.actsAs.type === 'user' ? { type: 'user', id: k.actsAs.id, email: k.actsAs.email } : { type: 'org', id: k.actsAs.id },
    created_at: k.createdAt.toISOString(),
    ...(k.lastUsedAt ? { last_used_at: k.lastUsedAt.toISOString() } : {}),
    ...(k.revokedAt ? { revoked_at: k.revokedAt.toISOString() } : {}),
  };
}

export async function listAccessKeysResponse(actor: Actor, org?: string): Promise<Response> {
  const { db } = runtime();
  const keys = await listAccessKeys(db, { actor, of: org === undefined ? { type: 'mine' } : { type: 'org', org } });
  return json({ access_keys: keys.map(accessKeyJson) });
}

export async function createAccessKeyResponse(req: Request, actor: Actor): Promise<Response> {
  const input = parseAuthInput(AccessKeyCreateInput, await readJsonObject(req));
  const org = input.org ?? (actor.type === 'org' ? actor.id : undefined);
  if (!org) throw new DomainError('invalid_request_body', 'org: the org the access key belongs to is required', { path: 'org' });
  const { secretAccessKey, accessKey } = await createAccessKey(runtime().db, {
    actor,
    owner: { type: actor.type, org },
    input: { name: input.name, role: input.role },
    now: new Date(),
  });
  return json({ access_key: accessKeyJson(accessKey), secret_access_key: secretAccessKey });
}

export async function revokeAccessKeyResponse(actor: Actor, keyId: string): Promise<Response> {
  const k = await revokeAccessKey(runtime().db, { actor, keyId, now: new Date() });
  return json({ access_key: accessKeyJson(k) });
}
