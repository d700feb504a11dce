/**
 * SPEC §14 "every schedule is one row": GetSchedule through the real AWS SDK answers the schedule as it
 * is now after saves made elsewhere (the product's `update_schedule`, which the web app, the JSON API
 * and the CLI's `deploy` all call), and a schedule made elsewhere shows every Target member it holds.
 * Real HTTP, real database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql).
 */
import { CreateScheduleCommand, GetScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import type { Actor } from '../../../auth';
import { loadConfig, type Limits } from '../../../config';
import { createSchedule, updateSchedule } from '../../../schedules';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAINTEGRATIONBOOT2', secretAccessKey: 'integration-boot-secret-elsewhere-01' };
const ROLE = 'arn:aws:iam::123456789012:role/scheduler';
const OTHER_ROLE = 'arn:aws:iam::123456789012:role/other';
const REGION = 'eu-central-1';
/** The seeded scheduler's group. */
const GROUP = 'ops-scheduler';
const QUEUE = 'arn:aws:sqs:eu-central-1:123456789012:orders.fifo';
const CLUSTER = 'arn:aws:ecs:eu-central-1:123456789012:cluster/batch';
const TASK = (n: number) => `arn:aws:ecs:eu-central-1:123456789012:task-definition/report:${n}`;

let t: TestDb;
let server: FetchServer;
let operator: Actor;
let revision: { id: string; blobId: string };
const limits: Limits = { ...loadConfig().limits };

const client = () =>
  new SchedulerClient({ endpoint: server.url, region: REGION, credentials: { accessKeyId: BOOT.accessKeyId, secretAccessKey: BOOT.secretAccessKey }, maxAttempts: 1 });
const get = (name: string) => client().send(new GetScheduleCommand({ GroupName: GROUP, Name: name }));
/** A save made outside the EventBridge API: the product's update_schedule, as the JSON API and `scheduler deploy` send it. */
const editElsewhere = (scheduleRef: string, input: Record<string, unknown>) => updateSchedule({ db: t.db, actor: operator, revision, scheduleRef, input, limits, now: new Date() });
const createElsewhere = (alias: string, target: Record<string, unknown>) =>
  createSchedule({ db: t.db, actor: operator, revision, input: { alias, repeat: 'recurring_rate', rate_expression: '1 hour', timezone: 'UTC', invocation_target_type: 'aws', invocation_target: target }, limits, now: new Date() });

beforeAll(async () => {
  t = await createTestDb();
  const seeded = await seed(t.db, 'integration-api-key-elsewhere-0123', 'integration-password-0123', BOOT);
  operator = { type: 'user', id: seeded.userId, roleCap: null };
  server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db: t.db, limits } }));
  const blob = await t.db.blob.findFirstOrThrow({ where: { orgId: seeded.orgId, alias: GROUP } });
  revision = { id: seeded.schedulerRevisionId, blobId: blob.id };
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

