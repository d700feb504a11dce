/**
 * SPEC §14 with §2's roles: a read never writes. Every read operation of the EventBridge API, signed
 * by a `read` access key for a region the org has never used, answers as AWS does for an account
 * whose `default` group always exists, and leaves every row as it was; a write the key is refused
 * writes nothing either. The first write by a `write` key then makes `default` there, answered as
 * the reads showed it. Through the real AWS SDK for JavaScript v3, over real HTTP, on a real
 * database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql).
 */
import {
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  ListScheduleGroupsCommand,
  ListSchedulesCommand,
  ListTagsForResourceCommand,
  SchedulerClient,
  TagResourceCommand,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import { createAccessKey, type Actor } from '../../../auth';
import { loadConfig } from '../../../config';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { sdkRefusal } from '../../../testing/sdk-refusal';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAREADSWRITENOTHNG', secretAccessKey: 'reads-write-nothing-secret-0123456789' };
const HOME = 'us-east-1';
const ROLE = 'arn:aws:iam::123456789012:role/scheduler';

let t: TestDb;
let server: FetchServer;
let orgId: string;
let reader: { id: string; secret: string };
let writer: { id: string; secret: string };

const client = (key: { id: string; secret: string }, region: string) =>
  new SchedulerClient({ endpoint: server.url, region, credentials: { accessKeyId: key.id, secretAccessKey: key.secret }, maxAttempts: 1 });

/** Every row a read could have made: blobs, revisions, groups, schedules, activity, client tokens. */
async function rowCounts() {
  const [blobs, revisions, groups, schedules, activity, tokens] = await Promise.all([
    t.db.blob.count(),
    t.db.revision.count(),
    t.db.scheduleGroup.count(),
    t.db.schedule.count(),
    t.db.activityEntry.count(),
    t.db.clientToken.count(),
  ]);
  return { blobs, revisions, groups, schedules, activity, tokens };
}

beforeAll(async () => {
  t = await createTestDb();
  const seeded = await seed(t.db, 'reads-write-nothing-api-key-0123456789', 'reads-write-nothing-pass-0123', BOOT);
  orgId = seeded.orgId;
  const operator: Actor = { type: 'user', id: seeded.userId, roleCap: null };
  const now = new Date();
  const r = await createAccessKey(t.db, { actor: operator, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'reader', role: 'read' }, now });
  const w = await createAccessKey(t.db, { actor: operator, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'writer', role: 'write' }, now });
  reader = { id: r.accessKey.accessKeyId, secret: r.secretAccessKey };
  writer = { id: w.accessKey.accessKeyId, secret: w.secretAccessKey };
  server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db: t.db, limits: { ...loadConfig().limits }, homeRegion: HOME } }));
  // The org's own groups are placed in the home region by a first request (decision 250), so the
  // counts below measure only what a request in a fresh region does.
  await client(writer, HOME).send(new ListScheduleGroupsCommand({}));
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

