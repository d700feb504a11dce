/**
 * SPEC §13.4 with §14's regions: the schedule form's payload preview names a schedule saved through
 * the EventBridge API in another region than the worker's (with an Input of its own, so no stored
 * identity) by that region, as the worker's substitution does. Real database (TEST_DATABASE dialect),
 * the real AWS SDK over real HTTP.
 */
import { CreateScheduleCommand, CreateScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import { loadConfig } from '../../../config';
import { contextPreviewFacts } from '../../../schedules';
import { workerEngine } from '../../../testing/fire-and-deliver';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAPREVIEWREGION001', secretAccessKey: 'preview-region-secret-0123456789' };
const REGION = 'eu-west-3';

let t: TestDb;
let server: FetchServer;

beforeAll(async () => {
  t = await createTestDb();
  await seed(t.db, 'preview-region-api-key-0123456789', 'preview-region-pass-0123', BOOT);
  server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db: t.db, limits: { ...loadConfig().limits }, homeRegion: 'us-east-1' } }));
});
afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

describe('the payload preview names the schedule by its region (SPEC §13.4, §14)', () => {
  it('a schedule saved in eu-west-3 with an Input: the preview\'s ARN is of eu-west-3, the one the worker substitutes', async () => {
    const client = new SchedulerClient({ endpoint: server.url, region: REGION, credentials: BOOT, maxAttempts: 1 });
    await client.send(new CreateScheduleGroupCommand({ Name: 'paris' }));
    const { ScheduleArn } = await client.send(
      new CreateScheduleCommand({
        Name: 'hourly', GroupName: 'paris', ScheduleExpression: 'rate(1 hour)', FlexibleTimeWindow: { Mode: 'OFF' },
        Target: { Arn: 'arn:aws:sqs:eu-west-3:123456789012:jobs', RoleArn: 'arn:aws:iam::123456789012:role/scheduler', Input: '{"arn":"<aws.scheduler.schedule-arn>"}' },
      }),
    );
    const group = await t.db.scheduleGroup.findFirstOrThrow({ where: { name: 'paris', region: REGION }, include: { blob: true } });
    const row = await t.db.schedule.findFirstOrThrow({ where: { revisionId: group.blob.defaultRevisionId!, name: 'hourly' } });
    const facts = await contextPreviewFacts(t.db, workerEngine, { revisionId: row.revisionId, scheduleId: row.id });
    expect(ScheduleArn).toMatch(/^arn:aws:scheduler:eu-west-3:\d{12}:schedule\/paris\/hourly$/);
    // The form appends the schedule's alias (its name here) to the prefix.
    expect(`${facts.arnPrefix}hourly`).toBe(ScheduleArn);
    // The worker's identity of the same schedule, as its fires substitute it.
    const worker = await workerEngine.identityOf(t.db, { scheduleId: row.id, revisionId: row.revisionId, name: row.name, facadeData: row.facadeData });
    expect(worker.scheduleArn).toBe(ScheduleArn);
  });
});
