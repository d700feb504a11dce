/**
 * SPEC §14 through the real AWS SDK for JavaScript v3 (`@aws-sdk/client-scheduler`) against the
 * EventBridge facade served over real HTTP, on a real database (SQLite, or PostgreSQL with
 * TEST_DATABASE=postgresql): every operation, AWS's defaults and errors, paging, ClientToken retries,
 * SigV4 refusals, account isolation, and what the worker does with what the API saved.
 */
import {
  ConflictException,
  CreateScheduleCommand,
  CreateScheduleGroupCommand,
  DeleteScheduleCommand,
  DeleteScheduleGroupCommand,
  GetScheduleCommand,
  GetScheduleGroupCommand,
  ListScheduleGroupsCommand,
  ListSchedulesCommand,
  ListTagsForResourceCommand,
  paginateListSchedules,
  SchedulerClient,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import { createAccessKey, revokeAccessKey, type Actor } from '../../../auth';
import { loadConfig, type Limits } from '../../../config';
import { getSchedule, updateSchedule } from '../../../schedules';
import { driverOf } from '../../../targets';
import { fireDue, fireDueAndDeliver } from '../../../testing/fire-and-deliver';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { sdkRefusal } from '../../../testing/sdk-refusal';
import { workflowTargetOf } from '../../../testing/workflow-target';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAINTEGRATIONBOOT1', secretAccessKey: 'integration-boot-secret-0123456789' };
const ROLE = 'arn:aws:iam::123456789012:role/scheduler';
const REGION = 'eu-central-1';

let t: TestDb;
let server: FetchServer;
let tightServer: FetchServer;
let seeded: Awaited<ReturnType<typeof seed>>;
let operator: Actor;
let account: string;
const limits: Limits = { ...loadConfig().limits };

function client(keyId = BOOT.accessKeyId, secret = BOOT.secretAccessKey, opts: { url?: string; region?: string; clockOffsetMs?: number } = {}) {
  const c = new SchedulerClient({
    endpoint: opts.url ?? server.url,
    region: opts.region ?? REGION,
    credentials: { accessKeyId: keyId, secretAccessKey: secret },
    maxAttempts: 1,
  });
  if (opts.clockOffsetMs) c.config.systemClockOffset = opts.clockOffsetMs;
  return c;
}

const workflowArn = (session = 'nightly-batch', definition = 'triage') => `arn:aws:scheduler:${REGION}:${account}:workflow/acme-corp/procedures/default/${session}/${definition}`;

function scheduleInput(name: string, extra: Partial<CreateScheduleCommandInput> = {}): CreateScheduleCommandInput {
  return {
    Name: name,
    ScheduleExpression: 'cron(0 8 * * ? *)',
    FlexibleTimeWindow: { Mode: 'OFF' },
    Target: { Arn: workflowArn(), RoleArn: ROLE },
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestDb();
  seeded = await seed(t.db, 'integration-api-key-0123456789', 'integration-password-0123', BOOT);
  operator = { type: 'user', id: seeded.userId, roleCap: null };
  // The home region is the one this suite signs for: the seeded schedulers (made by the product) are there.
  const runtime = { db: t.db, limits, homeRegion: REGION };
  server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime }));
  tightServer = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { ...runtime, limits: { ...limits, schedulesPerRevision: 2 } } }));
  const group = await client().send(new GetScheduleGroupCommand({ Name: 'default' }));
  account = group.Arn!.split(':')[4];
});

afterAll(async () => {
  await server?.close();
  await tightServer?.close();
  await t?.cleanup();
});

