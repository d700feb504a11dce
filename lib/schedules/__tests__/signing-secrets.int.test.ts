/**
 * SPEC §13.1 signing secrets on the TEST_DATABASE dialect: created on first need, shown to an admin
 * once, rotated with the old secret still signing for 24 h; the commands `get_signing_secret` and
 * `rotate_signing_secret` and who may run them; a webhook signed with what the admin was shown.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { createDeliveryPool, deliverHttp, scheduleArn } from '../../targets';
import { startReceiver } from '../../testing/receiver';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb } from '../../testing/test-db';
import { schedulerCommands, signingSecretsForDelivery, SIGNING_SECRET_OVERLAP_MS, type SigningSecretInfo } from '..';

let db: Db;
let cleanup: () => Promise<void>;
let orgId: string;
let admin: Actor;
let revision: { id: string; blobId: string; orgId: string; state: string };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const s = await seed(db, undefined);
  orgId = s.orgId;
  admin = { type: 'user', id: s.userId, roleCap: null };
  revision = await newScheduler();
});
afterAll(async () => cleanup());

/** A scheduler blob of the seeded org with its managed revision. */
async function newScheduler() {
  const blob = await db.blob.create({ data: { orgId, type: 'scheduler', name: `hooks-${randomUUID().slice(0, 6)}` } });
  const rev = await db.revision.create({ data: { blobId: blob.id, state: 'managed' } });
  await db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: rev.id } });
  return { id: rev.id, blobId: blob.id, orgId, state: 'managed' };
}

async function member(role: 'read' | 'write' | 'admin'): Promise<string> {
  const user = await db.user.create({ data: { email: `${role}-${randomUUID().slice(0, 8)}@example.com`, name: role } });
  await db.membership.create({ data: { userId: user.id, orgId, role } });
  return user.id;
}

async function command(name: 'get_signing_secret' | 'rotate_signing_secret', actor: Actor, now: Date, rev = revision, params: Record<string, unknown> = {}): Promise<SigningSecretInfo> {
  const answer = await schedulerCommands[name]({ db, actor, revision: rev, params, now, limits: TEST_LIMITS });
  return answer.signing_secret;
}

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/; // 32 random bytes, base64

describe('§13.1 shown to admins once', () => {
  it('the first get creates and shows the secret; every later get shows only its hint', async () => {
    const t0 = new Date('2030-01-01T10:00:00.000Z');
    const first = await command('get_signing_secret', admin, t0);
    expect(first.secret).toMatch(SECRET);
    expect(first).toEqual({ secret: first.secret, hint: `${first.secret!.slice(0, 10)}…`, created_at: t0.toISOString(), shown_at: t0.toISOString(), previous: [] });
    const again = await command('get_signing_secret', admin, new Date('2030-01-01T10:05:00.000Z'));
    expect(again).toEqual({ hint: first.hint, created_at: t0.toISOString(), shown_at: t0.toISOString(), previous: [] });
    expect(await signingSecretsForDelivery(db, revision.blobId, t0)).toEqual([first.secret]);
  });

  it('two admins asking at once: exactly one of them sees it', async () => {
    const rev = await newScheduler();
    const now = new Date('2030-01-01T10:00:00.000Z');
    await signingSecretsForDelivery(db, rev.blobId, now); // created by a fire, never shown
    const answers = await Promise.all([command('get_signing_secret', admin, now, rev), command('get_signing_secret', admin, now, rev)]);
    expect(answers.filter((a) => a.secret !== undefined)).toHaveLength(1);
    expect(answers[0].hint).toBe(answers[1].hint);
  });
});

