/**
 * Every schedule has a name, unique in its group, and one text reaches one schedule (SPEC §14,
 * docs/decisions.md 77 and 150), on a real database (SQLite, or PostgreSQL with TEST_DATABASE):
 * - migration 0013 names the rows saved without a name (the seed's demo schedule did), by alias
 *   unless another schedule holds that name, else by id, and the column refuses NULL afterwards;
 * - the seeded `nightly-triage` is reached by the EventBridge API's Get, Update and Delete (it
 *   answered 404 while it had no name), and a second create of its name is `409 ConflictException`
 *   leaving one schedule of that name in the group;
 * - an alias rename keeps the name; an alias or a name that is another schedule's name or alias is
 *   refused on either API.
 */
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ListSchedulesCommand,
  SchedulerClient,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import type { Actor } from '../../../auth';
import { loadConfig } from '../../../config';
import { createDb } from '../../../db';
import { createSchedule, getSchedule, updateSchedule } from '../../../schedules';
import { databaseBefore } from '../../../testing/database-before';
import { SEEDED_TARGET } from '../../../testing/seeded-scheduler';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { sdkRefusal } from '../../../testing/sdk-refusal';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIANAMESINTEGRATION', secretAccessKey: 'names-integration-secret-0123456789' };
const ROLE = 'arn:aws:iam::123456789012:role/scheduler';
const GROUP = 'ops-scheduler';
const limits = loadConfig().limits;

const sdk = (server: FetchServer) =>
  new SchedulerClient({ endpoint: server.url, region: 'us-east-1', credentials: BOOT, maxAttempts: 1 });

describe('migration 0013_schedule_names_dead_letter_runs', () => {
  it('names the nameless rows by alias (else id when the alias is another row\'s name); the column refuses NULL afterwards', async () => {
    const old = await databaseBefore('0013');
    const db = createDb(old.url);
    try {
      const seeded = await seed(db, undefined, 'names-password-0123', BOOT);
      const rev = seeded.schedulerRevisionId;
      const target = (await db.schedule.findFirstOrThrow({ where: { revisionId: rev } })).invocationTarget as object;
      const row = (id: string, alias: string | null, name: string | null) => ({
        id, revisionId: rev, alias, repeat: 'recurring_cron', cronExpression: '0 3 * * ? *', timezone: 'UTC', enabled: false,
        invocationTarget: target, createdByType: 'user', createdById: seeded.userId, name: name as string,
      });
      // As the seed and the product left them before 0013: the demo schedule nameless; a nameless row
      // whose alias another schedule (made through the EventBridge API) holds as its name; one with neither.
      await db.$executeRawUnsafe('UPDATE schedules SET name = NULL WHERE alias = \'nightly-triage\'');
      await db.schedule.createMany({
        data: [
          row('00000000-0000-4000-8000-00000000000a', null, 'clash'),
          row('00000000-0000-4000-8000-00000000000b', 'clash', 'tmp-b'),
          row('00000000-0000-4000-8000-00000000000c', null, 'tmp-c'),
        ],
      });
      await db.$executeRawUnsafe('UPDATE schedules SET name = NULL WHERE name IN (\'tmp-b\', \'tmp-c\')');
      expect(await db.$queryRawUnsafe<{ n: number | bigint }[]>('SELECT COUNT(*) AS n FROM schedules WHERE name IS NULL').then((r) => Number(r[0].n))).toBe(3);

      await old.migrateRest();

      const names = await db.schedule.findMany({ where: { revisionId: rev }, select: { id: true, alias: true, name: true }, orderBy: { id: 'asc' } });
      const demo = names.find((s) => s.alias === 'nightly-triage')!;
      expect(names.filter((s) => s.id !== demo.id)).toEqual([
        { id: '00000000-0000-4000-8000-00000000000a', alias: null, name: 'clash' },
        { id: '00000000-0000-4000-8000-00000000000b', alias: 'clash', name: '00000000-0000-4000-8000-00000000000b' },
        { id: '00000000-0000-4000-8000-00000000000c', alias: null, name: '00000000-0000-4000-8000-00000000000c' },
      ]);
      expect(demo.name).toBe('nightly-triage');
      await expect(db.$executeRawUnsafe(`UPDATE schedules SET name = NULL WHERE id = '${demo.id}'`)).rejects.toThrow(/NOT NULL|null value/i);

      // The repaired demo schedule is reachable by name on the EventBridge API.
      const server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db, limits } }));
      try {
        const got = await sdk(server).send(new GetScheduleCommand({ Name: 'nightly-triage', GroupName: GROUP }));
        expect(got).toMatchObject({ Name: 'nightly-triage', GroupName: GROUP, ScheduleExpression: 'cron(0 2 * * ? *)', ScheduleExpressionTimezone: 'Europe/Berlin', State: 'DISABLED' });
      } finally {
        await server.close();
      }
    } finally {
      await db.$disconnect();
      await old.cleanup();
    }
  });
});