describe('SPEC §14 groups', () => {
  it('default exists on first use, is listed, and answers ACTIVE with dates and the signed region', async () => {
    const g = await client().send(new GetScheduleGroupCommand({ Name: 'default' }));
    expect(g.Arn).toBe(`arn:aws:scheduler:${REGION}:${account}:schedule-group/default`);
    expect(account).toMatch(/^\d{12}$/);
    expect(g.State).toBe('ACTIVE');
    expect(g.CreationDate).toBeInstanceOf(Date);
    expect((await client().send(new ListScheduleGroupsCommand({}))).ScheduleGroups!.map((x) => x.Name)).toEqual(['default', 'ops-scheduler']);
    // Another region has its own default, made on first use there, and none of this region's groups.
    const list = await client(undefined, undefined, { region: 'ap-south-1' }).send(new ListScheduleGroupsCommand({}));
    expect(list.ScheduleGroups!.map((x) => x.Name)).toEqual(['default']);
    expect(list.ScheduleGroups![0].Arn).toBe(`arn:aws:scheduler:ap-south-1:${account}:schedule-group/default`);
  });

  it('create, conflict, tags on groups only, NamePrefix, delete with its schedules, recreate empty', async () => {
    const c = client();
    const created = await c.send(new CreateScheduleGroupCommand({ Name: 'Team.A_1', Tags: [{ Key: 'env', Value: 'prod' }] }));
    expect(created.ScheduleGroupArn).toBe(`arn:aws:scheduler:${REGION}:${account}:schedule-group/Team.A_1`);
    expect(await sdkRefusal(c.send(new CreateScheduleGroupCommand({ Name: 'Team.A_1' })))).toEqual({ name: 'ConflictException', status: 409, message: 'Schedule group Team.A_1 already exists.' });
    expect((await sdkRefusal(c.send(new CreateScheduleGroupCommand({ Name: 'default' })))).status).toBe(409);

    const arn = created.ScheduleGroupArn!;
    await c.send(new TagResourceCommand({ ResourceArn: arn, Tags: [{ Key: 'team', Value: 'a' }, { Key: 'env', Value: 'staging' }] }));
    expect((await c.send(new ListTagsForResourceCommand({ ResourceArn: arn }))).Tags).toEqual([{ Key: 'env', Value: 'staging' }, { Key: 'team', Value: 'a' }]);
    await c.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: ['env', 'absent'] }));
    expect((await c.send(new ListTagsForResourceCommand({ ResourceArn: arn }))).Tags).toEqual([{ Key: 'team', Value: 'a' }]);

    await c.send(new CreateScheduleCommand(scheduleInput('in-team', { GroupName: 'Team.A_1' })));
    const scheduleArn = `arn:aws:scheduler:${REGION}:${account}:schedule/Team.A_1/in-team`;
    const tagSchedule = await sdkRefusal(c.send(new TagResourceCommand({ ResourceArn: scheduleArn, Tags: [{ Key: 'k', Value: 'v' }] })));
    expect(tagSchedule.name).toBe('ValidationException');
    expect(tagSchedule.message).toBe(`1 validation error detected: Value '${scheduleArn}' at 'resourceArn' failed to satisfy constraint: Member must satisfy regular expression pattern: ^arn:aws(-[a-z]+)?:scheduler:[a-z0-9\\-]+:\\d{12}:schedule-group\\/[0-9a-zA-Z-_.]+$`);

    expect((await c.send(new ListScheduleGroupsCommand({ NamePrefix: 'Team' }))).ScheduleGroups!.map((g) => g.Name)).toEqual(['Team.A_1']);
    expect((await c.send(new ListScheduleGroupsCommand({ NamePrefix: 'team' }))).ScheduleGroups).toEqual([]);

    expect(await sdkRefusal(c.send(new DeleteScheduleGroupCommand({ Name: 'default' })))).toEqual({ name: 'ValidationException', status: 400, message: 'Cannot delete the default schedule group.' });
    expect(await sdkRefusal(c.send(new DeleteScheduleGroupCommand({ Name: 'no-such-group' })))).toEqual({ name: 'ResourceNotFoundException', status: 404, message: 'Schedule group no-such-group does not exist.' });
    await c.send(new DeleteScheduleGroupCommand({ Name: 'Team.A_1' }));
    expect((await sdkRefusal(c.send(new GetScheduleCommand({ Name: 'in-team', GroupName: 'Team.A_1' })))).name).toBe('ResourceNotFoundException');
    await c.send(new CreateScheduleGroupCommand({ Name: 'Team.A_1' }));
    expect((await c.send(new ListSchedulesCommand({ GroupName: 'Team.A_1' }))).Schedules).toEqual([]);
    expect((await c.send(new ListTagsForResourceCommand({ ResourceArn: arn }))).Tags).toEqual([]);
  });
});

