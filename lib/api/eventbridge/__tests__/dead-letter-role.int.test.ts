/**
 * SPEC §13.5 / §14, docs/decisions.md 212: the dead letter's role is `Target.RoleArn`. A webhook
 * schedule holds no role of its own, so GetSchedule answers its dead letter's role there, and a
 * GetSchedule → UpdateSchedule round trip through the real AWS SDK keeps that role. The placeholder
 * answered for a schedule without any role is never stored as a real one. Real HTTP, real database
 * (SQLite, or PostgreSQL with TEST_DATABASE=postgresql).
 */
import { GetScheduleCommand, SchedulerClient, UpdateScheduleCommand, type UpdateScheduleCommandInput } from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import type { Actor } from '../../../auth';
import { loadConfig, type Limits } from '../../../config';
import { createSchedule, getSchedule } from '../../../schedules';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { sdkRefusal } from '../../../testing/sdk-refusal';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAINTEGRATIONBOOT7', secretAccessKey: 'integration-boot-secret-dlq-role-01' };
const REGION = 'eu-central-1';
const GROUP = 'ops-scheduler';
const DLQ = 'arn:aws:sqs:us-east-1:123456789012:globex-dlq';
const DLQ_ROLE = 'arn:aws:iam::123456789012:role/globex-dlq';

let t: TestDb;
let server: FetchServer;
let operator: Actor;
let orgId: string;
let revision: { id: string; blobId: string };
const limits: Limits = { ...loadConfig().limits };

const client = () =>
  new SchedulerClient({ endpoint: server.url, region: REGION, credentials: { accessKeyId: BOOT.accessKeyId, secretAccessKey: BOOT.secretAccessKey }, maxAttempts: 1 });
const get = (name: string) => client().send(new GetScheduleCommand({ GroupName: GROUP, Name: name }));
/** Send back what GetSchedule answered, unchanged (UpdateSchedule replaces every field). */
const sendBack = async (name: string) => {
  const read = await get(name);
  const input: UpdateScheduleCommandInput = {
    GroupName: GROUP,
    Name: name,
    ScheduleExpression: read.ScheduleExpression,
    FlexibleTimeWindow: read.FlexibleTimeWindow,
    Target: read.Target,
    State: read.State,
    ActionAfterCompletion: read.ActionAfterCompletion,
  };
  return client().send(new UpdateScheduleCommand(input));
};
const stored = (alias: string) => getSchedule({ db: t.db, actor: operator, revision, scheduleRef: alias });
const createWebhook = (alias: string, deadLetter: Record<string, unknown> | null) =>
  createSchedule({
    db: t.db,
    actor: operator,
    revision,
    input: { alias, repeat: 'recurring_rate', rate_expression: '1 hour', timezone: 'UTC', invocation_target_type: 'http', invocation_target: { url: 'https://93.184.216.34/hook' }, dead_letter: deadLetter },
    limits,
    now: new Date(),
  });

beforeAll(async () => {
  t = await createTestDb();
  const seeded = await seed(t.db, 'integration-api-key-dlq-role-0123', 'integration-password-0123', BOOT);
  operator = { type: 'user', id: seeded.userId, roleCap: null };
  orgId = seeded.orgId;
  // The default of every org (SPEC §13.5): deliveries and dead letters assume the org's roles.
  await t.db.org.update({ where: { id: orgId }, data: { awsCredentials: 'role' } });
  server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db: t.db, limits, homeRegion: REGION } }));
  const blob = await t.db.blob.findFirstOrThrow({ where: { orgId, alias: GROUP } });
  revision = { id: seeded.schedulerRevisionId, blobId: blob.id };
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

describe('SPEC §14 a webhook schedule’s dead-letter role through GetSchedule and UpdateSchedule', () => {
  it('GetSchedule answers the dead letter’s role as Target.RoleArn, and sending it back keeps it', async () => {
    await createWebhook('hook-with-dlq', { arn: DLQ, role_arn: DLQ_ROLE });
    const read = await get('hook-with-dlq');
    expect(read.Target?.RoleArn).toBe(DLQ_ROLE);
    expect(read.Target?.DeadLetterConfig).toEqual({ Arn: DLQ });
    await sendBack('hook-with-dlq');
    expect((await stored('hook-with-dlq')).dead_letter).toEqual({ arn: DLQ, role_arn: DLQ_ROLE });
    expect((await get('hook-with-dlq')).Target?.RoleArn).toBe(DLQ_ROLE);
  });

  it('a webhook without a dead letter answers the placeholder, and sending it back stores no role', async () => {
    await createWebhook('hook-plain', null);
    const read = await get('hook-plain');
    const placeholder = read.Target?.RoleArn;
    expect(placeholder).toMatch(/^arn:aws:iam::\d{12}:role\/scheduler-product-api$/);
    await sendBack('hook-plain');
    const s = await stored('hook-plain');
    expect(s.dead_letter ?? null).toBeNull();
    expect(JSON.stringify(s)).not.toContain('scheduler-product-api');
  });

  it('the placeholder sent with a dead letter is never stored as its role: refused in role mode (decision 212)', async () => {
    await createWebhook('hook-late-dlq', null);
    const read = await get('hook-late-dlq');
    const refusal = await sdkRefusal(
      client().send(
        new UpdateScheduleCommand({
          GroupName: GROUP,
          Name: 'hook-late-dlq',
          ScheduleExpression: read.ScheduleExpression,
          FlexibleTimeWindow: read.FlexibleTimeWindow,
          Target: { ...read.Target!, DeadLetterConfig: { Arn: DLQ } },
        }),
      ),
    );
    expect(refusal.name).toBe('ValidationException');
    expect((await stored('hook-late-dlq')).dead_letter ?? null).toBeNull();
  });
});