describe('schedule names (SPEC §14)', () => {
  let t: TestDb;
  let server: FetchServer;
  let operator: Actor;
  let revision: { id: string; blobId: string };
  const now = () => new Date();

  beforeAll(async () => {
    t = await createTestDb();
    const seeded = await seed(t.db, undefined, 'names-password-0123', BOOT);
    operator = { type: 'user', id: seeded.userId, roleCap: null };
    const rev = await t.db.revision.findUniqueOrThrow({ where: { id: seeded.schedulerRevisionId } });
    revision = { id: rev.id, blobId: rev.blobId };
    server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db: t.db, limits } }));
  });

  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
  });

  it('the seeded schedule is named by its alias: Get, Update and Delete reach it; a second create of its name is 409 ConflictException', async () => {
    const c = sdk(server);
    const got = await c.send(new GetScheduleCommand({ Name: 'nightly-triage', GroupName: GROUP }));
    expect(got).toMatchObject({ Name: 'nightly-triage', GroupName: GROUP, ScheduleExpression: 'cron(0 2 * * ? *)', State: 'DISABLED' });
    expect((await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'nightly-triage' })).name).toBe('nightly-triage');

    const again: CreateScheduleCommandInput = {
      Name: 'nightly-triage', GroupName: GROUP, ScheduleExpression: 'cron(0 4 * * ? *)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: got.Target!.Arn!, RoleArn: ROLE },
    };
    expect(await sdkRefusal(c.send(new CreateScheduleCommand(again)))).toEqual({ name: 'ConflictException', status: 409, message: 'Schedule nightly-triage already exists.' });
    const listed = (await c.send(new ListSchedulesCommand({ GroupName: GROUP }))).Schedules!.map((s) => s.Name);
    expect(listed.filter((n) => n === 'nightly-triage')).toHaveLength(1);
    expect(await t.db.schedule.count({ where: { revisionId: revision.id, name: 'nightly-triage' } })).toBe(1);

    await c.send(new UpdateScheduleCommand({ ...again, ScheduleExpressionTimezone: 'Europe/Berlin', State: 'DISABLED' }));
    expect(await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'nightly-triage' })).toMatchObject({ cron_expression: '0 4 * * ? *', timezone: 'Europe/Berlin', enabled: false });

    await c.send(new DeleteScheduleCommand({ Name: 'nightly-triage', GroupName: GROUP }));
    await expect(getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'nightly-triage' })).rejects.toMatchObject({ code: 'schedule_not_found' });
    expect((await sdkRefusal(c.send(new GetScheduleCommand({ Name: 'nightly-triage', GroupName: GROUP })))).name).toBe('ResourceNotFoundException');
  });

  it('an alias rename keeps the name; an alias or a name held by another schedule, as alias or name, is refused on both APIs', async () => {
    const c = sdk(server);
    const input = (alias?: string) => ({ ...(alias ? { alias } : {}), repeat: 'recurring_cron', cron_expression: '0 6 * * ? *', timezone: 'UTC', enabled: false, invocation_target: SEEDED_TARGET });
    const first = await createSchedule({ db: t.db, actor: operator, revision, input: input('report-v1'), limits, now: now() });
    expect(first.name).toBe('report-v1');
    const renamed = await updateSchedule({ db: t.db, actor: operator, revision, scheduleRef: first.id, input: { alias: 'report-v2' }, limits, now: now() });
    expect(renamed).toMatchObject({ alias: 'report-v2', name: 'report-v1' });
    expect((await c.send(new GetScheduleCommand({ Name: 'report-v1', GroupName: GROUP }))).Name).toBe('report-v1');

    // Its old alias is still its name: another schedule may not take it as alias, on create or rename.
    await expect(createSchedule({ db: t.db, actor: operator, revision, input: input('report-v1'), limits, now: now() })).rejects.toMatchObject({
      code: 'alias_taken', status: 409, path: 'alias', message: 'alias "report-v1" is taken: another schedule in this scheduler is named so',
    });
    const other = await createSchedule({ db: t.db, actor: operator, revision, input: input(), limits, now: now() });
    expect(other.name).toBe(other.id);
    await expect(updateSchedule({ db: t.db, actor: operator, revision, scheduleRef: other.id, input: { alias: 'report-v1' }, limits, now: now() })).rejects.toMatchObject({ code: 'alias_taken', path: 'alias' });
    await expect(updateSchedule({ db: t.db, actor: operator, revision, scheduleRef: other.id, input: { alias: 'report-v2' }, limits, now: now() })).rejects.toMatchObject({
      code: 'alias_taken', message: 'alias "report-v2" is taken by another schedule in this scheduler',
    });

    // The EventBridge API may not create a schedule named as another schedule's alias (the product API reaches that one by it).
    const arn = (await c.send(new GetScheduleCommand({ Name: 'report-v1', GroupName: GROUP }))).Target!.Arn!;
    const create = (name: string) => c.send(new CreateScheduleCommand({ Name: name, GroupName: GROUP, ScheduleExpression: 'cron(0 5 * * ? *)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: arn, RoleArn: ROLE } }));
    expect(await sdkRefusal(create('report-v2'))).toEqual({ name: 'ConflictException', status: 409, message: 'Schedule report-v2 already exists.' });
    // A free name is taken as the alias too, so both APIs reach the new schedule by it.
    await create('report-v3');
    expect(await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'report-v3' })).toMatchObject({ alias: 'report-v3', name: 'report-v3' });
  });
});
