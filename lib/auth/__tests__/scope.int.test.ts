/**
 * SPEC §2 access as a query scope (`readableBy` / `writableBy` / `blobsWith`, lib/auth/scope.ts), on a
 * real database: every combination of org role, blob grant, org actor and key cap that the product
 * knows selects exactly the blobs `blobRole` grants (the role-value function kept for pages that
 * show it), and a few of them are pinned by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction, type Db } from '../../db';
import { newId } from '../../ids';
import { getReadableRevision } from '../../workflows';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { blobRole, blobRoles, blobsWith, blobsWithAccess, hasBlobAccess, orgRole, orgsVisibleTo, readableBy, ROLES, roleAtLeast, writableBy, type Actor } from '..';

let t: TestDb;
let db: Db;
/** Blob ids by name: acme's `acme-flows` and `acme-ops`, globex's `globex-flows` and `globex-ops`. */
const blob: Record<string, string> = {};
const actors: Record<string, Actor> = {};

async function org(alias: string) {
  return db.org.create({ data: { id: newId(), alias, name: alias } });
}
async function user(email: string, memberships: [orgId: string, role: string][] = []) {
  const u = await db.user.create({ data: { id: newId(), email, name: email } });
  for (const [orgId, role] of memberships) await db.membership.create({ data: { userId: u.id, orgId, role } });
  return u.id;
}

beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  const acme = await org('acme-corp');
  const globex = await org('globex-inc');
  for (const [o, name] of [[acme, 'acme-flows'], [acme, 'acme-ops'], [globex, 'globex-flows'], [globex, 'globex-ops']] as const) {
    blob[name] = (await db.blob.create({ data: { id: newId(), orgId: o.id, alias: name, type: 'workflow', name } })).id;
  }
  const admin = await user('admin@acme.test', [[acme.id, 'admin']]);
  const reader = await user('reader@acme.test', [[acme.id, 'read']]);
  const outsider = await user('outsider@example.test');
  const both = await user('both@example.test', [[acme.id, 'write'], [globex.id, 'read']]);
  const odd = await user('odd@example.test', [[globex.id, 'owner']]); // not a role: holds nothing
  // Grants add to org roles (SPEC §2): the outsider writes globex-flows, the reader administers acme-ops,
  // org acme reads globex-ops, `both` reads acme-flows (less than its org role: the higher one counts).
  const grant = (blobId: string, granteeType: 'user' | 'org', granteeId: string, role: string) =>
    db.blobGrant.create({ data: { blobId, granteeType, granteeId, role } });
  await grant(blob['globex-flows'], 'user', outsider, 'write');
  await grant(blob['acme-ops'], 'user', reader, 'admin');
  await grant(blob['globex-ops'], 'org', acme.id, 'read');
  await grant(blob['acme-flows'], 'user', both, 'read');
  await grant(blob['globex-flows'], 'user', odd, 'superuser'); // not a role either

  for (const [name, id] of Object.entries({ admin, reader, outsider, both, odd })) {
    actors[name] = { type: 'user', id, roleCap: null };
    actors[`${name} (read key)`] = { type: 'user', id, roleCap: 'read' };
    actors[`${name} (write key)`] = { type: 'user', id, roleCap: 'write' };
  }
  for (const [name, o] of [['org acme', acme], ['org globex', globex]] as const) {
    actors[`${name} (read key)`] = { type: 'org', id: o.id, roleCap: 'read' };
    actors[`${name} (write key)`] = { type: 'org', id: o.id, roleCap: 'write' };
  }
});
afterAll(() => t.cleanup());

/** The blob names on which `actor` holds at least `need`, as the scope selects them. */
async function scoped(actor: Actor, need: 'read' | 'write' | 'admin'): Promise<string[]> {
  const rows = await db.blob.findMany({ where: blobsWith(actor, need), select: { alias: true }, orderBy: { alias: 'asc' } });
  return rows.map((r) => r.alias!);
}