describe('SPEC §14 schedules', () => {
  it('GetSchedule returns AWS server-side defaults and omits what was never set', async () => {
    const c = client();
    const out = await c.send(new CreateScheduleCommand(scheduleInput('defaults-1')));
    expect(out.ScheduleArn).toBe(`arn:aws:scheduler:${REGION}:${account}:schedule/default/defaults-1`);
    const g = await c.send(new GetScheduleCommand({ Name: 'defaults-1' }));
    const { $metadata, CreationDate, LastModificationDate, ...rest } = g;
    expect($metadata.httpStatusCode).toBe(200);
    expect(CreationDate).toEqual(LastModificationDate);
    expect(rest).toEqual({
      ActionAfterCompletion: 'NONE',
      Arn: out.ScheduleArn,
      FlexibleTimeWindow: { Mode: 'OFF' },
      GroupName: 'default',
      Name: 'defaults-1',
      ScheduleExpression: 'cron(0 8 * * ? *)',
      ScheduleExpressionTimezone: 'UTC',
      State: 'ENABLED',
      Target: { Arn: workflowArn(), RoleArn: ROLE, RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 } },
    });
  });

  it('UpdateSchedule replaces the whole schedule: omitted fields go back to their defaults', async () => {
    const c = client();
    const start = new Date(Date.now() + 86_400_000);
    await c.send(
      new CreateScheduleCommand(
        scheduleInput('replace-1', {
          Description: 'd'.repeat(400),
          State: 'DISABLED',
          ScheduleExpressionTimezone: 'Europe/Berlin',
          StartDate: start,
          ActionAfterCompletion: 'DELETE',
          FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 15 },
          Target: { Arn: workflowArn(), RoleArn: ROLE, Input: '{"hours": 24}', RetryPolicy: { MaximumRetryAttempts: 3 }, DeadLetterConfig: { Arn: 'arn:aws:sqs:eu-central-1:123456789012:dlq' } },
        }),
      ),
    );
    const before = await c.send(new GetScheduleCommand({ Name: 'replace-1' }));
    expect(before.Description).toBe('d'.repeat(400));
    expect(before.StartDate?.getTime()).toBe(start.getTime());
    expect(before.FlexibleTimeWindow).toEqual({ Mode: 'FLEXIBLE', MaximumWindowInMinutes: 15 });
    expect(before.Target?.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 3 });
    expect(before.ActionAfterCompletion).toBe('DELETE');
    // The product keeps the first 256 characters (its own limit), the EventBridge API the whole text.
    const product = await getSchedule({ db: t.db, actor: operator, revision: await revisionOfGroup('default'), scheduleRef: 'replace-1' });
    expect(product.description).toBe('d'.repeat(256));
    expect(product.enabled).toBe(false);
    expect(workflowTargetOf(product).input_data).toEqual([{ alias: 'input', value: { hours: 24 } }]);

    await c.send(new UpdateScheduleCommand(scheduleInput('replace-1', { ScheduleExpression: 'rate(5 minutes)' })));
    const after = await c.send(new GetScheduleCommand({ Name: 'replace-1' }));
    expect(after.CreationDate).toEqual(before.CreationDate);
    expect(after.LastModificationDate!.getTime()).toBeGreaterThanOrEqual(before.LastModificationDate!.getTime());
    expect(after).toMatchObject({ State: 'ENABLED', ScheduleExpressionTimezone: 'UTC', ActionAfterCompletion: 'NONE', ScheduleExpression: 'rate(5 minutes)', FlexibleTimeWindow: { Mode: 'OFF' } });
    expect(after.Description).toBeUndefined();
    expect(after.StartDate).toBeUndefined();
    expect(after.Target).toEqual({ Arn: workflowArn(), RoleArn: ROLE, RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 } });
  });

  it('FlexibleTimeWindow {Mode: OFF, MaximumWindowInMinutes}: accepted as the model allows, read back as sent, no window applied; a product edit of the window or a full-replacement update drops it (decision 315)', async () => {
    const c = client();
    const revision = await revisionOfGroup('default');
    await c.send(new CreateScheduleCommand(scheduleInput('off-window', { FlexibleTimeWindow: { Mode: 'OFF', MaximumWindowInMinutes: 15 } })));
    expect((await c.send(new GetScheduleCommand({ Name: 'off-window' }))).FlexibleTimeWindow).toEqual({ Mode: 'OFF', MaximumWindowInMinutes: 15 });
    // OFF: the occurrence fires at its nominal instant, 08:00 UTC, whatever the window says.
    const s = await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'off-window' });
    expect(s.flexible_time_window?.mode ?? 'off').toBe('off');
    expect(new Date(s.next_fire_at!).toISOString()).toMatch(/T08:00:00\.000Z$/);
    // The model's bound still applies.
    expect((await sdkRefusal(c.send(new UpdateScheduleCommand(scheduleInput('off-window', { FlexibleTimeWindow: { Mode: 'OFF', MaximumWindowInMinutes: 1441 } })))))).toMatchObject({
      name: 'ValidationException',
      message: "1 validation error detected: Value '1441' at 'flexibleTimeWindow.maximumWindowInMinutes' failed to satisfy constraint: Member must have value less than or equal to 1440",
    });
    // Full replacement: an update without the window answers none.
    await c.send(new UpdateScheduleCommand(scheduleInput('off-window')));
    expect((await c.send(new GetScheduleCommand({ Name: 'off-window' }))).FlexibleTimeWindow).toEqual({ Mode: 'OFF' });
    // A product edit of the window replaces the copy: what the product holds is answered.
    await c.send(new UpdateScheduleCommand(scheduleInput('off-window', { FlexibleTimeWindow: { Mode: 'OFF', MaximumWindowInMinutes: 30 } })));
    await updateSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'off-window', input: { flexible_time_window: { mode: 'off' } }, limits, now: new Date() });
    expect((await c.send(new GetScheduleCommand({ Name: 'off-window' }))).FlexibleTimeWindow).toEqual({ Mode: 'OFF' });
    await c.send(new DeleteScheduleCommand({ Name: 'off-window' }));
  });

  it('names are unique per group, not across groups; a missing group is 404', async () => {
    const c = client();
    await c.send(new CreateScheduleCommand(scheduleInput('same-name')));
    expect(await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('same-name'))))).toEqual({ name: 'ConflictException', status: 409, message: 'Schedule same-name already exists.' });
    await c.send(new CreateScheduleGroupCommand({ Name: 'other-group' }));
    const out = await c.send(new CreateScheduleCommand(scheduleInput('same-name', { GroupName: 'other-group' })));
    expect(out.ScheduleArn).toBe(`arn:aws:scheduler:${REGION}:${account}:schedule/other-group/same-name`);
    expect(await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('x', { GroupName: 'missing-group' }))))).toEqual({ name: 'ResourceNotFoundException', status: 404, message: 'Schedule group missing-group does not exist.' });
    expect(await sdkRefusal(c.send(new GetScheduleCommand({ Name: 'nope' })))).toEqual({ name: 'ResourceNotFoundException', status: 404, message: 'Schedule nope does not exist.' });
    expect((await sdkRefusal(c.send(new UpdateScheduleCommand(scheduleInput('nope'))))).name).toBe('ResourceNotFoundException');
    expect((await sdkRefusal(c.send(new DeleteScheduleCommand({ Name: 'nope' })))).name).toBe('ResourceNotFoundException');
  });

  it("AWS's recorded refusals of expressions, and the model's constraints in Coral wording", async () => {
    const c = client();
    for (const expr of ['cron(0 1 * * * *)', 'cron(71 8 1 * ? *)', 'rate(10 seconds)', ' rate(10 minutes)', 'at(2021-12-31T23:59:59Z)', 'cron(0 0 30 2 ? *)']) {
      expect(await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('bad-expr', { ScheduleExpression: expr }))))).toEqual({
        name: 'ValidationException',
        status: 400,
        message: `Invalid Schedule Expression ${expr}.`,
      });
    }
    const bad = await sdkRefusal(
      c.send(new CreateScheduleCommand({ ...scheduleInput('bad name'), FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 2000 }, Target: { Arn: 'x', RoleArn: 'not-a-role' } })),
    );
    expect(bad).toEqual({
      name: 'ValidationException',
      status: 400,
      message:
        "3 validation errors detected: Value '2000' at 'flexibleTimeWindow.maximumWindowInMinutes' failed to satisfy constraint: Member must have value less than or equal to 1440; " +
        "Value 'bad name' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[0-9a-zA-Z-_.]+$; " +
        "Value 'not-a-role' at 'target.roleArn' failed to satisfy constraint: Member must satisfy regular expression pattern: ^arn:aws(-[a-z]+)?:iam::\\d{12}:role\\/[\\w+=,.@\\/-]+$",
    });
    const past = await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('past-start', { StartDate: new Date(Date.now() - 10 * 60_000) }))));
    expect(past).toEqual({ name: 'ValidationException', status: 400, message: 'The StartDate you specify cannot be earlier than 5 minutes ago.' });
    expect((await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('bad-tz', { ScheduleExpressionTimezone: 'Mars/Olympus' }))))).name).toBe('ValidationException');
    expect((await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('bad-target', { Target: { Arn: workflowArn('no-such-session'), RoleArn: ROLE } }))))).name).toBe('ValidationException');
  });

  it('a past at() is accepted: inside the catch-up window it fires at once, older it completes unfired and counts a skip', async () => {
    const c = client();
    const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    await c.send(new CreateScheduleCommand(scheduleInput('at-recent', { ScheduleExpression: `at(${wall(Date.now() - 60_000)})` })));
    await c.send(new CreateScheduleCommand(scheduleInput('at-old', { ScheduleExpression: 'at(2022-12-31T23:59:59)' })));
    const revision = await revisionOfGroup('default');
    const old = await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'at-old' });
    expect({ state: old.state, next_fire_at: old.next_fire_at, skipped: old.skipped_occurrences }).toEqual({ state: 'completed', next_fire_at: null, skipped: 1 });
    expect((await c.send(new GetScheduleCommand({ Name: 'at-old' }))).ScheduleExpression).toBe('at(2022-12-31T23:59:59)');

    const recent = await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'at-recent' });
    const outcomes = await fireDue({ db: t.db, now: new Date(), limit: 500, limits });
    const fired = outcomes.find((o) => o.scheduleId === recent.id);
    expect(fired?.kind).toBe('fired');
    const execution = await t.db.execution.findFirstOrThrow({ where: { scheduleId: recent.id } });
    // No Target.Input: the workflow gets the EventBridge default event (SPEC §13.3).
    expect(execution.inputData).toEqual([
      {
        alias: 'event',
        value: {
          version: '0',
          id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
          'detail-type': 'Scheduled Event',
          source: 'aws.scheduler',
          account,
          time: `${recent.invocation_time}Z`,
          region: REGION,
          resources: [`arn:aws:scheduler:${REGION}:${account}:schedule/default/at-recent`],
          detail: '{}',
        },
      },
    ]);
  });

  it('any other target ARN is stored and answered as sent; each fire is a failed attempt unsupported_target', async () => {
    const c = client();
    const target = {
      Arn: 'arn:aws:kinesis:eu-central-1:123456789012:stream/s',
      RoleArn: ROLE,
      Input: 'plain text',
      KinesisParameters: { PartitionKey: 'p' },
    };
    const wall = new Date(Date.now() - 30_000).toISOString().slice(0, 19);
    await c.send(new CreateScheduleCommand(scheduleInput('kinesis-1', { ScheduleExpression: `at(${wall})`, Target: target })));
    expect((await c.send(new GetScheduleCommand({ Name: 'kinesis-1' }))).Target).toEqual({ ...target, RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 } });
    const lambda = await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('lambda-1', { Target: { Arn: 'arn:aws:lambda:eu-central-1:123456789012:function:f', RoleArn: ROLE, Input: 'not json' } }))));
    expect(lambda.name).toBe('ValidationException');
    const s = await getSchedule({ db: t.db, actor: operator, revision: await revisionOfGroup('default'), scheduleRef: 'kinesis-1' });
    expect(s.invocation_target_type).toBe('aws');
    // The fire is stored in flight, then "delivered": a kinesis ARN is no target SPEC §13.2 delivers to.
    await fireDueAndDeliver({ db: t.db, now: new Date(), limits });
    const runs = await t.db.run.findMany({ where: { scheduleId: s.id } });
    expect(runs.map((r) => [r.status, r.result])).toEqual([
      ['invocation_error', { error: 'unsupported_target', message: 'this aws target cannot be delivered: "kinesis" ARNs are not a supported target; use one of sqs, sns, lambda, states, events, ecs' }],
    ]);
  });

  it('an http(s) Target.Arn is an http target: JSON Input is its body as JSON, other Input its text; a refused destination is a ValidationException', async () => {
    const c = client();
    const revision = await revisionOfGroup('default');
    // A public address written as a literal: checked without DNS (SPEC §13.1).
    const json = { Arn: 'https://93.184.216.34/hook', RoleArn: ROLE, Input: '{"n":1,"tags":["a"]}' };
    await c.send(new CreateScheduleCommand(scheduleInput('hook-json', { Target: json })));
    expect((await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'hook-json' })).invocation_target).toEqual({ url: 'https://93.184.216.34/hook', body: { n: 1, tags: ['a'] } });
    expect((await c.send(new GetScheduleCommand({ Name: 'hook-json' }))).Target).toEqual({ ...json, RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 } });
    await c.send(new CreateScheduleCommand(scheduleInput('hook-text', { Target: { Arn: 'http://93.184.216.34/in', RoleArn: ROLE, Input: 'plain text' } })));
    const text = await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'hook-text' });
    expect([text.invocation_target_type, text.invocation_target]).toEqual(['http', { url: 'http://93.184.216.34/in', body: 'plain text' }]);

    const metadata = await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('hook-metadata', { Target: { Arn: 'http://169.254.169.254/latest/meta-data', RoleArn: ROLE } }))));
    expect(metadata).toEqual({
      name: 'ValidationException',
      status: 400,
      message: 'Invalid target http://169.254.169.254/latest/meta-data: url: 169.254.169.254 is a cloud metadata address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it.',
    });
    const loopback = await sdkRefusal(c.send(new UpdateScheduleCommand({ ...scheduleInput('hook-json'), Target: { Arn: 'http://127.0.0.1:9/', RoleArn: ROLE } })));
    expect([loopback.name, loopback.message]).toEqual(['ValidationException', 'Invalid target http://127.0.0.1:9/: url: 127.0.0.1 is a loopback address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it.']);
    // Refused: nothing written, the stored target unchanged.
    expect((await c.send(new GetScheduleCommand({ Name: 'hook-json' }))).Target?.Arn).toBe('https://93.184.216.34/hook');
    await expect(getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'hook-metadata' })).rejects.toMatchObject({ code: 'schedule_not_found' });
  });

  it('UpdateSchedule with the Target as read keeps a webhook\'s method, headers and timeout (no Target member holds them); a new URL drops them', async () => {
    const c = client();
    const revision = await revisionOfGroup('default');
    await c.send(new CreateScheduleCommand(scheduleInput('hook-kept', { Target: { Arn: 'https://93.184.216.34/kept', RoleArn: ROLE, Input: '{"k":1}' } })));
    const configured = { url: 'https://93.184.216.34/kept', method: 'PUT' as const, headers: { Authorization: 'Bearer s3cr3t' }, timeout_seconds: 3, body: { k: 1 } };
    await updateSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'hook-kept', input: { invocation_target_type: 'http', invocation_target: configured }, limits, now: new Date() });
    const read = await c.send(new GetScheduleCommand({ Name: 'hook-kept' }));
    await c.send(new UpdateScheduleCommand({ ...scheduleInput('hook-kept'), Description: 'only the description changes', Target: read.Target! }));
    // SPEC §13.5: the Target has no headers to show; the answer masks them; the value stored is kept.
    expect(JSON.stringify(read)).not.toContain('s3cr3t');
    const kept = await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'hook-kept' });
    expect([kept.description, kept.invocation_target]).toEqual(['only the description changes', { ...configured, headers: { Authorization: '••••' } }]);
    const row = await t.db.schedule.findUniqueOrThrow({ where: { id: kept.id } });
    expect(driverOf('http')!.parse(row.invocationTarget)).toEqual({ ok: true, target: configured });
    await c.send(new UpdateScheduleCommand({ ...scheduleInput('hook-kept'), Target: { ...read.Target!, Arn: 'https://93.184.216.34/moved' } }));
    expect((await getSchedule({ db: t.db, actor: operator, revision, scheduleRef: 'hook-kept' })).invocation_target).toEqual({ url: 'https://93.184.216.34/moved', body: { k: 1 } });
  });

  it('a product-API edit of a workflow target keeps the role sent and the retry policy; Get re-derives the Arn and Input', async () => {
    const c = client();
    await c.send(new CreateScheduleCommand(scheduleInput('edited-elsewhere', { Target: { Arn: workflowArn(), RoleArn: ROLE, Input: '[{"alias":"a","value":1}]', RetryPolicy: { MaximumRetryAttempts: 7 } } })));
    const revision = await revisionOfGroup('default');
    await updateSchedule({
      db: t.db,
      actor: operator,
      revision,
      scheduleRef: 'edited-elsewhere',
      input: { invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'daily-report' }, input_data: [] } },
      limits,
      now: new Date(),
    });
    const g = await c.send(new GetScheduleCommand({ Name: 'edited-elsewhere' }));
    expect(g.Target).toEqual({ Arn: workflowArn('nightly-batch', 'daily-report'), RoleArn: ROLE, RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 7 } });
  });

  it('ListSchedules pages through 250 schedules completely and without duplicates, with filters', async () => {
    const c = client();
    await c.send(new CreateScheduleGroupCommand({ Name: 'bulk' }));
    const names = Array.from({ length: 250 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
    for (const [i, name] of names.entries()) {
      await c.send(new CreateScheduleCommand(scheduleInput(name, { GroupName: 'bulk', State: i % 5 === 0 ? 'DISABLED' : 'ENABLED' })));
    }
    const seen: string[] = [];
    let pages = 0;
    for await (const page of paginateListSchedules({ client: c, pageSize: 7 }, { GroupName: 'bulk' })) {
      pages++;
      expect(page.Schedules!.length).toBeLessThanOrEqual(7);
      seen.push(...page.Schedules!.map((s) => s.Name!));
    }
    expect(pages).toBe(36);
    expect(seen.length).toBe(250);
    expect(new Set(seen).size).toBe(250);
    expect([...seen].sort()).toEqual(names);
    const summary = (await c.send(new ListSchedulesCommand({ GroupName: 'bulk', MaxResults: 1 }))).Schedules![0];
    expect(Object.keys(summary).sort()).toEqual(['Arn', 'CreationDate', 'GroupName', 'LastModificationDate', 'Name', 'State', 'Target']);
    expect(summary.Target).toEqual({ Arn: workflowArn() });

    const disabled: string[] = [];
    for await (const page of paginateListSchedules({ client: c, pageSize: 100 }, { GroupName: 'bulk', State: 'DISABLED', NamePrefix: 'bulk-1' })) disabled.push(...page.Schedules!.map((s) => s.Name!));
    expect(disabled.sort()).toEqual(names.filter((n, i) => i % 5 === 0 && n.startsWith('bulk-1')));
    expect((await c.send(new ListSchedulesCommand({ NamePrefix: 'BULK' }))).Schedules).toEqual([]);
    const bad = await sdkRefusal(c.send(new ListSchedulesCommand({ NextToken: 'not-a-token' })));
    expect(bad.name).toBe('ValidationException');
  });

  it('ClientToken: a retry with the same token answers the first result and creates nothing; other parameters are a conflict', async () => {
    const c = client();
    const first = await c.send(new CreateScheduleCommand(scheduleInput('token-1', { ClientToken: 'retry-token-0001' })));
    const again = await c.send(new CreateScheduleCommand(scheduleInput('token-1', { ClientToken: 'retry-token-0001' })));
    expect(again.ScheduleArn).toBe(first.ScheduleArn);
    expect(await t.db.schedule.count({ where: { name: 'token-1' } })).toBe(1);
    const other = await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('token-1', { ClientToken: 'retry-token-0001', Description: 'changed' }))));
    expect(other.name).toBe(ConflictException.name);
    expect(other.status).toBe(409);
    // Without the same token, the same name is a plain conflict.
    expect((await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('token-1'))))).message).toBe('Schedule token-1 already exists.');
    // A retried delete answers success once more.
    await c.send(new DeleteScheduleCommand({ Name: 'token-1', ClientToken: 'delete-token-0001' }));
    const redo = await c.send(new DeleteScheduleCommand({ Name: 'token-1', ClientToken: 'delete-token-0001' }));
    expect(redo.$metadata.httpStatusCode).toBe(200);
    expect((await sdkRefusal(c.send(new DeleteScheduleCommand({ Name: 'token-1' })))).name).toBe('ResourceNotFoundException');
  });

  it('ServiceQuotaExceededException (402) when the group holds the most schedules allowed', async () => {
    const c = client(undefined, undefined, { url: tightServer.url });
    await c.send(new CreateScheduleGroupCommand({ Name: 'tight' }));
    await c.send(new CreateScheduleCommand(scheduleInput('q1', { GroupName: 'tight' })));
    await c.send(new CreateScheduleCommand(scheduleInput('q2', { GroupName: 'tight' })));
    expect((await sdkRefusal(c.send(new CreateScheduleCommand(scheduleInput('q3', { GroupName: 'tight' }))))).status).toBe(402);
  });
});
describe('SPEC §14 regions', () => {
  const west = () => client(undefined, undefined, { region: 'eu-west-1' });

  it('the same names in two regions are two groups and two schedules: each region lists, gets and deletes only its own', async () => {
    for (const c of [client(), west()]) {
      await c.send(new CreateScheduleGroupCommand({ Name: 'daily' }));
      await c.send(new CreateScheduleCommand(scheduleInput('report', { GroupName: 'daily' })));
      await c.send(new CreateScheduleCommand(scheduleInput('report')));
    }
    const here = await client().send(new ListSchedulesCommand({ GroupName: 'daily' }));
    const there = await west().send(new ListSchedulesCommand({ GroupName: 'daily' }));
    expect(here.Schedules!.map((x) => x.Arn)).toEqual([`arn:aws:scheduler:${REGION}:${account}:schedule/daily/report`]);
    expect(there.Schedules!.map((x) => x.Arn)).toEqual([`arn:aws:scheduler:eu-west-1:${account}:schedule/daily/report`]);
    expect((await west().send(new ListScheduleGroupsCommand({}))).ScheduleGroups!.map((g) => g.Name)).toEqual(['daily', 'default']);
    expect((await west().send(new ListSchedulesCommand({}))).Schedules!.map((x) => `${x.GroupName}/${x.Name}`).sort()).toEqual(['daily/report', 'default/report']);
    // The product's scheduler of the home region is not seen from eu-west-1.
    expect((await sdkRefusal(west().send(new GetScheduleGroupCommand({ Name: 'ops-scheduler' })))).name).toBe('ResourceNotFoundException');
    expect((await sdkRefusal(west().send(new GetScheduleCommand({ Name: 'defaults-1' })))).name).toBe('ResourceNotFoundException');
    // A tag operation with the ARN of another region's group finds nothing.
    const hereArn = `arn:aws:scheduler:${REGION}:${account}:schedule-group/daily`;
    expect((await sdkRefusal(west().send(new TagResourceCommand({ ResourceArn: hereArn, Tags: [{ Key: 'k', Value: 'v' }] })))).name).toBe('ResourceNotFoundException');

    await west().send(new DeleteScheduleGroupCommand({ Name: 'daily' }));
    expect((await sdkRefusal(west().send(new GetScheduleGroupCommand({ Name: 'daily' })))).name).toBe('ResourceNotFoundException');
    expect((await client().send(new GetScheduleCommand({ Name: 'report', GroupName: 'daily' }))).Arn).toBe(`arn:aws:scheduler:${REGION}:${account}:schedule/daily/report`);
    await west().send(new DeleteScheduleCommand({ Name: 'report' }));
    expect((await client().send(new GetScheduleCommand({ Name: 'report' }))).GroupName).toBe('default');
    expect(await sdkRefusal(west().send(new DeleteScheduleGroupCommand({ Name: 'default' })))).toEqual({ name: 'ValidationException', status: 400, message: 'Cannot delete the default schedule group.' });
    await client().send(new DeleteScheduleGroupCommand({ Name: 'daily' }));
    await client().send(new DeleteScheduleCommand({ Name: 'report' }));
  });

  it("ARNs carry the region's partition; a region not in AWS's form is refused as an unknown credential scope", async () => {
    const gov = client(undefined, undefined, { region: 'us-gov-west-1' });
    expect((await gov.send(new CreateScheduleGroupCommand({ Name: 'gov-jobs' }))).ScheduleGroupArn).toBe(`arn:aws-us-gov:scheduler:us-gov-west-1:${account}:schedule-group/gov-jobs`);
    expect((await gov.send(new CreateScheduleCommand(scheduleInput('gov-report', { GroupName: 'gov-jobs' })))).ScheduleArn).toBe(
      `arn:aws-us-gov:scheduler:us-gov-west-1:${account}:schedule/gov-jobs/gov-report`,
    );
    expect((await gov.send(new GetScheduleCommand({ Name: 'gov-report', GroupName: 'gov-jobs' }))).Arn).toBe(`arn:aws-us-gov:scheduler:us-gov-west-1:${account}:schedule/gov-jobs/gov-report`);
    // The ARNs it issues are taken back: tags by the group's GovCloud ARN, a GovCloud role and dead letter.
    const govGroup = `arn:aws-us-gov:scheduler:us-gov-west-1:${account}:schedule-group/gov-jobs`;
    await gov.send(new TagResourceCommand({ ResourceArn: govGroup, Tags: [{ Key: 'team', Value: 'gov' }] }));
    expect((await gov.send(new ListTagsForResourceCommand({ ResourceArn: govGroup }))).Tags).toEqual([{ Key: 'team', Value: 'gov' }]);
    const govRole = `arn:aws-us-gov:iam::${account}:role/gov-scheduler`;
    const govTarget = { Arn: workflowArn(), RoleArn: govRole, DeadLetterConfig: { Arn: `arn:aws-us-gov:sqs:us-gov-west-1:${account}:gov-dlq` } };
    await gov.send(new CreateScheduleCommand(scheduleInput('gov-role', { GroupName: 'gov-jobs', Target: govTarget })));
    expect((await gov.send(new GetScheduleCommand({ Name: 'gov-role', GroupName: 'gov-jobs' }))).Target).toMatchObject(govTarget);
    const cn = client(undefined, undefined, { region: 'cn-north-1' });
    expect((await cn.send(new GetScheduleGroupCommand({ Name: 'default' }))).Arn).toBe(`arn:aws-cn:scheduler:cn-north-1:${account}:schedule-group/default`);
    expect((await client(undefined, undefined, { region: 'eu-central-2' }).send(new GetScheduleGroupCommand({ Name: 'default' }))).Arn).toBe(
      `arn:aws:scheduler:eu-central-2:${account}:schedule-group/default`,
    );
    for (const region of ['moon-1', 'us-east', 'useast1']) {
      expect(await sdkRefusal(client(undefined, undefined, { region }).send(new ListScheduleGroupsCommand({})))).toEqual({
        name: 'InvalidSignatureException',
        status: 403,
        message: `Credential should be scoped to a valid region, not '${region}'. `,
      });
    }
  });

  it("a workflow ARN naming another account is a ValidationException; the caller's own account (or none) is accepted", async () => {
    const other = workflowArn().replace(`:${account}:`, ':111122223333:');
    expect(await sdkRefusal(client().send(new CreateScheduleCommand(scheduleInput('elsewhere', { Target: { Arn: other, RoleArn: ROLE } }))))).toEqual({
      name: 'ValidationException',
      status: 400,
      message: `Invalid target ${other}: account 111122223333 is not the schedule's account; EventBridge Scheduler cannot reach a workflow in another account.`,
    });
    const noAccount = workflowArn().replace(`:${account}:`, '::');
    await client().send(new CreateScheduleCommand(scheduleInput('no-account', { Target: { Arn: noAccount, RoleArn: ROLE } })));
    const upd = await sdkRefusal(client().send(new UpdateScheduleCommand(scheduleInput('no-account', { Target: { Arn: other, RoleArn: ROLE } }))));
    expect(upd.name).toBe('ValidationException');
    await client().send(new DeleteScheduleCommand({ Name: 'no-account' }));
  });

  it('a StartDate or EndDate in year 10000 is refused in the model\'s wording, naming the member; 9999 is accepted', async () => {
    const y10k = new Date(Date.UTC(10000, 0, 1));
    expect(await sdkRefusal(client().send(new CreateScheduleCommand(scheduleInput('far-future', { StartDate: y10k }))))).toEqual({
      name: 'ValidationException',
      status: 400,
      message: "1 validation error detected: Value '253402300800' at 'startDate' failed to satisfy constraint: Member must be a timestamp no later than 9999-12-31T23:59:59Z",
    });
    expect((await sdkRefusal(client().send(new CreateScheduleCommand(scheduleInput('far-future', { EndDate: y10k }))))).message).toBe(
      "1 validation error detected: Value '253402300800' at 'endDate' failed to satisfy constraint: Member must be a timestamp no later than 9999-12-31T23:59:59Z",
    );
    await client().send(new CreateScheduleCommand(scheduleInput('far-future', { EndDate: new Date(Date.UTC(9999, 11, 31)) })));
    expect((await client().send(new GetScheduleCommand({ Name: 'far-future' }))).EndDate).toEqual(new Date(Date.UTC(9999, 11, 31)));
    await client().send(new DeleteScheduleCommand({ Name: 'far-future' }));
  });
});

