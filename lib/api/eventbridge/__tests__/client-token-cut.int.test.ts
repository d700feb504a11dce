/**
 * `ClientToken` when the answer to a COMMIT is lost (EVENTBRIDGE.md §6, decision 431): the real AWS SDK
 * against the real EventBridge handler, on real PostgreSQL reached through a TCP proxy on loopback
 * (lib/testing/cutting-proxy.ts). The proxy forwards the operation's COMMIT, which PostgreSQL commits,
 * and cuts the connection before the answer comes back: the request fails with InternalServerException
 * naming a lost connection, although the change was saved. The SDKs retry with the same token, and the
 * retry must answer the first result: before the token was written in the operation's own transaction,
 * the retried create answered ConflictException ("already exists") and the retried delete
 * ResourceNotFoundException. PostgreSQL only.
 */
import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import { loadConfig, type Limits } from '../../../config';
import { createDb, type Db } from '../../../db';
import { startCuttingProxy, type CuttingProxy } from '../../../testing/cutting-proxy';
import { sdkRefusal } from '../../../testing/sdk-refusal';
import { serveFetch, type FetchServer } from '../../../testing/serve-fetch';
import { createTestDb, testDialect, type TestDb } from '../../../testing/test-db';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAINTEGRATIONCUT01', secretAccessKey: 'integration-boot-secret-token-cut-01' };
const REGION = 'eu-central-1';
const GROUP = 'ops-scheduler';
const QUEUE = 'arn:aws:sqs:eu-central-1:123456789012:orders';
const ROLE = 'arn:aws:iam::123456789012:role/scheduler';
/** The statement only an operation with a token runs, last in its transaction: its COMMIT follows. */
const TOKEN_WRITE = 'INSERT INTO "public"."client_tokens"';

describe.skipIf(testDialect() !== 'postgresql')('ClientToken retries after a COMMIT whose answer was lost', () => {
  let t: TestDb;
  let proxy: CuttingProxy;
  let db: Db;
  let server: FetchServer;
  const limits: Limits = { ...loadConfig().limits };
  // One attempt per send: the test makes the SDK's retry itself, with the same token, as the SDK does.
  const client = () => new SchedulerClient({ endpoint: server.url, region: REGION, credentials: BOOT, maxAttempts: 1 });
  const stored = (name: string) => t.db.schedule.count({ where: { name } });

  beforeAll(async () => {
    t = await createTestDb('postgresql');
    await seed(t.db, 'integration-api-key-token-cut-0123', 'integration-password-0123', BOOT);
    proxy = await startCuttingProxy(Number(new URL(t.url).port || 5432));
    const proxied = new URL(t.url);
    proxied.port = String(proxy.port);
    db = createDb(proxied.toString(), { poolSize: 4 });
    server = await serveFetch((req) => handleEventBridgeRequest(req, { runtime: { db, limits, homeRegion: REGION } }));
  });
  afterAll(async () => {
    await server?.close();
    await db?.$disconnect();
    await proxy?.stop();
    await t?.cleanup();
  });

  const accountId = () => t.db.org.findFirstOrThrow({ where: { accessKeys: { some: { accessKeyId: BOOT.accessKeyId } } } }).then((o) => o.accountId);
  const createInput = (name: string, token: string) => ({
    GroupName: GROUP, Name: name, ScheduleExpression: 'rate(5 minutes)', FlexibleTimeWindow: { Mode: 'OFF' as const },
    Target: { Arn: QUEUE, RoleArn: ROLE }, ClientToken: token,
  });
  /** Cut the operation's COMMIT after delivering it; with `outage`, the database stays out of reach until `proxy.start()`. */
  const cutCommit = (outage: boolean) => proxy.cutWhenClientSends('COMMIT', { after: TOKEN_WRITE, deliver: true }).then(() => (outage ? proxy.stop() : undefined));

  it('CreateSchedule whose COMMIT answer is lost reads its token back and answers the ScheduleArn itself', async () => {
    const cut = cutCommit(false);
    const out = await client().send(new CreateScheduleCommand(createInput('token-cut-readback', 'token-cut-readback-01')));
    await cut;
    expect(out.ScheduleArn).toBe(`arn:aws:scheduler:${REGION}:${await accountId()}:schedule/${GROUP}/token-cut-readback`);
    expect(await stored('token-cut-readback')).toBe(1);
  });

  it('CreateSchedule: saved, answer lost, database gone: it says the change may have been saved; the retry with the same token answers the ScheduleArn', async () => {
    const input = createInput('token-cut-create', 'token-cut-create-0001');
    const cut = cutCommit(true);
    const lost = await sdkRefusal(client().send(new CreateScheduleCommand(input)));
    await cut;
    await proxy.start();
    expect(lost.name).toBe('InternalServerException');
    // Not "did not run": it ran, and its COMMIT reached PostgreSQL.
    expect(lost.message).toMatch(/^the connection to the database was lost while the request ran/);
    expect(await stored('token-cut-create')).toBe(1);

    const again = await client().send(new CreateScheduleCommand(input));
    expect(again.ScheduleArn).toBe(`arn:aws:scheduler:${REGION}:${await accountId()}:schedule/${GROUP}/token-cut-create`);
    expect(await stored('token-cut-create')).toBe(1);
  });

  it('DeleteSchedule: deleted, answer lost, database gone; the retry with the same token answers success', async () => {
    const c = client();
    await c.send(new CreateScheduleCommand({ ...createInput('token-cut-delete', 'unused'), ClientToken: undefined }));
    const input = { GroupName: GROUP, Name: 'token-cut-delete', ClientToken: 'token-cut-delete-0001' };
    const cut = cutCommit(true);
    const lost = await sdkRefusal(c.send(new DeleteScheduleCommand(input)));
    await cut;
    await proxy.start();
    expect(lost.name).toBe('InternalServerException');
    expect(await stored('token-cut-delete')).toBe(0);

    const again = await client().send(new DeleteScheduleCommand(input));
    expect(again.$metadata.httpStatusCode).toBe(200);
  });
});