describe('§2 blob scopes', () => {
  it('select exactly the blobs blobRole grants, for every actor, key cap and role', async () => {
    for (const [name, actor] of Object.entries(actors)) {
      const roles = await blobRoles(db, actor, Object.values(blob));
      for (const need of ROLES) {
        const expected: string[] = [];
        for (const [alias, id] of Object.entries(blob)) {
          const role = await blobRole(db, actor, id);
          if (roleAtLeast(role, need)) expected.push(alias);
          expect(await hasBlobAccess(db, actor, id, need), `${name} ${need} ${alias}`).toBe(roleAtLeast(role, need));
          expect(roles.get(id) ?? null, `${name} role on ${alias}`).toBe(role);
        }
        expect(await scoped(actor, need), `${name} ${need}`).toEqual(expected.sort());
      }
    }
  });

  it('the SQL scope of the API hot reads (hasBlobAccess and blobsWithAccess in a transaction, getReadableRevision) selects what the Prisma scope selects', async () => {
    // One revision per blob; the revision read and the transaction's access check are lib/db/sql/blob-access.ts on the driver.
    const revisions: Record<string, string> = {};
    for (const [name, id] of Object.entries(blob)) revisions[name] = (await db.revision.create({ data: { id: newId(), blobId: id, state: 'draft' } })).id;
    let readable = 0;
    for (const [name, actor] of Object.entries(actors)) {
      for (const [alias, revisionId] of Object.entries(revisions)) {
        const viaPrisma = await db.revision.findFirst({ where: { id: revisionId, blob: readableBy(actor) }, select: { id: true } });
        const viaSql = await getReadableRevision(db, { actor, revisionId: revisionId.toUpperCase() }).catch((e: { code?: string }) => e.code);
        if (viaPrisma) readable++;
        expect(viaSql, `${name} reads ${alias}`).toEqual(viaPrisma ? { id: revisionId, blobId: blob[alias], orgId: expect.any(String), state: 'draft', blobType: 'workflow' } : 'not_found');
      }
      await inTransaction(db, async (tx) => {
        for (const need of ROLES) {
          const expected = (await tx.blob.findMany({ where: { AND: [{ id: { in: Object.values(blob) } }, blobsWith(actor, need)] }, select: { id: true } })).map((r) => r.id);
          expect([...(await blobsWithAccess(tx, actor, [...Object.values(blob), newId()], need))].sort(), `${name} ${need} (many blobs)`).toEqual(expected.sort());
        }
        for (const [alias, id] of Object.entries(blob)) {
          for (const need of ROLES) {
            const viaPrisma = (await tx.blob.count({ where: { AND: [{ id }, blobsWith(actor, need)] } })) > 0;
            expect(await hasBlobAccess(tx, actor, id, need), `${name} ${need} ${alias} in a transaction`).toBe(viaPrisma);
          }
        }
      });
    }
    expect(readable).toBeGreaterThan(10); // the matrix has both answers
    const org = await db.blob.findUniqueOrThrow({ where: { id: blob['acme-ops'] }, select: { orgId: true } });
    expect(await getReadableRevision(db, { actor: actors.reader, revisionId: revisions['acme-ops'] })).toEqual({ id: revisions['acme-ops'], blobId: blob['acme-ops'], orgId: org.orgId, state: 'draft', blobType: 'workflow' });
    await expect(getReadableRevision(db, { actor: actors.reader, revisionId: 'not-an-id' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(getReadableRevision(db, { actor: actors.reader, revisionId: newId() })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a member reads its org, a grant adds one blob, the higher of the two counts', async () => {
    expect(await scoped(actors.reader, 'read')).toEqual(['acme-flows', 'acme-ops']);
    expect(await scoped(actors.reader, 'write')).toEqual(['acme-ops']); // its admin grant
    expect(await scoped(actors.both, 'write')).toEqual(['acme-flows', 'acme-ops']); // org write beats the read grant
    expect(await scoped(actors.both, 'read')).toEqual(['acme-flows', 'acme-ops', 'globex-flows', 'globex-ops']);
    expect(await scoped(actors.outsider, 'read')).toEqual(['globex-flows']);
    expect(await scoped(actors.odd, 'read')).toEqual([]); // unknown role strings grant nothing
  });

  it("a key's role caps its owner: a read key writes nothing, an org key reads its org and its grants", async () => {
    expect(await scoped(actors['admin (read key)'], 'write')).toEqual([]);
    expect(await scoped(actors['admin (read key)'], 'read')).toEqual(['acme-flows', 'acme-ops']);
    expect(await scoped(actors['admin (write key)'], 'admin')).toEqual([]);
    expect(await scoped(actors['org acme (write key)'], 'read')).toEqual(['acme-flows', 'acme-ops', 'globex-ops']);
    expect(await scoped(actors['org acme (write key)'], 'write')).toEqual(['acme-flows', 'acme-ops']);
  });

  it('readableBy and writableBy are the read and write scopes, usable as a relation filter', async () => {
    const rev = await db.revision.create({ data: { id: newId(), blobId: blob['globex-flows'], state: 'draft' } });
    const find = (scope: ReturnType<typeof readableBy>) => db.revision.findFirst({ where: { id: rev.id, blob: scope }, select: { id: true } });
    expect(await find(readableBy(actors.outsider))).toEqual({ id: rev.id });
    expect(await find(writableBy(actors.outsider))).toEqual({ id: rev.id });
    expect(await find(writableBy(actors['outsider (read key)']))).toBeNull();
    expect(await find(readableBy(actors.reader))).toBeNull(); // refused exactly as a missing revision
    expect(await hasBlobAccess(db, actors.admin, newId(), 'read')).toBe(false);
  });

  it('orgsVisibleTo selects exactly the orgs where the actor holds at least read or reads a blob (the rule a missing org shares)', async () => {
    const orgs = await db.org.findMany({ select: { id: true, alias: true }, orderBy: { alias: 'asc' } });
    for (const [name, actor] of Object.entries(actors)) {
      const expected: string[] = [];
      for (const o of orgs) {
        const blobs = await db.blob.findMany({ where: { orgId: o.id }, select: { id: true } });
        let reads = roleAtLeast(await orgRole(db, actor, o.id), 'read');
        for (const b of blobs) reads ||= roleAtLeast(await blobRole(db, actor, b.id), 'read');
        if (reads) expected.push(o.alias!);
      }
      const rows = await db.org.findMany({ where: orgsVisibleTo(actor), select: { alias: true }, orderBy: { alias: 'asc' } });
      expect(rows.map((r) => r.alias), name).toEqual(expected);
    }
    expect((await db.org.findMany({ where: orgsVisibleTo(actors.outsider), select: { alias: true } })).map((r) => r.alias)).toEqual(['globex-inc']);
    expect(await db.org.findMany({ where: orgsVisibleTo(actors.odd), select: { alias: true } })).toEqual([]);
  });
});
