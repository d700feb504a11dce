/**
 * SPEC §13.5 against moto's real server (its own, with IAM enforced: `startOwnMoto`): an org's
 * `aws` targets deliver with its assumed role, never with the worker's credentials.
 *
 * The AWS side: the worker's credentials are an IAM user that may only `sts:AssumeRole`; each org's
 * role trusts that user only with the org's ExternalId (`sts:ExternalId` condition) and may use SQS.
 * So a message that reaches a queue was sent with an assumed role (the worker's keys cannot send),
 * and a role whose trust policy names another ExternalId is refused. acme's queue lives in another
 * AWS account (111111111111) than globex's role (moto's default, 123456789012): globex's role does
 * not see it, as in AWS.
 */
import { randomUUID } from 'node:crypto';
import { CreateAccessKeyCommand, CreateRoleCommand, CreateUserCommand, IAMClient, PutRolePolicyCommand, PutUserPolicyCommand } from '@aws-sdk/client-iam';
import { CreateQueueCommand, DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOrgAws, rotateOrgExternalId, updateOrgAwsSettings, type Actor } from '../../auth';
import type { Db } from '../../db';
import { DomainError } from '../../errors';
import { createDeliveryPool, deliver } from '../../targets';
import { makeOrg, makeUser } from '../../testing/catalog-world';
import { fireDueAndDeliver, testDelivery } from '../../testing/fire-and-deliver';
import { testFire } from '../../testing/fire-context';
import { TEST_LIMITS } from '../../testing/limits';
import { startOwnMoto, type OwnMoto } from '../../testing/moto';
import { createTestDb } from '../../testing/test-db';
import { createSchedulerBlob } from '../../workflows';
import { createSchedule } from '..';

const REGION = 'us-east-1';
const WORKER_ACCOUNT = '123456789012';
const ACME_ACCOUNT = '111111111111';
const T = new Date('2031-05-01T09:00:00.000Z');
const suffix = randomUUID().slice(0, 8);
/** No org is granted the worker's credentials (SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS empty). */
const NO_WORKER_ORGS: string[] = [];

let moto: OwnMoto;
let db: Db;
let cleanup: () => Promise<void>;
const orgs: Record<'acme' | 'globex', { id: string; admin: Actor; revision: { id: string; blobId: string }; roleArn: string }> = {} as never;
let acmeQueue: { url: string; arn: string };
let globexQueue: { url: string; arn: string };
let workerKeys: { accessKeyId: string; secretAccessKey: string };

const client = <C>(C: new (c: object) => C, creds?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) =>
  new C({ region: REGION, endpoint: moto.url, credentials: creds ?? { accessKeyId: 'testing', secretAccessKey: 'testing' } });

async function createQueue(sqs: SQSClient, name: string) {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: QueueUrl!, arn: attrs.Attributes!.QueueArn! };
}

/** The bodies a queue holds, taken off it (read with IAM relaxed, as an inspector outside the product). */
async function bodies(queue: { url: string }, sqs: SQSClient): Promise<string[]> {
  await moto.relaxIam();
  try {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    for (const m of res.Messages ?? []) await sqs.send(new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: m.ReceiptHandle }));
    return (res.Messages ?? []).map((m) => m.Body!);
  } finally {
    await moto.enforceIam();
  }
}

beforeAll(async () => {
  moto = await startOwnMoto();
  ({ db, cleanup } = await createTestDb());
  for (const name of ['acme', 'globex'] as const) {
    const org = await makeOrg(db, `${name}-inc`, { awsCredentials: 'role' });
    const admin = await makeUser(db, `admin@${name}.example`, org.id, 'admin');
    const blob = await createSchedulerBlob(db, { actor: admin, org: org.id, alias: 'ops-scheduler' });
    orgs[name] = { id: org.id, admin, revision: { id: blob.default_revision_id!, blobId: blob.id }, roleArn: `arn:aws:iam::${WORKER_ACCOUNT}:role/${name}-scheduler-${suffix}` };
  }
  // The AWS side, set up before IAM is enforced.
  const iam = client(IAMClient);
  const user = await iam.send(new CreateUserCommand({ UserName: `scheduler-worker-${suffix}` }));
  await iam.send(new PutUserPolicyCommand({ UserName: user.User!.UserName, PolicyName: 'assume-only', PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: '*' }] }) }));
  const key = await iam.send(new CreateAccessKeyCommand({ UserName: user.User!.UserName }));
  workerKeys = { accessKeyId: key.AccessKey!.AccessKeyId!, secretAccessKey: key.AccessKey!.SecretAccessKey! };
  for (const name of ['acme', 'globex'] as const) {
    const { externalId } = await readOrgAws(db, orgs[name].id);
    const trust = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: user.User!.Arn }, Action: 'sts:AssumeRole', Condition: { StringEquals: { 'sts:ExternalId': externalId } } }] };
    await iam.send(new CreateRoleCommand({ RoleName: `${name}-scheduler-${suffix}`, AssumeRolePolicyDocument: JSON.stringify(trust) }));
    await iam.send(new PutRolePolicyCommand({ RoleName: `${name}-scheduler-${suffix}`, PolicyName: 'sqs', PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }] }) }));
  }
  globexQueue = await createQueue(client(SQSClient), `globex-inbox-${suffix}`);
  // acme's queue in acme's own AWS account (moto keeps accounts apart by the caller's credentials).
  const boot = (await client(STSClient).send(new AssumeRoleCommand({ RoleArn: `arn:aws:iam::${ACME_ACCOUNT}:role/bootstrap`, RoleSessionName: 'setup' }))).Credentials!;
  acmeQueue = await createQueue(client(SQSClient, { accessKeyId: boot.AccessKeyId!, secretAccessKey: boot.SecretAccessKey!, sessionToken: boot.SessionToken }), `acme-target-${suffix}`);
  expect(acmeQueue.arn).toBe(`arn:aws:sqs:${REGION}:${ACME_ACCOUNT}:acme-target-${suffix}`);
  await moto.enforceIam();
  moto.useWorkerKeys(workerKeys);
}, 60_000);