describe('SPEC §14 credentials', () => {
  it('wrong secret, unknown key, revoked key and a 20-minute-old signature are refused as AWS refuses them', async () => {
    const list = new ListScheduleGroupsCommand({});
    expect(await sdkRefusal(client(BOOT.accessKeyId, 'wrong-secret').send(list))).toEqual({
      name: 'InvalidSignatureException',
      status: 403,
      message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    });
    expect(await sdkRefusal(client('AKIAUNKNOWNKEY000000', 'whatever').send(list))).toEqual({ name: 'UnrecognizedClientException', status: 403, message: 'The security token included in the request is invalid.' });
    const pair = await createAccessKey(t.db, { actor: operator, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'to-revoke', role: 'write' }, now: new Date() });
    const revocable = client(pair.accessKey.accessKeyId, pair.secretAccessKey);
    expect((await revocable.send(list)).ScheduleGroups!.length).toBeGreaterThan(0);
    await revokeAccessKey(t.db, { actor: operator, keyId: pair.accessKey.id, now: new Date() });
    expect((await sdkRefusal(revocable.send(list))).name).toBe('UnrecognizedClientException');
    const old = await sdkRefusal(client(undefined, undefined, { clockOffsetMs: -20 * 60_000 }).send(list));
    expect(old.name).toBe('InvalidSignatureException');
    expect(old.status).toBe(403);
    expect(old.message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than \d{8}T\d{6}Z \(\d{8}T\d{6}Z - 15 min\.\)$/);
  });

  it('a session token is refused: the SDK with sessionToken, and a raw request with an unsigned X-Amz-Security-Token (SPEC §14 "Signing")', async () => {
    const list = new ListScheduleGroupsCommand({});
    const invalid = { name: 'UnrecognizedClientException', status: 403, message: 'The security token included in the request is invalid.' };
    const withToken = new SchedulerClient({ endpoint: server.url, region: REGION, credentials: { ...BOOT, sessionToken: 'FwoGZXIvYXdzEJr//////////wEaDGarbage' }, maxAttempts: 1 });
    expect(await sdkRefusal(withToken.send(list))).toEqual(invalid);
    // A raw request carrying a token (the signature is not even looked at: the token is refused first).
    const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const current = await fetch(`${server.url}/schedule-groups`, {
      headers: { 'x-amz-security-token': 'anything', 'x-amz-date': now, authorization: `AWS4-HMAC-SHA256 Credential=${BOOT.accessKeyId}/${now.slice(0, 8)}/${REGION}/scheduler/aws4_request, SignedHeaders=host;x-amz-date, Signature=00` },
    });
    expect(current.status).toBe(403);
    expect(current.headers.get('x-amzn-errortype')).toBe('UnrecognizedClientException');
    expect(await current.json()).toMatchObject({ Message: 'The security token included in the request is invalid.' });
    // The same client without the token is accepted.
    expect((await client().send(list)).ScheduleGroups!.length).toBeGreaterThan(0);
  });

  it('a read pair reads but is refused writes with AccessDeniedException', async () => {
    const pair = await createAccessKey(t.db, { actor: operator, owner: { type: 'org', org: 'acme-corp' }, input: { name: 'reader', role: 'read' }, now: new Date() });
    const reader = client(pair.accessKey.accessKeyId, pair.secretAccessKey);
    expect((await reader.send(new GetScheduleCommand({ Name: 'defaults-1' }))).Name).toBe('defaults-1');
    const denied = await sdkRefusal(reader.send(new CreateScheduleCommand(scheduleInput('by-reader'))));
    expect(denied.name).toBe('AccessDeniedException');
    expect(denied.status).toBe(403);
    expect((await sdkRefusal(reader.send(new CreateScheduleGroupCommand({ Name: 'by-reader' })))).name).toBe('AccessDeniedException');
  });

  it("another org's access key sees none of acme-corp's groups or schedules", async () => {
    const globex = await t.db.$transaction(async (tx) => {
      const org = await tx.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
      const user = await tx.user.create({ data: { email: 'admin@globex.example', name: 'Globex admin' } });
      await tx.membership.create({ data: { userId: user.id, orgId: org.id, role: 'admin' } });
      return { org, user };
    });
    const pair = await createAccessKey(t.db, { actor: { type: 'user', id: globex.user.id, roleCap: null }, owner: { type: 'org', org: 'globex-corp' }, input: { name: 'globex', role: 'write' }, now: new Date() });
    const other = client(pair.accessKey.accessKeyId, pair.secretAccessKey);
    const groups = await other.send(new ListScheduleGroupsCommand({}));
    expect(groups.ScheduleGroups!.map((g) => g.Name)).toEqual(['default']);
    const otherAccount = groups.ScheduleGroups![0].Arn!.split(':')[4];
    expect(otherAccount).not.toBe(account);
    expect((await other.send(new ListSchedulesCommand({}))).Schedules).toEqual([]);
    expect((await sdkRefusal(other.send(new GetScheduleGroupCommand({ Name: 'ops-scheduler' })))).name).toBe('ResourceNotFoundException');
    expect((await sdkRefusal(other.send(new GetScheduleCommand({ Name: 'defaults-1' })))).name).toBe('ResourceNotFoundException');
    const acmeGroupArn = `arn:aws:scheduler:${REGION}:${account}:schedule-group/ops-scheduler`;
    expect((await sdkRefusal(other.send(new ListTagsForResourceCommand({ ResourceArn: acmeGroupArn })))).name).toBe('ResourceNotFoundException');
  });
});

async function revisionOfGroup(name: string): Promise<{ id: string; blobId: string }> {
  const g = await t.db.scheduleGroup.findFirstOrThrow({ where: { name, orgId: seeded.orgId, region: REGION }, include: { blob: true } });
  return { id: g.blob.defaultRevisionId!, blobId: g.blobId };
}