describe('a read never writes (SPEC §14, §2)', () => {
  it('a read key in a region the org never used: every read answers with `default` there, and no row is written', async () => {
    const region = 'ap-southeast-2';
    const r = client(reader, region);
    const before = await rowCounts();
    const account = (await t.db.org.findUniqueOrThrow({ where: { id: orgId } })).accountId;
    expect(account).toMatch(/^\d{12}$/);
    const defaultArn = `arn:aws:scheduler:${region}:${account}:schedule-group/default`;

    const groups = await r.send(new ListScheduleGroupsCommand({}));
    expect(groups.ScheduleGroups!.map((g) => [g.Name, g.Arn, g.State])).toEqual([['default', defaultArn, 'ACTIVE']]);
    expect(groups.NextToken).toBeUndefined();
    expect((await r.send(new ListScheduleGroupsCommand({ NamePrefix: 'def' }))).ScheduleGroups!.map((g) => g.Name)).toEqual(['default']);
    expect((await r.send(new ListScheduleGroupsCommand({ NamePrefix: 'x' }))).ScheduleGroups).toEqual([]);
    const group = await r.send(new GetScheduleGroupCommand({ Name: 'default' }));
    expect(group).toMatchObject({ Name: 'default', Arn: defaultArn, State: 'ACTIVE' });
    expect(group.CreationDate).toEqual(groups.ScheduleGroups![0].CreationDate);
    expect((await sdkRefusal(r.send(new GetScheduleGroupCommand({ Name: 'daily' })))).name).toBe('ResourceNotFoundException');
    expect((await r.send(new ListSchedulesCommand({}))).Schedules).toEqual([]);
    expect((await r.send(new ListSchedulesCommand({ GroupName: 'default' }))).Schedules).toEqual([]);
    expect((await sdkRefusal(r.send(new ListSchedulesCommand({ GroupName: 'daily' })))).name).toBe('ResourceNotFoundException');
    const missing = await sdkRefusal(r.send(new GetScheduleCommand({ Name: 'nightly' })));
    expect([missing.name, missing.status]).toEqual(['ResourceNotFoundException', 404]);
    expect((await r.send(new ListTagsForResourceCommand({ ResourceArn: defaultArn }))).Tags).toEqual([]);

    // Writes the key is refused write nothing either (before: each one made the region's default first).
    const create = { Name: 'nightly', ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' as const }, Target: { Arn: 'https://example.com/hook', RoleArn: ROLE } };
    expect((await sdkRefusal(r.send(new CreateScheduleCommand(create)))).name).toBe('AccessDeniedException');
    expect((await sdkRefusal(r.send(new UpdateScheduleCommand(create)))).name).toBe('AccessDeniedException');
    expect((await sdkRefusal(r.send(new DeleteScheduleCommand({ Name: 'nightly' })))).name).toBe('AccessDeniedException');
    expect((await sdkRefusal(r.send(new CreateScheduleGroupCommand({ Name: 'daily' })))).name).toBe('AccessDeniedException');
    expect((await sdkRefusal(r.send(new DeleteScheduleGroupCommand({ Name: 'default' })))).name).toBe('AccessDeniedException');
    expect((await sdkRefusal(r.send(new TagResourceCommand({ ResourceArn: defaultArn, Tags: [{ Key: 'team', Value: 'ops' }] })))).name).toBe('AccessDeniedException');

    expect(await rowCounts()).toEqual(before);
    expect(await t.db.scheduleGroup.count({ where: { orgId, region } })).toBe(0);

    // A write key's reads write nothing either; its first write makes `default`, as the reads showed it.
    const w = client(writer, region);
    expect((await w.send(new ListScheduleGroupsCommand({}))).ScheduleGroups!.map((g) => g.Arn)).toEqual([defaultArn]);
    expect(await rowCounts()).toEqual(before);
    await w.send(new TagResourceCommand({ ResourceArn: defaultArn, Tags: [{ Key: 'team', Value: 'ops' }] }));
    expect(await t.db.scheduleGroup.count({ where: { orgId, region } })).toBe(1);
    const made = await r.send(new GetScheduleGroupCommand({ Name: 'default' }));
    expect(made).toMatchObject({ Name: 'default', Arn: defaultArn });
    expect(made.CreationDate).toEqual(group.CreationDate);
    expect((await r.send(new ListTagsForResourceCommand({ ResourceArn: defaultArn }))).Tags).toEqual([{ Key: 'team', Value: 'ops' }]);
  });

  it('the home region answers its `default` the same way before anything made it', async () => {
    const r = client(reader, HOME);
    const before = await rowCounts();
    const names = (await r.send(new ListScheduleGroupsCommand({}))).ScheduleGroups!.map((g) => g.Name);
    expect(names).toContain('default');
    expect((await r.send(new GetScheduleGroupCommand({ Name: 'default' }))).Name).toBe('default');
    expect((await r.send(new ListSchedulesCommand({ GroupName: 'default' }))).Schedules).toBeDefined();
    expect(await rowCounts()).toEqual(before);
  });

  it('a schedule created in another group does not make the region\'s `default`', async () => {
    const groups = (await client(writer, HOME).send(new ListScheduleGroupsCommand({}))).ScheduleGroups!.map((g) => g.Name!);
    const named = groups.find((g) => g !== 'default')!;
    expect(named).toBeDefined();
    const defaults = () => t.db.scheduleGroup.count({ where: { orgId, region: HOME, name: 'default' } });
    expect(await defaults()).toBe(0);
    await client(writer, HOME).send(new CreateScheduleCommand({ Name: 'in-named-group', GroupName: named, ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: 'arn:aws:sqs:us-east-1:123456789012:jobs', RoleArn: ROLE } }));
    expect((await client(writer, HOME).send(new GetScheduleCommand({ Name: 'in-named-group', GroupName: named }))).GroupName).toBe(named);
    expect(await defaults()).toBe(0);
  });
});
