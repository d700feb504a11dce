/**
 * API keys managed in the UI (SPEC §2): org keys by org admins (acting as the org), personal keys by
 * their user (acting as the user), `read` or `write`, the secret answered once and only its SHA-256
 * stored; a revoked key is refused on its very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Db } from '../../db';
import { createTestDb } from '../../testing/test-db';
import { actorFromApiKey, blobRole, createApiKey, hashSecret, listApiKeys, revokeApiKey, type Actor } from '..';

let db: Db;
let cleanup: () => Promise<void>;
let operator: Actor;
let writer: Actor;
let stranger: Actor;
let orgId: string;
let schedulerBlobId: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const ctx = await seed(db, undefined, 'operator-password-1');
  orgId = ctx.orgId;
  schedulerBlobId = (await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } })).blobId;
  operator = { type: 'user', id: ctx.userId, roleCap: null };
  const w = await db.user.create({ data: { email: 'writer@acme-corp.example', name: 'Writer' } });
  await db.membership.create({ data: { userId: w.id, orgId, role: 'write' } });
  writer = { type: 'user', id: w.id, roleCap: null };
  const s = await db.user.create({ data: { email: 'stranger@globex.example', name: 'Stranger' } });
  stranger = { type: 'user', id: s.id, roleCap: null };
});
afterAll(async () => cleanup());

const now = new Date('2026-03-01T12:00:00.000Z');

describe('org keys', () => {
  it('an org admin creates one: the secret is answered once, only its hash is stored, and it acts as the org capped at its role', async () => {
    const { key, apiKey } = await createApiKey(db, { actor: operator, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'ci', role: 'read' }, now });
    expect(key).toMatch(/^sk_[0-9a-f]{12}_[A-Za-z0-9_-]{32}$/);
    expect(apiKey).toMatchObject({ name: 'ci', role: 'read', owner: { type: 'org', id: orgId }, prefix: key.slice(3, 15), revokedAt: null, lastUsedAt: null });
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.secretHash).toBe(hashSecret(key));
    expect(JSON.stringify(await db.apiKey.findMany())).not.toContain(key.slice(16));

    const actor = await actorFromApiKey(db, key, now);
    expect(actor).toEqual({ type: 'org', id: orgId, roleCap: 'read' });
    expect(await blobRole(db, actor!, schedulerBlobId)).toBe('read');
    expect((await listApiKeys(db, { actor: operator, owner: { type: 'org', org: orgId } })).find((k) => k.id === apiKey.id)?.lastUsedAt?.toISOString()).toBe(now.toISOString());
  });

  it('a write member gets 403, a non-member gets the 404 of a missing org, and a key cannot mint keys', async () => {
    const input = { name: 'x', role: 'write' } as const;
    await expect(createApiKey(db, { actor: writer, owner: { type: 'org', org: 'acme-corp' }, input, now })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(createApiKey(db, { actor: stranger, owner: { type: 'org', org: 'acme-corp' }, input, now })).rejects.toMatchObject({ code: 'not_found', message: 'org not found' });
    await expect(createApiKey(db, { actor: stranger, owner: { type: 'org', org: 'no-such-org' }, input, now })).rejects.toMatchObject({ code: 'not_found', message: 'org not found' });
    await expect(createApiKey(db, { actor: { ...operator, roleCap: 'write' }, owner: { type: 'user' }, input, now })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(createApiKey(db, { actor: { type: 'org', id: orgId, roleCap: 'write' }, owner: { type: 'org', org: orgId }, input, now })).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describe('personal keys', () => {
  it('act as their user, capped at the key role; other users cannot see or revoke them', async () => {
    const { key, apiKey } = await createApiKey(db, { actor: writer, owner: { type: 'user' }, input: { name: 'laptop', role: 'write' }, now });
    const actor = await actorFromApiKey(db, key, now);
    expect(actor).toEqual({ type: 'user', id: writer.id, roleCap: 'write' });
    expect(await blobRole(db, actor!, schedulerBlobId)).toBe('write');
    expect((await listApiKeys(db, { actor: operator, owner: { type: 'user' } })).map((k) => k.id)).not.toContain(apiKey.id);
    // The org admin does not manage a member's personal key: answered as a missing key.
    await expect(revokeApiKey(db, { actor: operator, keyId: apiKey.id, now })).rejects.toMatchObject({ code: 'not_found', message: 'API key not found' });
    await expect(revokeApiKey(db, { actor: operator, keyId: '00000000-0000-4000-8000-000000000000', now })).rejects.toMatchObject({ code: 'not_found', message: 'API key not found' });
  });
});

describe('revocation', () => {
  it('a revoked key is refused on its next request; revoking again keeps the first instant', async () => {
    const { key, apiKey } = await createApiKey(db, { actor: writer, owner: { type: 'user' }, input: { name: 'to-revoke', role: 'read' }, now });
    expect(await actorFromApiKey(db, key, now)).not.toBeNull();
    const revoked = await revokeApiKey(db, { actor: writer, keyId: apiKey.id, now });
    expect(revoked.revokedAt?.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(await actorFromApiKey(db, key, now)).toBeNull();
    const again = await revokeApiKey(db, { actor: writer, keyId: apiKey.id, now: new Date(now.getTime() + 60_000) });
    expect(again.revokedAt?.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    // An org admin revokes org keys.
    const org = await createApiKey(db, { actor: operator, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'org-revoke', role: 'write' }, now });
    await revokeApiKey(db, { actor: operator, keyId: org.apiKey.id, now });
    expect(await actorFromApiKey(db, org.key, now)).toBeNull();
  });
});