describe('§13.1 rotation', () => {
  it('a rotation shows the new secret; the old one signs for 24 h more, then stops', async () => {
    const rev = await newScheduler();
    const t0 = new Date('2030-02-01T09:00:00.000Z');
    const old = (await command('get_signing_secret', admin, t0, rev)).secret!;
    const t1 = new Date('2030-02-01T12:00:00.000Z');
    const rotated = await command('rotate_signing_secret', admin, t1, rev);
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(old);
    expect(rotated).toEqual({
      secret: rotated.secret,
      hint: `${rotated.secret!.slice(0, 10)}…`,
      created_at: t1.toISOString(),
      shown_at: t1.toISOString(),
      previous: [{ hint: `${old.slice(0, 10)}…`, created_at: t0.toISOString(), retired_at: t1.toISOString(), signs_until: '2030-02-02T12:00:00.000Z' }],
    });
    expect(await signingSecretsForDelivery(db, rev.blobId, t1)).toEqual([rotated.secret, old]);
    expect(await signingSecretsForDelivery(db, rev.blobId, new Date(t1.getTime() + SIGNING_SECRET_OVERLAP_MS - 1))).toEqual([rotated.secret, old]);
    expect(await signingSecretsForDelivery(db, rev.blobId, new Date(t1.getTime() + SIGNING_SECRET_OVERLAP_MS))).toEqual([rotated.secret]);
    // The rotated secret was shown in the rotation's answer: a get shows only its hint.
    expect((await command('get_signing_secret', admin, new Date('2030-02-01T13:00:00.000Z'), rev)).secret).toBeUndefined();
  });

  it('rotating twice within 24 h keeps both older secrets signing; a rotation a day later drops what has expired', async () => {
    const rev = await newScheduler();
    const a = (await command('rotate_signing_secret', admin, new Date('2030-03-01T00:00:00.000Z'), rev)).secret!;
    const b = (await command('rotate_signing_secret', admin, new Date('2030-03-01T01:00:00.000Z'), rev)).secret!;
    const c = await command('rotate_signing_secret', admin, new Date('2030-03-01T02:00:00.000Z'), rev);
    expect(c.previous.map((p) => p.hint)).toEqual([`${b.slice(0, 10)}…`, `${a.slice(0, 10)}…`]);
    expect(await signingSecretsForDelivery(db, rev.blobId, new Date('2030-03-01T02:00:00.000Z'))).toEqual([c.secret, b, a]);
    expect(await signingSecretsForDelivery(db, rev.blobId, new Date('2030-03-02T01:30:00.000Z'))).toEqual([c.secret, b]);
    const d = await command('rotate_signing_secret', admin, new Date('2030-03-02T01:30:00.000Z'), rev);
    expect(d.previous.map((p) => p.hint)).toEqual([`${c.secret!.slice(0, 10)}…`, `${b.slice(0, 10)}…`]);
    expect(await db.signingSecret.count({ where: { blobId: rev.blobId } })).toBe(3); // a is gone
    expect((await db.signingSecret.findMany({ where: { blobId: rev.blobId }, orderBy: { generation: 'asc' } })).map((r) => r.generation)).toEqual([2, 3, 4]);
  });

  it('concurrent rotations take turns: each adds one generation, none is lost', async () => {
    const rev = await newScheduler();
    const now = new Date('2030-04-01T00:00:00.000Z');
    const answers = await Promise.all([1, 2, 3].map(() => command('rotate_signing_secret', admin, now, rev)));
    expect(new Set(answers.map((x) => x.secret)).size).toBe(3);
    const rows = await db.signingSecret.findMany({ where: { blobId: rev.blobId }, orderBy: { generation: 'asc' } });
    expect(rows.map((r) => [r.generation, r.retiredAt === null])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(await signingSecretsForDelivery(db, rev.blobId, now)).toHaveLength(3);
  });
});

describe('§13.1 who may manage it', () => {
  it('a write member is forbidden, a read-key of an admin too; a write-key of an admin may; a non-member sees no scheduler', async () => {
    const rev = await newScheduler();
    const now = new Date('2030-05-01T00:00:00.000Z');
    const writer: Actor = { type: 'user', id: await member('write'), roleCap: null };
    await expect(command('get_signing_secret', writer, now, rev)).rejects.toMatchObject({ code: 'forbidden', status: 403 });
    await expect(command('rotate_signing_secret', writer, now, rev)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(command('rotate_signing_secret', { ...admin, roleCap: 'read' }, now, rev)).rejects.toMatchObject({ code: 'forbidden' });
    const viaKey = await command('rotate_signing_secret', { ...admin, roleCap: 'write' }, now, rev);
    expect(viaKey.secret).toMatch(SECRET);
    const orgKey = await command('get_signing_secret', { type: 'org', id: orgId, roleCap: 'write' }, now, rev);
    expect(orgKey.secret).toBeUndefined(); // shown once already, by the rotation
    const outsider: Actor = { type: 'user', id: (await db.user.create({ data: { email: `x-${randomUUID()}@example.com`, name: 'x' } })).id, roleCap: null };
    await expect(command('get_signing_secret', outsider, now, rev)).rejects.toMatchObject({ code: 'not_found', message: 'revision not found' });
    await expect(command('get_signing_secret', admin, now, rev, { reveal: true })).rejects.toMatchObject({ code: 'invalid_request_body', path: 'reveal' });
  });
});

describe('§16.3 the per-schedule series of /metrics: the same standing as the signing secret', () => {
  it('a write member and a read key of an admin are forbidden; a write key of an admin and the org\'s write key may', async () => {
    const rev = await newScheduler();
    const now = new Date('2030-05-02T00:00:00.000Z');
    const set = (actor: Actor, enabled: boolean) => schedulerCommands.set_metrics_per_schedule({ db, actor, revision: rev, params: { enabled }, now, limits: TEST_LIMITS });
    const writer: Actor = { type: 'user', id: await member('write'), roleCap: null };
    await expect(set(writer, true)).rejects.toMatchObject({ code: 'forbidden', message: 'turning the per-schedule series of /metrics on or off needs admin access to the scheduler (through the API: a write key of an admin)' });
    await expect(set({ ...admin, roleCap: 'read' }, true)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await set({ ...admin, roleCap: 'write' }, true)).toEqual({ metrics_per_schedule: true });
    expect(await set({ type: 'org', id: orgId, roleCap: 'write' }, false)).toEqual({ metrics_per_schedule: false });
  });
});

describe('§13.1 a webhook signed with the scheduler secret', () => {
  it('a secret created by the first fire is shown once to the admin, and verifies that fire\'s delivery', async () => {
    const rev = await newScheduler();
    const now = new Date();
    const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
    try {
      const secrets = await signingSecretsForDelivery(db, rev.blobId, now);
      const scheduleId = randomUUID();
      const outcome = await deliverHttp({
        target: { url: receiver.url('/hook') },
        fire: { scheduleId, scheduledFor: now, trigger: 'schedule', attempt: 1, account: '123456789012', region: 'us-east-1', scheduleArn: scheduleArn({ region: 'us-east-1', account: '123456789012', group: 'hooks', name: scheduleId }) },
        signingSecrets: secrets,
        allowList: { hosts: [], addresses: [], ranges: ['127.0.0.1/32'] },
        pool: createDeliveryPool(1),
      });
      expect(outcome.status).toBe('success');
      const shown = await command('get_signing_secret', admin, now, rev);
      const [r] = receiver.requests;
      expect(new Webhook(shown.secret!).verify(r.body, r.headers)).toMatchObject({ id: outcome.deliveryId, source: 'aws.scheduler' });
    } finally {
      await receiver.close();
    }
  });
});