describe('SPEC §14 GetSchedule after a save made elsewhere', () => {
  it('answers the rate changed by update_schedule, not the expression last sent', async () => {
    await client().send(new CreateScheduleCommand({ GroupName: GROUP, Name: 'eb-made-one', ScheduleExpression: 'rate(5 minutes)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: QUEUE, RoleArn: ROLE, SqsParameters: { MessageGroupId: 'g' } } }));
    expect((await get('eb-made-one')).ScheduleExpression).toBe('rate(5 minutes)');
    await editElsewhere('eb-made-one', { rate_expression: '10 minutes' });
    expect((await get('eb-made-one')).ScheduleExpression).toBe('rate(10 minutes)');
  });

  it('answers the SQS target changed without a role: the new group, the product role, nothing of the old Target', async () => {
    await client().send(
      new CreateScheduleCommand({ GroupName: GROUP, Name: 'eb-fifo', ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: QUEUE, RoleArn: OTHER_ROLE, Input: '{"a":1}', SqsParameters: { MessageGroupId: 'old-group' } } }),
    );
    await editElsewhere('eb-fifo', { invocation_target_type: 'aws', invocation_target: { arn: QUEUE, sqs_parameters: { message_group_id: 'new-group' } } });
    const read = await get('eb-fifo');
    expect(read.Target?.SqsParameters).toEqual({ MessageGroupId: 'new-group' });
    expect(read.Target?.Input).toBeUndefined();
    expect(read.Target?.RoleArn).not.toBe(OTHER_ROLE);
    expect(read.Target?.RoleArn).toMatch(/^arn:aws:iam::\d{12}:role\/scheduler-product-api$/);
  });

  it('answers the ECS task changed elsewhere, and drops the members sent with the old task', async () => {
    await client().send(
      new CreateScheduleCommand({
        GroupName: GROUP,
        Name: 'eb-ecs',
        ScheduleExpression: 'rate(1 hour)',
        FlexibleTimeWindow: { Mode: 'OFF' },
        Target: { Arn: CLUSTER, RoleArn: ROLE, EcsParameters: { TaskDefinitionArn: TASK(1), TaskCount: 1, LaunchType: 'EC2', Tags: [{ env: 'old' }] } },
      }),
    );
    const sent = await get('eb-ecs');
    expect(sent.Target?.EcsParameters).toEqual({ TaskDefinitionArn: TASK(1), TaskCount: 1, LaunchType: 'EC2', Tags: [{ env: 'old' }] });
    await editElsewhere('eb-ecs', {
      invocation_target_type: 'aws',
      invocation_target: { arn: CLUSTER, role_arn: ROLE, ecs_parameters: { task_definition_arn: TASK(2), task_count: 3, launch_type: 'FARGATE', network_configuration: { awsvpc_configuration: { subnets: ['subnet-1'] } } } },
    });
    expect((await get('eb-ecs')).Target).toMatchObject({
      Arn: CLUSTER,
      RoleArn: ROLE,
      EcsParameters: { TaskDefinitionArn: TASK(2), TaskCount: 3, LaunchType: 'FARGATE', NetworkConfiguration: { awsvpcConfiguration: { Subnets: ['subnet-1'] } } },
    });
    expect((await get('eb-ecs')).Target?.EcsParameters).not.toHaveProperty('Tags');
  });

  it('shows the SQS and ECS parameters of targets made in the product', async () => {
    await createElsewhere('web-fifo', { arn: QUEUE, role_arn: ROLE, input: '{"k":2}', sqs_parameters: { message_group_id: 'web-group' } });
    await createElsewhere('web-ecs', { arn: CLUSTER, role_arn: ROLE, ecs_parameters: { task_definition_arn: TASK(4), task_count: 2, launch_type: 'FARGATE', platform_version: 'LATEST', group: 'nightly', network_configuration: { awsvpc_configuration: { subnets: ['subnet-9'], security_groups: ['sg-1'], assign_public_ip: 'ENABLED' } } } });
    const fifo = await get('web-fifo');
    expect(fifo.ScheduleExpression).toBe('rate(1 hour)');
    expect(fifo.Target).toMatchObject({ Arn: QUEUE, RoleArn: ROLE, Input: '{"k":2}', SqsParameters: { MessageGroupId: 'web-group' } });
    expect((await get('web-ecs')).Target?.EcsParameters).toEqual({
      TaskDefinitionArn: TASK(4),
      TaskCount: 2,
      LaunchType: 'FARGATE',
      PlatformVersion: 'LATEST',
      Group: 'nightly',
      NetworkConfiguration: { awsvpcConfiguration: { Subnets: ['subnet-9'], SecurityGroups: ['sg-1'], AssignPublicIp: 'ENABLED' } },
    });
  });

  it('keeps answering the Target as sent while the product leaves the target alone', async () => {
    await client().send(
      new CreateScheduleCommand({ GroupName: GROUP, Name: 'eb-kept', ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: CLUSTER, RoleArn: ROLE, EcsParameters: { TaskDefinitionArn: TASK(1), Tags: [{ team: 'ops' }] } } }),
    );
    await editElsewhere('eb-kept', { description: 'renamed in the web app' });
    const read = await get('eb-kept');
    expect(read.Description).toBe('renamed in the web app');
    expect(read.Target?.EcsParameters).toEqual({ TaskDefinitionArn: TASK(1), Tags: [{ team: 'ops' }] });
  });
});