afterAll(async () => {
  await cleanup?.();
  await moto?.stop();
});

let n = 0;
/** A one-time schedule of `org` at T to `target` (an aws target). */
function schedule(org: 'acme' | 'globex', target: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const o = orgs[org];
  return createSchedule({
    db, actor: o.admin, revision: o.revision, limits: TEST_LIMITS, now: new Date(T.getTime() - 60_000),
    input: { alias: `sched-${++n}`, repeat: 'one_time', invocation_time: T.toISOString().slice(0, 19), timezone: 'UTC', invocation_target_type: 'aws', invocation_target: target, ...extra },
  });
}

/** Fire everything due at T and deliver it as a worker granting no org its credentials; the runs by schedule id. */
async function fireAll() {
  await fireDueAndDeliver({ db, now: T, limits: TEST_LIMITS, delivery: testDelivery(undefined, NO_WORKER_ORGS) });
  const runs = await db.run.findMany({ select: { scheduleId: true, status: true, result: true } });
  return new Map(runs.map((r) => [r.scheduleId, r]));
}

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
}

describe('SPEC §13.5 AWS credentials per org, against moto', () => {
  it("the worker's own credentials cannot send to SQS here (the control: a delivered message proves an assumed role)", async () => {
    const out = await deliver({ type: 'aws', pool: createDeliveryPool(2), target: { arn: globexQueue.arn, input: 'with the worker keys' }, fire: testFire(REGION, T) });
    expect(out.status).toBe('invocation_error');
    // moto's IAM layer answers XML to SQS's JSON protocol, so the SDK reports it as unreadable; what counts is that nothing arrived.
    expect(await bodies(globexQueue, client(SQSClient))).toEqual([]);
  });

  it("with allowed_accounts, globex's target naming acme's queue is refused at save (so are a role, a dead letter and an ECS task definition of another account)", async () => {
    const g = orgs.globex;
    await updateOrgAwsSettings(db, { actor: g.admin, org: 'globex-inc', workerOrgs: NO_WORKER_ORGS, input: { allowed_accounts: [WORKER_ACCOUNT] } });
    try {
      const target = await refusal(schedule('globex', { arn: acmeQueue.arn, role_arn: g.roleArn, input: 'x' }));
      expect([target.code, target.path]).toEqual(['invalid_invocation_target', 'invocation_target.arn']);
      expect(target.message).toContain(ACME_ACCOUNT);
      const role = await refusal(schedule('globex', { arn: globexQueue.arn, role_arn: `arn:aws:iam::${ACME_ACCOUNT}:role/anything`, input: 'x' }));
      expect([role.code, role.path]).toEqual(['invalid_invocation_target', 'invocation_target.role_arn']);
      const dlq = await refusal(schedule('globex', { arn: globexQueue.arn, role_arn: g.roleArn, input: 'x' }, { retry_policy: { maximum_retry_attempts: 0 }, dead_letter: { arn: acmeQueue.arn } }));
      expect([dlq.code, dlq.path]).toEqual(['invalid_invocation_target', 'dead_letter.arn']);
      // An ECS target's task definition is an ARN the target names too.
      const ecs = { arn: `arn:aws:ecs:${REGION}:${WORKER_ACCOUNT}:cluster/c`, role_arn: g.roleArn, ecs_parameters: { task_definition_arn: `arn:aws:ecs:${REGION}:${ACME_ACCOUNT}:task-definition/t:1` } };
      const task = await refusal(schedule('globex', ecs));
      expect([task.code, task.path]).toEqual(['invalid_invocation_target', 'invocation_target.ecs_parameters.task_definition_arn']);
      expect(task.message).toContain(ACME_ACCOUNT);
      expect(await db.schedule.count({ where: { revisionId: g.revision.id } })).toBe(0);
    } finally {
      await updateOrgAwsSettings(db, { actor: g.admin, org: 'globex-inc', workerOrgs: NO_WORKER_ORGS, input: { allowed_accounts: null } });
    }
  });

  it('in role mode a target without role_arn is refused at save', async () => {
    const e = await refusal(schedule('globex', { arn: globexQueue.arn, input: 'x' }));
    expect([e.code, e.path]).toEqual(['invalid_invocation_target', 'invocation_target.role_arn']);
  });

  it("without allowed_accounts, globex's target naming acme's queue delivers only with globex's assumed role: acme's queue gets nothing; globex's own queue gets its message", async () => {
    const g = orgs.globex;
    const foreign = await schedule('globex', { arn: acmeQueue.arn, role_arn: g.roleArn, input: 'into acme' });
    const own = await schedule('globex', { arn: globexQueue.arn, role_arn: g.roleArn, input: 'into globex' });
    const runs = await fireAll();
    expect(runs.get(own.id)).toMatchObject({ status: 'success', result: { service: 'sqs', message_id: expect.any(String) } });
    // AWS's answer to globex's own role (its account sees no such queue): nothing about acme's account.
    expect(runs.get(foreign.id)).toMatchObject({ status: 'invocation_error', result: { error: 'QueueDoesNotExist', message: 'The specified queue does not exist.' } });
    expect(await bodies(globexQueue, client(SQSClient))).toEqual(['into globex']);
    await moto.relaxIam();
    const acmeSide = (await client(STSClient).send(new AssumeRoleCommand({ RoleArn: `arn:aws:iam::${ACME_ACCOUNT}:role/bootstrap`, RoleSessionName: 'inspect' }))).Credentials!;
    const acmeSqs = client(SQSClient, { accessKeyId: acmeSide.AccessKeyId!, secretAccessKey: acmeSide.SecretAccessKey!, sessionToken: acmeSide.SessionToken });
    const inAcme = await acmeSqs.send(new ReceiveMessageCommand({ QueueUrl: acmeQueue.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    await moto.enforceIam();
    expect(inAcme.Messages ?? []).toEqual([]);
  });

  it('a refused AssumeRole (the role trusts another ExternalId) is a failed attempt assume_role_failed with AWS\'s message; nothing is sent', async () => {
    const g = orgs.globex;
    const rotated = await rotateOrgExternalId(db, { actor: g.admin, org: 'globex-inc', workerOrgs: NO_WORKER_ORGS });
    expect(rotated.external_id).not.toBe((await readOrgAws(db, orgs.acme.id)).externalId);
    const s = await schedule('globex', { arn: globexQueue.arn, role_arn: g.roleArn, input: 'after rotation' });
    const runs = await fireAll();
    const run = runs.get(s.id)!;
    expect(run.status).toBe('invocation_error');
    expect(run.result).toMatchObject({ error: 'assume_role_failed' });
    expect((run.result as { message: string }).message).toMatch(/AccessDenied: .*not authorized to perform: sts:AssumeRole/);
    expect(await bodies(globexQueue, client(SQSClient))).toEqual([]);
  });

  it('allowed_accounts set after the save: the fire is access_denied and nothing is sent', async () => {
    const a = orgs.acme;
    const s = await schedule('acme', { arn: acmeQueue.arn, role_arn: a.roleArn, input: 'later refused' });
    await updateOrgAwsSettings(db, { actor: a.admin, org: 'acme-inc', workerOrgs: NO_WORKER_ORGS, input: { allowed_accounts: [WORKER_ACCOUNT] } });
    const runs = await fireAll();
    expect(runs.get(s.id)).toMatchObject({ status: 'invocation_error', result: { error: 'access_denied' } });
  });

  it('worker credentials: refused for an org the operator does not list (400 invalid_request_body), taken for one it lists', async () => {
    const g = orgs.globex;
    const e = await refusal(updateOrgAwsSettings(db, { actor: g.admin, org: 'globex-inc', workerOrgs: ['acme-inc'], input: { credentials: 'worker' } }));
    expect([e.code, e.path]).toEqual(['invalid_request_body', 'credentials']);
    const ok = await updateOrgAwsSettings(db, { actor: g.admin, org: 'globex-inc', workerOrgs: ['globex-inc'], input: { credentials: 'worker' } });
    expect(ok).toMatchObject({ credentials: 'worker', worker_credentials_allowed: true });
    // Listed no longer (the worker's list is empty): its fires are refused, not sent with the worker's keys.
    const s = await schedule('globex', { arn: globexQueue.arn, input: 'worker mode' });
    const runs = await fireAll();
    expect(runs.get(s.id)).toMatchObject({ status: 'invocation_error', result: { error: 'access_denied' } });
    await updateOrgAwsSettings(db, { actor: g.admin, org: 'globex-inc', workerOrgs: [], input: { credentials: 'role' } });
  });
});
