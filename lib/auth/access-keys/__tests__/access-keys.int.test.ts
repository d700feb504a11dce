/**
 * SPEC §14 "Credentials" on a real database: who issues, lists and revokes access key pairs (in the
 * browser and through API keys), what a pair acts as, and that only the sealed secret is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import type { Actor } from '../../actor';
import { createAccessKey } from '../create-access-key';
import { findAccessKeyCredential } from '../find-access-key';
import { listAccessKeys } from '../list-access-keys';
import { revokeAccessKey } from '../revoke-access-key';

let t: TestDb;
let orgId: string;
let admin: Actor;
let member: Actor;
let outsider: Actor;
const now = new Date('2026-05-01T10:00:00Z');

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
  return 'ok';
}

beforeAll(async () => {
  t = await createTestDb();
  const ids = await t.db.$transaction(async (tx) => {
    const org = await tx.org.create({ data: { alias: 'acme-corp', name: 'Acme' } });
    const other = await tx.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
    const [a, m, o] = await Promise.all(['admin@acme.example', 'member@acme.example', 'outsider@globex.example'].map((email) => tx.user.create({ data: { email, name: email } })));
    await tx.membership.create({ data: { userId: a.id, orgId: org.id, role: 'admin' } });
    await tx.membership.create({ data: { userId: m.id, orgId: org.id, role: 'write' } });
    await tx.membership.create({ data: { userId: o.id, orgId: other.id, role: 'admin' } });
    return { org: org.id, a: a.id, m: m.id, o: o.id };
  });
  orgId = ids.org;
  admin = { type: 'user', id: ids.a, roleCap: null };
  member = { type: 'user', id: ids.m, roleCap: null };
  outsider = { type: 'user', id: ids.o, roleCap: null };
});

afterAll(() => t?.cleanup());

describe('access key pairs (SPEC §14)', () => {
  it('an admin issues an org pair; the secret is shown once and stored only sealed; it acts as the org in its account', async () => {
    const { secretAccessKey, accessKey } = await createAccessKey(t.db, { actor: admin, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'terraform', role: 'write' }, now });
    expect(accessKey.accessKeyId).toMatch(/^AKIA[A-Z2-7]{16}$/);
    expect(secretAccessKey).toMatch(/^[A-Za-z0-9+/]{40}$/);
    expect(accessKey.org.accountId).toMatch(/^\d{12}$/);
    const row = await t.db.accessKey.findUniqueOrThrow({ where: { id: accessKey.id } });
    expect(JSON.stringify(row)).not.toContain(secretAccessKey);
    const cred = await t.db.$transaction((tx) => findAccessKeyCredential(tx, accessKey.accessKeyId));
    expect(cred).toMatchObject({ secretAccessKey, orgId, accountId: accessKey.org.accountId, actor: { type: 'org', id: orgId, roleCap: 'write' } });
  });

  it('the account id of an org is stable', async () => {
    const a = await createAccessKey(t.db, { actor: admin, owner: { type: 'org', org: orgId }, input: { name: 'a', role: 'read' }, now });
    const b = await createAccessKey(t.db, { actor: member, owner: { type: 'user', org: 'acme-corp' }, input: { name: 'b', role: 'read' }, now });
    expect(b.accessKey.org.accountId).toBe(a.accessKey.org.accountId);
  });

  it('a member issues personal pairs acting as themself, but no org pair; an outsider neither', async () => {
    const { accessKey } = await createAccessKey(t.db, { actor: member, owner: { type: 'user', org: 'acme-corp' }, input: { name: 'mine', role: 'write' }, now });
    expect(accessKey.actsAs).toEqual({ type: 'user', id: member.id, email: 'member@acme.example' });
    expect(await code(createAccessKey(t.db, { actor: member, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'x', role: 'read' }, now }))).toBe('forbidden');
    expect(await code(createAccessKey(t.db, { actor: outsider, owner: { type: 'user', org: 'acme-corp' }, input: { name: 'x', role: 'read' }, now }))).toBe('not_found');
    expect(await code(listAccessKeys(t.db, { actor: member, of: { type: 'org', org: 'acme-corp' } }))).toBe('forbidden');
  });

  it('through API keys: a write key issues pairs acting as its own entity, up to its role; a read key only lists', async () => {
    const orgKey: Actor = { type: 'org', id: orgId, roleCap: 'write' };
    const readKey: Actor = { type: 'org', id: orgId, roleCap: 'read' };
    const personal: Actor = { ...member, roleCap: 'write' };
    const byOrgKey = await createAccessKey(t.db, { actor: orgKey, owner: { type: 'org', org: orgId }, input: { name: 'ci', role: 'write' }, now });
    expect(byOrgKey.accessKey.actsAs).toEqual({ type: 'org', id: orgId });
    expect(await code(createAccessKey(t.db, { actor: readKey, owner: { type: 'org', org: orgId }, input: { name: 'x', role: 'read' }, now }))).toBe('forbidden');
    expect(await code(createAccessKey(t.db, { actor: personal, owner: { type: 'org', org: orgId }, input: { name: 'x', role: 'read' }, now }))).toBe('forbidden');
    expect((await createAccessKey(t.db, { actor: personal, owner: { type: 'user', org: orgId }, input: { name: 'p', role: 'write' }, now })).accessKey.actsAs.type).toBe('user');
    const listedByReadKey = await listAccessKeys(t.db, { actor: readKey, of: { type: 'mine' } });
    expect(listedByReadKey.every((k) => k.actsAs.type === 'org')).toBe(true);
    expect(listedByReadKey.map((k) => k.name)).toContain('ci');
    expect(await code(revokeAccessKey(t.db, { actor: readKey, keyId: byOrgKey.accessKey.id, now }))).toBe('forbidden');
  });

  it("the admin page lists every pair of the org; an admin revokes a member's pair; a member cannot revoke others'", async () => {
    const all = await listAccessKeys(t.db, { actor: admin, of: { type: 'org', org: 'acme-corp' } });
    expect(new Set(all.map((k) => k.actsAs.type))).toEqual(new Set(['org', 'user']));
    const mine = await listAccessKeys(t.db, { actor: member, of: { type: 'mine' } });
    expect(mine.every((k) => k.actsAs.type === 'user' && k.actsAs.id === member.id)).toBe(true);
    const adminPair = all.find((k) => k.actsAs.type === 'org')!;
    expect(await code(revokeAccessKey(t.db, { actor: member, keyId: adminPair.id, now }))).toBe('not_found');
    const revoked = await revokeAccessKey(t.db, { actor: admin, keyId: mine[0].id, now });
    expect(revoked.revokedAt).toEqual(now);
    expect(await t.db.$transaction((tx) => findAccessKeyCredential(tx, mine[0].accessKeyId))).toBeNull();
    const listed = await listAccessKeys(t.db, { actor: member, of: { type: 'mine' } });
    expect(listed.at(-1)?.id).toBe(mine[0].id);
  });
});
