/**
 * The EventBridge Scheduler-compatible API of the running product (issue "EventBridge
 * Scheduler-compatible API", SPEC §14), driven as its users drive it: the real AWS SDK for
 * JavaScript v3, the AWS CLI (v1, python3) and boto3 — the README's own example files — and the
 * browser for access keys and the form. Universal targets are delivered by the worker to moto's
 * server (AWS_ENDPOINT_URL, exported before the servers start, as npm test does). Groups this file makes are deleted at the end; the org's
 * `default` group (created on first use, never deleted) keeps the schedules the worker fires.
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
  paginateListSchedules,
  SchedulerClient,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { CreateTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkRefusal } from '../lib/testing/sdk-refusal';
import { ACCESS_FIXTURES, E2E_ACCESS_KEY_ID, E2E_PORT, E2E_SECRET_ACCESS_KEY, headers, LIMITS_BASE_URL, uniqueSuffix } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BASE = `http://127.0.0.1:${E2E_PORT}`;
const REGION = 'us-east-1';
const S = uniqueSuffix();
const BOOT = { id: E2E_ACCESS_KEY_ID, secret: E2E_SECRET_ACCESS_KEY };

test.describe.configure({ mode: 'serial' });

/** Every access key secret this file saw: none may be in the database file in clear. */
const secrets: string[] = [E2E_SECRET_ACCESS_KEY];
/** Groups made here, deleted at the end (with their schedules). */
const groups = new Set<string>();
let account = '';

function sdk(key = BOOT, opts: { endpoint?: string; clockOffsetMs?: number; region?: string } = {}): SchedulerClient {
  const c = new SchedulerClient({ endpoint: opts.endpoint ?? BASE, region: opts.region ?? REGION, credentials: { accessKeyId: key.id, secretAccessKey: key.secret }, maxAttempts: 1 });
  if (opts.clockOffsetMs) c.config.systemClockOffset = opts.clockOffsetMs;
  return c;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a program with an access key pair in the environment (no AWS config files, no retries). */
function run(file: string, args: string[], key = BOOT, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: ROOT,
        timeout: 120_000,
        env: {
          ...process.env,
          AWS_ACCESS_KEY_ID: key.id,
          AWS_SECRET_ACCESS_KEY: key.secret,
          AWS_DEFAULT_REGION: REGION,
          AWS_CONFIG_FILE: '/nonexistent',
          AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
          AWS_EC2_METADATA_DISABLED: 'true',
          AWS_MAX_ATTEMPTS: '1',
          PORT: String(E2E_PORT),
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** `aws scheduler …` against the running product (in `region`, default REGION); parses JSON output. */
async function aws(args: string[], key = BOOT, region = REGION): Promise<{ code: number; json: Record<string, unknown> | null; stderr: string }> {
  const r = await run('aws', ['scheduler', ...args, '--endpoint-url', BASE, '--output', 'json', '--region', region], key);
  return { code: r.code, json: r.code === 0 && r.stdout.trim() ? JSON.parse(r.stdout) : null, stderr: r.stderr };
}

const workflowArn = (definition = 'triage') => `arn:aws:scheduler:${REGION}:${account}:workflow/acme-corp/procedures/default/nightly-batch/${definition}`;
const role = () => `arn:aws:iam::${account}:role/scheduler`;

function input(name: string, extra: Partial<CreateScheduleCommandInput> = {}): CreateScheduleCommandInput {
  return { Name: name, ScheduleExpression: 'cron(0 8 * * ? *)', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: workflowArn(), RoleArn: role() }, ...extra };
}

/** Issue a pair through the product API with an API key (SPEC §14 "Credentials"). */
async function issuePair(request: APIRequestContext, apiKey: Record<string, string>, body: Record<string, unknown>): Promise<{ rowId: string; key: { id: string; secret: string } }> {
  const res = await request.post('/api/v1/access-keys', { headers: apiKey, data: body });
  expect(res.status(), await res.text()).toBe(200);
  const out = await res.json();
  secrets.push(out.secret_access_key);
  return { rowId: out.access_key.id, key: { id: out.access_key.access_key_id, secret: out.secret_access_key } };
}

async function newGroup(name: string): Promise<string> {
  await sdk().send(new CreateScheduleGroupCommand({ Name: name }));
  groups.add(name);
  return name;
}

test.beforeAll(async () => {
  const g = await sdk().send(new GetScheduleGroupCommand({ Name: 'default' }));
  account = g.Arn!.split(':')[4];
});

test.afterAll(async () => {
  for (const g of groups) await sdk().send(new DeleteScheduleGroupCommand({ Name: g })).catch(() => undefined);
});

test('SDK: every operation against the running product, with AWS defaults and full-replacement update', async () => {
  const c = sdk();
  const group = `e2e-ops.${S}`;
  const created = await c.send(new CreateScheduleGroupCommand({ Name: group, Tags: [{ Key: 'team', Value: 'ops' }] }));
  groups.add(group);
  expect(created.ScheduleGroupArn).toBe(`arn:aws:scheduler:${REGION}:${account}:schedule-group/${group}`);
  const got = await c.send(new GetScheduleGroupCommand({ Name: group }));
  expect(got).toMatchObject({ Name: group, State: 'ACTIVE', Arn: created.ScheduleGroupArn });
  expect((await c.send(new ListScheduleGroupsCommand({ NamePrefix: 'e2e-ops.' }))).ScheduleGroups!.map((g) => g.Name)).toContain(group);
  await c.send(new TagResourceCommand({ ResourceArn: created.ScheduleGroupArn, Tags: [{ Key: 'env', Value: 'prod' }] }));
  await c.send(new UntagResourceCommand({ ResourceArn: created.ScheduleGroupArn, TagKeys: ['team'] }));
  expect((await c.send(new ListTagsForResourceCommand({ ResourceArn: created.ScheduleGroupArn }))).Tags).toEqual([{ Key: 'env', Value: 'prod' }]);

  const arn = (await c.send(new CreateScheduleCommand(input('every-field', { GroupName: group, Description: 'All of it', State: 'DISABLED', ScheduleExpressionTimezone: 'Asia/Kolkata', EndDate: new Date(Date.now() + 30 * 86_400_000), Target: { Arn: workflowArn(), RoleArn: role(), Input: '{"hours":24}' } })))).ScheduleArn;
  expect(arn).toBe(`arn:aws:scheduler:${REGION}:${account}:schedule/${group}/every-field`);
  const before = await c.send(new GetScheduleCommand({ Name: 'every-field', GroupName: group }));
  expect(before).toMatchObject({ Description: 'All of it', State: 'DISABLED', ScheduleExpressionTimezone: 'Asia/Kolkata', ActionAfterCompletion: 'NONE', Target: { Input: '{"hours":24}', RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 } } });
  await c.send(new UpdateScheduleCommand(input('every-field', { GroupName: group, ScheduleExpression: 'cron(15 9 ? * MON *)' })));
  const after = await c.send(new GetScheduleCommand({ Name: 'every-field', GroupName: group }));
  expect(after).toMatchObject({ State: 'ENABLED', ScheduleExpressionTimezone: 'UTC', ScheduleExpression: 'cron(15 9 ? * MON *)', Target: { Arn: workflowArn(), RoleArn: role() } });
  expect(after.Description).toBeUndefined();
  expect(after.EndDate).toBeUndefined();
  expect(after.Target?.Input).toBeUndefined();
  expect(after.CreationDate).toEqual(before.CreationDate);
  const listed = await c.send(new ListSchedulesCommand({ GroupName: group }));
  expect(listed.Schedules!.map((s) => [s.Name, s.State, s.Target?.Arn])).toEqual([['every-field', 'ENABLED', workflowArn()]]);
  expect((await c.send(new DeleteScheduleCommand({ Name: 'every-field', GroupName: group }))).$metadata.httpStatusCode).toBe(200);
  expect((await c.send(new DeleteScheduleGroupCommand({ Name: group }))).$metadata.httpStatusCode).toBe(200);
  groups.delete(group);
  expect((await sdkRefusal(c.send(new GetScheduleGroupCommand({ Name: group })))).name).toBe('ResourceNotFoundException');
});

test('SDK: ListSchedules pages through 250 schedules completely and without duplicates', async () => {
  test.setTimeout(300_000);
  const c = sdk();
  const group = await newGroup(`e2e-bulk-${S}`);
  const names = Array.from({ length: 250 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
  for (let i = 0; i < names.length; i += 10) {
    await Promise.all(names.slice(i, i + 10).map((n) => c.send(new CreateScheduleCommand(input(n, { GroupName: group })))));
  }
  const seen: string[] = [];
  let pages = 0;
  for await (const page of paginateListSchedules({ client: c, pageSize: 40 }, { GroupName: group })) {
    pages++;
    seen.push(...page.Schedules!.map((s) => s.Name!));
  }
  expect(pages).toBe(7);
  expect(seen.length).toBe(250);
  expect(new Set(seen).size).toBe(250);
  expect([...seen].sort()).toEqual(names);
});

test('SDK: a ClientToken retry answers the first result and creates nothing; other parameters conflict', async ({ request }) => {
  const c = sdk();
  const group = await newGroup(`e2e-token-${S}`);
  const first = await c.send(new CreateScheduleCommand(input('retried', { GroupName: group, ClientToken: `token-${S}` })));
  const retry = await c.send(new CreateScheduleCommand(input('retried', { GroupName: group, ClientToken: `token-${S}` })));
  expect(retry.ScheduleArn).toBe(first.ScheduleArn);
  expect((await c.send(new ListSchedulesCommand({ GroupName: group }))).Schedules!.length).toBe(1);
  expect((await sdkRefusal(c.send(new CreateScheduleCommand(input('retried', { GroupName: group, ClientToken: `token-${S}`, State: 'DISABLED' }))))).status).toBe(409);
  // One row for both APIs: the group is a scheduler blob (aliased by its name), the schedule is
  // aliased by its name too, and the product API names it so.
  const blob = await request.get(`/api/v1/orgs/acme-corp/blobs/${group}`, { headers });
  expect(blob.status()).toBe(200);
  const got = await request.post(`/api/v1/revisions/${(await blob.json()).default_revision_id}/data`, { headers, data: { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: 'retried' } });
  expect((await got.json()).schedule).toMatchObject({ alias: 'retried', name: 'retried', repeat: 'recurring_cron', cron_expression: '0 8 * * ? *' });
});

test('SDK: every error code with its HTTP status', async ({ request }) => {
  const c = sdk();
  const group = await newGroup(`e2e-errors-${S}`);
  await c.send(new CreateScheduleCommand(input('exists', { GroupName: group })));
  expect(await sdkRefusal(c.send(new CreateScheduleCommand(input('bad', { GroupName: group, ScheduleExpression: 'cron(71 8 1 * ? *)' }))))).toEqual({ name: 'ValidationException', status: 400, message: 'Invalid Schedule Expression cron(71 8 1 * ? *).' });
  expect(await sdkRefusal(c.send(new GetScheduleCommand({ Name: 'nope', GroupName: group })))).toEqual({ name: 'ResourceNotFoundException', status: 404, message: 'Schedule nope does not exist.' });
  expect(await sdkRefusal(c.send(new CreateScheduleCommand(input('exists', { GroupName: group }))))).toEqual({ name: 'ConflictException', status: 409, message: 'Schedule exists already exists.' });

  // The limits server holds 3 schedules per scheduler. Its database is its own: so is acme-corp's account
  // id there, which a workflow target must name (another account's is refused).
  const tight = sdk(BOOT, { endpoint: LIMITS_BASE_URL });
  const tightAccount = (await tight.send(new GetScheduleGroupCommand({ Name: 'default' }))).Arn!.split(':')[4];
  const tightInput = (n: string) => input(n, { GroupName: tightGroup, Target: { Arn: workflowArn().replace(`:${account}:`, `:${tightAccount}:`), RoleArn: role() } });
  const tightGroup = `e2e-quota-${S}`;
  await tight.send(new CreateScheduleGroupCommand({ Name: tightGroup }));
  for (const n of ['q1', 'q2', 'q3']) await tight.send(new CreateScheduleCommand(tightInput(n)));
  const quota = await sdkRefusal(tight.send(new CreateScheduleCommand(tightInput('q4'))));
  expect([quota.name, quota.status]).toEqual(['ServiceQuotaExceededException', 402]);
  await tight.send(new DeleteScheduleGroupCommand({ Name: tightGroup }));

  // A read pair (issued through the product API by the org's API key) reads, and is refused writes.
  const reader = await issuePair(request, headers, { name: `e2e-reader-${S}`, role: 'read' });
  expect((await sdk(reader.key).send(new GetScheduleCommand({ Name: 'exists', GroupName: group }))).Name).toBe('exists');
  const denied = await sdkRefusal(sdk(reader.key).send(new DeleteScheduleCommand({ Name: 'exists', GroupName: group })));
  expect([denied.name, denied.status]).toEqual(['AccessDeniedException', 403]);
});

test('SigV4: a wrong secret, an unknown key, a revoked key and a 20-minute-old signature are refused as AWS refuses them', async ({ request }) => {
  const list = new ListScheduleGroupsCommand({});
  expect(await sdkRefusal(sdk({ id: BOOT.id, secret: 'not-the-secret' }).send(list))).toEqual({
    name: 'InvalidSignatureException',
    status: 403,
    message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  });
  expect(await sdkRefusal(sdk({ id: 'AKIAUNKNOWN000000000', secret: 'x' }).send(list))).toEqual({ name: 'UnrecognizedClientException', status: 403, message: 'The security token included in the request is invalid.' });
  const pair = await issuePair(request, headers, { name: `e2e-revoked-${S}`, role: 'write' });
  expect((await sdk(pair.key).send(list)).ScheduleGroups!.length).toBeGreaterThan(0);
  const revoked = await request.delete(`/api/v1/access-keys/${pair.rowId}`, { headers });
  expect(revoked.status()).toBe(200);
  expect((await sdkRefusal(sdk(pair.key).send(list))).name).toBe('UnrecognizedClientException');
  // Listed through the product API with its revocation, never with its secret.
  const listed = await request.get('/api/v1/access-keys', { headers });
  const keys = (await listed.json()).access_keys as { id: string; access_key_id: string; account_id: string; acts_as: { type: string }; revoked_at?: string }[];
  const mine = keys.find((k) => k.id === pair.rowId);
  expect(mine).toMatchObject({ access_key_id: pair.key.id, account_id: account, acts_as: { type: 'org' } });
  expect(mine?.revoked_at).toMatch(/Z$/);
  expect(JSON.stringify(keys)).not.toContain(pair.key.secret);
  const old = await sdkRefusal(sdk(BOOT, { clockOffsetMs: -20 * 60_000 }).send(list));
  expect([old.name, old.status]).toEqual(['InvalidSignatureException', 403]);
  expect(old.message).toMatch(/^Signature expired: /);
  // The AWS CLI gets the same answers.
  const cliWrong = await aws(['list-schedule-groups'], { id: BOOT.id, secret: 'not-the-secret' });
  expect(cliWrong.code).not.toBe(0);
  expect(cliWrong.stderr).toContain('(InvalidSignatureException)');
  expect((await aws(['list-schedule-groups'], pair.key)).stderr).toContain('(UnrecognizedClientException) when calling the ListScheduleGroups operation: The security token included in the request is invalid.');
});

test("another org's access key sees none of acme-corp's groups", async ({ request }) => {
  const fx = JSON.parse(readFileSync(path.join(ROOT, ACCESS_FIXTURES), 'utf8')) as { keys: { org: string; owner: string; userRole?: string; role: string; key: string }[] };
  const globexAdmin = fx.keys.find((k) => k.org === 'globex' && k.owner === 'user' && k.userRole === 'admin' && k.role === 'write')!;
  const pair = await issuePair(request, { authorization: `Bearer ${globexAdmin.key}` }, { name: `e2e-globex-${S}`, role: 'write', org: 'globex-corp' });
  const other = sdk(pair.key);
  const names = (await other.send(new ListScheduleGroupsCommand({}))).ScheduleGroups!.map((g) => g.Name);
  expect(names).toContain('matrix-scheduler');
  expect(names).not.toContain('ops-scheduler');
  const acmeGroups = (await sdk().send(new ListScheduleGroupsCommand({}))).ScheduleGroups!;
  expect(acmeGroups.some((g) => names.includes(g.Name!) && g.Name !== 'default' && g.Name !== 'matrix-scheduler')).toBe(false);
  const otherArn = (await other.send(new GetScheduleGroupCommand({ Name: 'matrix-scheduler' }))).Arn!;
  expect(otherArn.split(':')[4]).not.toBe(account);
  expect((await sdkRefusal(other.send(new GetScheduleGroupCommand({ Name: 'ops-scheduler' })))).name).toBe('ResourceNotFoundException');
  expect((await sdkRefusal(other.send(new ListSchedulesCommand({ GroupName: 'ops-scheduler' })))).name).toBe('ResourceNotFoundException');
  const acmeSchedules = (await other.send(new ListSchedulesCommand({}))).Schedules!.map((s) => s.Arn!);
  expect(acmeSchedules.every((a) => a.split(':')[4] !== account)).toBe(true);
});

test('boto3: daily in us-east-1 and eu-west-1 are two groups; each region lists only its own; deleting one leaves the other; us-gov-west-1 ARNs say aws-us-gov', async () => {
  const group = `daily-${S}`;
  const script = String.raw`
import json, os, sys
import boto3
from botocore.exceptions import ClientError

base, group = os.environ["BASE"], os.environ["GROUP"]
east, west, gov = (boto3.client("scheduler", endpoint_url=base, region_name=r) for r in ("us-east-1", "eu-west-1", "us-gov-west-1"))
out = {"created": [c.create_schedule_group(Name=group)["ScheduleGroupArn"] for c in (east, west)]}
target = {"Arn": os.environ["WORKFLOW"].replace("us-east-1", "eu-west-1"), "RoleArn": os.environ["ROLE"]}
out["schedule"] = west.create_schedule(Name="report", GroupName=group, ScheduleExpression="rate(1 day)", FlexibleTimeWindow={"Mode": "OFF"}, Target=target)["ScheduleArn"]
names = lambda c: [g["Name"] for g in c.list_schedule_groups(NamePrefix=group)["ScheduleGroups"]]
out["east_groups"], out["west_groups"] = names(east), names(west)
out["east_schedules"] = [s["Name"] for s in east.list_schedules(GroupName=group)["Schedules"]]
out["west_schedules"] = [s["Arn"] for s in west.list_schedules(GroupName=group)["Schedules"]]
west.delete_schedule_group(Name=group)
try:
    west.get_schedule_group(Name=group)
    out["west_after_delete"] = "found"
except ClientError as e:
    out["west_after_delete"] = e.response["Error"]["Code"]
out["east_after_delete"] = east.get_schedule_group(Name=group)["Arn"]
east.delete_schedule_group(Name=group)
out["gov"] = gov.create_schedule_group(Name=group)["ScheduleGroupArn"]
gov.delete_schedule_group(Name=group)
json.dump(out, sys.stdout)
`;
  const py = await run('python3', ['-c', script], BOOT, { BASE, GROUP: group, WORKFLOW: workflowArn(), ROLE: role() });
  expect(py.code, py.stderr).toBe(0);
  expect(JSON.parse(py.stdout)).toEqual({
    created: [`arn:aws:scheduler:us-east-1:${account}:schedule-group/${group}`, `arn:aws:scheduler:eu-west-1:${account}:schedule-group/${group}`],
    schedule: `arn:aws:scheduler:eu-west-1:${account}:schedule/${group}/report`,
    east_groups: [group],
    west_groups: [group],
    east_schedules: [],
    west_schedules: [`arn:aws:scheduler:eu-west-1:${account}:schedule/${group}/report`],
    west_after_delete: 'ResourceNotFoundException',
    east_after_delete: `arn:aws:scheduler:us-east-1:${account}:schedule-group/${group}`,
    gov: `arn:aws-us-gov:scheduler:us-gov-west-1:${account}:schedule-group/${group}`,
  });
});

test('AWS CLI: a region sees only its own groups; a region not in AWS\'s form and a workflow target of another account are refused in AWS\'s words', async () => {
  const group = `e2e-west-${S}`;
  const made = await aws(['create-schedule-group', '--name', group], BOOT, 'eu-west-1');
  expect(made.code, made.stderr).toBe(0);
  try {
    expect(made.json).toEqual({ ScheduleGroupArn: `arn:aws:scheduler:eu-west-1:${account}:schedule-group/${group}` });
    const west = await aws(['list-schedule-groups'], BOOT, 'eu-west-1');
    expect((west.json!.ScheduleGroups as { Name: string }[]).map((g) => g.Name)).toEqual(['default', group]);
    const east = await aws(['get-schedule-group', '--name', group]);
    expect(east.code).not.toBe(0);
    expect(east.stderr).toContain(`An error occurred (ResourceNotFoundException) when calling the GetScheduleGroup operation: Schedule group ${group} does not exist.`);
  } finally {
    await aws(['delete-schedule-group', '--name', group], BOOT, 'eu-west-1');
  }
  const moon = await aws(['list-schedule-groups'], BOOT, 'moon-1');
  expect(moon.code).not.toBe(0);
  expect(moon.stderr).toContain("An error occurred (InvalidSignatureException) when calling the ListScheduleGroups operation: Credential should be scoped to a valid region, not 'moon-1'.");

  const other = workflowArn().replace(`:${account}:`, ':111122223333:');
  const refused = await aws(['create-schedule', '--name', `e2e-other-account-${S}`, '--schedule-expression', 'rate(1 day)', '--flexible-time-window', 'Mode=OFF', '--target', JSON.stringify({ Arn: other, RoleArn: role() })]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain(
    `An error occurred (ValidationException) when calling the CreateSchedule operation: Invalid target ${other}: account 111122223333 is not the schedule's account; EventBridge Scheduler cannot reach a workflow in another account.`,
  );
});

test('SDK: a StartDate in year 10000 is a ValidationException naming the member; us-gov-west-1 and cn-north-1 ARNs carry their partitions', async () => {
  expect(await sdkRefusal(sdk().send(new CreateScheduleCommand(input(`e2e-y10k-${S}`, { StartDate: new Date(Date.UTC(10000, 0, 1)) }))))).toEqual({
    name: 'ValidationException',
    status: 400,
    message: "1 validation error detected: Value '253402300800' at 'startDate' failed to satisfy constraint: Member must be a timestamp no later than 9999-12-31T23:59:59Z",
  });
  const gov = sdk(BOOT, { region: 'us-gov-west-1' });
  const name = `e2e-gov-${S}`;
  expect((await gov.send(new CreateScheduleCommand(input(name)))).ScheduleArn).toBe(`arn:aws-us-gov:scheduler:us-gov-west-1:${account}:schedule/default/${name}`);
  expect((await gov.send(new ListSchedulesCommand({ NamePrefix: name }))).Schedules!.map((x) => x.Arn)).toEqual([`arn:aws-us-gov:scheduler:us-gov-west-1:${account}:schedule/default/${name}`]);
  expect((await sdk().send(new ListSchedulesCommand({ NamePrefix: name }))).Schedules).toEqual([]);
  await gov.send(new DeleteScheduleCommand({ Name: name }));
  expect((await sdk(BOOT, { region: 'cn-north-1' }).send(new GetScheduleGroupCommand({ Name: 'default' }))).Arn).toBe(`arn:aws-cn:scheduler:cn-north-1:${account}:schedule-group/default`);
});

test('Signing: a session token is refused UnrecognizedClientException by boto3, the AWS CLI and the SDK alike (SPEC §14 "Signing")', async () => {
  const message = 'The security token included in the request is invalid.';
  const script = String.raw`
import os, boto3
from botocore.exceptions import ClientError
c = boto3.client("scheduler", endpoint_url=os.environ["BASE"], region_name="us-east-1", aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"], aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"], aws_session_token="FwoGZXIvYXdzEJr//////////wEaDGarbage")
try:
    c.list_schedule_groups()
    print("accepted")
except ClientError as e:
    print(e.response["ResponseMetadata"]["HTTPStatusCode"], e.response["Error"]["Code"], e.response["Error"]["Message"])
`;
  const py = await run('python3', ['-c', script], BOOT, { BASE });
  expect(py.code, py.stderr).toBe(0);
  expect(py.stdout.trim()).toBe(`403 UnrecognizedClientException ${message}`);
  const cli = await run('aws', ['scheduler', 'list-schedule-groups', '--endpoint-url', BASE, '--region', REGION], BOOT, { AWS_SESSION_TOKEN: 'garbage' });
  expect(cli.code).not.toBe(0);
  expect(cli.stderr).toContain(`An error occurred (UnrecognizedClientException) when calling the ListScheduleGroups operation: ${message}`);
  const withToken = new SchedulerClient({ endpoint: BASE, region: REGION, credentials: { accessKeyId: BOOT.id, secretAccessKey: BOOT.secret, sessionToken: 'garbage' }, maxAttempts: 1 });
  expect(await sdkRefusal(withToken.send(new ListScheduleGroupsCommand({})))).toEqual({ name: 'UnrecognizedClientException', status: 403, message });
});

test('FlexibleTimeWindow Mode=OFF with MaximumWindowInMinutes is read back as sent by the AWS CLI, the SDK and boto3 (decision 315)', async () => {
  const name = `e2e-off-window-${S}`;
  const made = await aws(['create-schedule', '--name', name, '--schedule-expression', 'cron(0 8 * * ? *)', '--flexible-time-window', 'Mode=OFF,MaximumWindowInMinutes=15', '--target', JSON.stringify({ Arn: workflowArn(), RoleArn: role() })]);
  expect(made.code, made.stderr).toBe(0);
  try {
    expect((await aws(['get-schedule', '--name', name])).json!.FlexibleTimeWindow).toEqual({ Mode: 'OFF', MaximumWindowInMinutes: 15 });
    expect((await sdk().send(new GetScheduleCommand({ Name: name }))).FlexibleTimeWindow).toEqual({ Mode: 'OFF', MaximumWindowInMinutes: 15 });
    const script = String.raw`
import json, os, boto3
c = boto3.client("scheduler", endpoint_url=os.environ["BASE"], region_name="us-east-1")
s = c.get_schedule(Name=os.environ["NAME"])
c.update_schedule(Name=s["Name"], ScheduleExpression=s["ScheduleExpression"], FlexibleTimeWindow={"Mode": "OFF", "MaximumWindowInMinutes": 30}, Target={"Arn": s["Target"]["Arn"], "RoleArn": s["Target"]["RoleArn"]})
print(json.dumps(c.get_schedule(Name=os.environ["NAME"])["FlexibleTimeWindow"]))
`;
    const py = await run('python3', ['-c', script], BOOT, { BASE, NAME: name });
    expect(py.code, py.stderr).toBe(0);
    expect(JSON.parse(py.stdout)).toEqual({ Mode: 'OFF', MaximumWindowInMinutes: 30 });
  } finally {
    await aws(['delete-schedule', '--name', name]);
  }
});

/** moto's server, which the worker delivers AWS targets to (npm test exports AWS_ENDPOINT_URL before starting the servers). */
function motoClientConfig(): { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } } {
  const endpoint = process.env.AWS_ENDPOINT_URL;
  if (!endpoint || !/^http:\/\/127\./.test(endpoint)) throw new Error("universal targets are delivered to moto's server: start `moto_server -H 127.0.0.1 -p <port>` and export AWS_ENDPOINT_URL (and dummy keys) before `npx playwright test`, as scripts/test-all.sh does");
  return { endpoint, region: REGION, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } };
}

test('universal targets: boto3 aws-sdk:dynamodb:putItem and the AWS CLI aws-sdk:sqs:sendMessage deliver through the worker on moto; an unknown action (SDK) is a failed attempt UnknownOperationException; Input not an object is a ValidationException', async ({ request }) => {
  test.setTimeout(180_000);
  const moto = motoClientConfig();
  const table = `e2e-runs-${S}`;
  const dynamo = new DynamoDBClient(moto);
  await dynamo.send(new CreateTableCommand({ TableName: table, KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST' }));
  const sqs = new SQSClient(moto);
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `e2e-universal-${S}` }));
  // An at() 30 s ago fires at once (SPEC §14).
  const justNow = `at(${new Date(Date.now() - 30_000).toISOString().slice(0, 19)})`;
  const names = { put: `e2e-put-item-${S}`, send: `e2e-send-message-${S}`, unknown: `e2e-unknown-action-${S}` };
  try {
    const script = String.raw`
import json, os, boto3
from botocore.exceptions import ClientError
c = boto3.client("scheduler", endpoint_url=os.environ["BASE"], region_name="us-east-1")
target = {"Arn": "arn:aws:scheduler:::aws-sdk:dynamodb:putItem", "RoleArn": os.environ["ROLE"]}
try:
    c.create_schedule(Name=os.environ["NAME"], ScheduleExpression="rate(1 hour)", FlexibleTimeWindow={"Mode": "OFF"}, Target={**target, "Input": "[1]"})
    print("accepted")
except ClientError as e:
    print(e.response["Error"]["Code"], e.response["Error"]["Message"])
input = json.dumps({"TableName": os.environ["TABLE"], "Item": {"pk": {"S": "<aws.scheduler.execution-id>"}, "from": {"S": "boto3"}, "n": {"N": "<aws.scheduler.attempt-number>"}}})
print(c.create_schedule(Name=os.environ["NAME"], ScheduleExpression=os.environ["EXPR"], FlexibleTimeWindow={"Mode": "OFF"}, Target={**target, "Input": input})["ScheduleArn"])
`;
    const py = await run('python3', ['-c', script], BOOT, { BASE, ROLE: role(), NAME: names.put, TABLE: table, EXPR: justNow });
    expect(py.code, py.stderr).toBe(0);
    const put = 'arn:aws:scheduler:::aws-sdk:dynamodb:putItem';
    expect(py.stdout.trim().split('\n')).toEqual([`ValidationException Invalid target ${put}: input must be a JSON object: the parameters of aws-sdk:dynamodb:putItem.`, `arn:aws:scheduler:${REGION}:${account}:schedule/default/${names.put}`]);

    const cli = await aws(['create-schedule', '--name', names.send, '--schedule-expression', justNow, '--flexible-time-window', 'Mode=OFF', '--target', JSON.stringify({ Arn: 'arn:aws:scheduler:::aws-sdk:sqs:sendMessage', RoleArn: role(), Input: JSON.stringify({ QueueUrl, MessageBody: 'from the AWS CLI' }) })]);
    expect(cli.code, cli.stderr).toBe(0);
    await sdk().send(new CreateScheduleCommand(input(names.unknown, { ScheduleExpression: justNow, Target: { Arn: 'arn:aws:scheduler:::aws-sdk:dynamodb:putItems', RoleArn: role(), Input: JSON.stringify({ TableName: table }) } })));

    // The worker delivers: the item, with the substituted execution id, and the message.
    await expect.poll(async () => (await dynamo.send(new ScanCommand({ TableName: table }))).Items?.map((i) => [i.from?.S, i.n?.N, /^[a-z0-9]{16}$/.test(i.pk?.S ?? '')]), { timeout: 60_000 }).toEqual([['boto3', '1', true]]);
    await expect.poll(async () => (await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }))).Messages?.map((m) => m.Body) ?? [], { timeout: 60_000 }).toEqual(['from the AWS CLI']);
    const revisionId = ((await (await request.get('/api/v1/orgs/acme-corp/blobs/default', { headers })).json()).default_revision_id) as string;
    const runsOf = async (name: string) => {
      // list_executions takes the schedule's id: get_schedule finds it by name.
      const got = await request.post(`/api/v1/revisions/${revisionId}/data`, { headers, data: { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: name } });
      const id = (await got.json()).schedule.id as string;
      const r = await request.post(`/api/v1/revisions/${revisionId}/data`, { headers, data: { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: id } });
      return ((await r.json()).executions ?? []) as { status: string; result: Record<string, unknown> }[];
    };
    await expect.poll(async () => (await runsOf(names.unknown))[0]?.result, { timeout: 60_000 }).toEqual({
      error: 'UnknownOperationException',
      message: 'putItems is not an operation of dynamodb: the AWS SDK for JavaScript v3 client of dynamodb has no PutItemsCommand',
    });
    expect((await runsOf(names.put)).map((r) => [r.status, r.result.service, r.result.operation])).toEqual([['success', 'aws-sdk:dynamodb', 'PutItem']]);
  } finally {
    for (const name of Object.values(names)) await aws(['delete-schedule', '--name', name]);
  }
});

test("the README's AWS CLI, boto3 and JS SDK examples run as written", async () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  for (const f of ['aws-cli.sh', 'boto3-example.py', 'sdk-example.mjs']) {
    expect(readme, `README embeds examples/eventbridge/${f}`).toContain(readFileSync(path.join(ROOT, 'examples/eventbridge', f), 'utf8').trim());
  }
  const cli = await run('bash', ['examples/eventbridge/aws-cli.sh'], BOOT, { GROUP: `e2e-readme-${S}` });
  expect(cli.code, cli.stderr).toBe(0);
  expect(cli.stdout).toContain(`"ScheduleGroupArn": "arn:aws:scheduler:${REGION}:${account}:schedule-group/e2e-readme-${S}"`);
  expect(cli.stdout).toContain('"ScheduleExpression": "cron(0 2 * * ? *)"');
  expect(cli.stdout).toContain('nightly-report\tENABLED');
  expect(cli.stdout).toContain('"Key": "team"');

  const py = await run('python3', ['examples/eventbridge/boto3-example.py'], BOOT, { NAME: `e2e-boto3-${S}` });
  expect(py.code, py.stderr).toBe(0);
  expect(py.stdout.trim().split('\n')).toEqual(['rate(1 hour)', `default e2e-boto3-${S} ENABLED`]);

  const js = await run(process.execPath, ['examples/eventbridge/sdk-example.mjs'], BOOT, { NAME: `e2e-sdk-${S}` });
  expect(js.code, js.stderr).toBe(0);
  expect(js.stdout).toContain(`arn:aws:scheduler:us-east-1:${account}:schedule/default/e2e-sdk-${S} ENABLED {"MaximumEventAgeInSeconds":86400,"MaximumRetryAttempts":185}`);
});

test("aws scheduler create-schedule with rate(1 minutes) and a workflow target ARN fires every minute; its runs show on its page", async ({ page, request }) => {
  test.setTimeout(300_000);
  const name = `e2e-every-minute-${S}`;
  const made = await aws(['create-schedule', '--name', name, '--schedule-expression', 'rate(1 minutes)', '--flexible-time-window', 'Mode=OFF', '--target', JSON.stringify({ Arn: workflowArn(), RoleArn: role() })]);
  expect(made.code, made.stderr).toBe(0);
  try {
    const blob = await (await request.get('/api/v1/orgs/acme-corp/blobs/default', { headers })).json();
    const revisionId = blob.default_revision_id as string;
    const got = await request.post(`/api/v1/revisions/${revisionId}/data`, { headers, data: { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: name } });
    const schedule = (await got.json()).schedule;
    expect(schedule.name).toBe(name);
    // SPEC §14: rate(…) is the product's recurring_rate; AWS's default retry policy comes with it.
    expect(schedule).toMatchObject({ repeat: 'recurring_rate', rate_expression: '1 minutes', retry_policy: { maximum_retry_attempts: 185, maximum_event_age_seconds: 86400 } });
    const runs = async () => {
      const r = await request.post(`/api/v1/revisions/${revisionId}/data`, { headers, data: { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: schedule.id } });
      return (await r.json()).executions as { scheduled_for: string; status: string; trigger: string }[];
    };
    await expect.poll(async () => (await runs()).filter((r) => r.trigger === 'schedule').length, { timeout: 200_000, intervals: [2000] }).toBeGreaterThanOrEqual(2);
    const fired = (await runs()).filter((r) => r.trigger === 'schedule').slice(0, 2);
    expect(fired.map((r) => r.status)).toEqual(['success', 'success']);
    expect(Date.parse(fired[0].scheduled_for) - Date.parse(fired[1].scheduled_for)).toBe(60_000);

    await page.goto(`/schedulers/${revisionId}/schedules/${schedule.id}`);
    await expect(page.getByTestId('eventbridge-name')).toHaveText(name);
    await expect(page.getByTestId('eventbridge-arn')).toHaveText(`arn:aws:scheduler:${REGION}:${account}:schedule/default/${name}`);
    // One row per attempt (data-run-id); with AWS's retry policy each occurrence also has its own header row.
    const rows = page.getByRole('table', { name: 'Executions' }).locator('tbody tr[data-run-id]');
    await expect(rows.nth(1)).toBeVisible();
    await expect(rows.first()).toContainText('success');
  } finally {
    await aws(['delete-schedule', '--name', name]);
  }
});

test('a schedule created in the web form is returned by aws scheduler get-schedule', async ({ page }) => {
  const alias = `eb-form-${S}`;
  await page.goto('/schedulers');
  await page.getByRole('link', { name: 'Ops scheduler', exact: true }).click();
  await expect(page.getByTestId('schedule-group')).toContainText(`EventBridge schedule group ops-scheduler (region ${REGION}, account ${account})`);
  await page.getByRole('button', { name: 'New Schedule' }).click();
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
  await page.getByLabel('Alias').fill(alias);
  await page.getByLabel('Description').fill('Made in the form');
  await page.getByRole('radio', { name: /Recurring \(cron\)/ }).check();
  await page.getByLabel('Cron expression').fill('0 9 * * ? *');
  await page.getByLabel('Timezone').fill('Europe/Berlin');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.getByTestId('eventbridge-name')).toHaveText(alias);
  // SPEC §14: a scheduler made in the web app belongs to SCHEDULER_HOME_REGION (us-east-1 by default).
  await expect(page.getByTestId('eventbridge-region')).toHaveText(REGION);
  await expect(page.getByTestId('eventbridge-arn')).toHaveText(`arn:aws:scheduler:${REGION}:${account}:schedule/ops-scheduler/${alias}`);
  try {
    const got = await aws(['get-schedule', '--group-name', 'ops-scheduler', '--name', alias]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.json).toMatchObject({
      Name: alias,
      GroupName: 'ops-scheduler',
      Arn: `arn:aws:scheduler:${REGION}:${account}:schedule/ops-scheduler/${alias}`,
      Description: 'Made in the form',
      ScheduleExpression: 'cron(0 9 * * ? *)',
      ScheduleExpressionTimezone: 'Europe/Berlin',
      State: 'ENABLED',
      ActionAfterCompletion: 'NONE',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: workflowArn(), RoleArn: `arn:aws:iam::${account}:role/scheduler-product-api`, RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 0 } },
    });
  } finally {
    await aws(['delete-schedule', '--group-name', 'ops-scheduler', '--name', alias]);
  }
});

async function createAccessKeyInBrowser(page: Page, formName: string, name: string, role: 'read' | 'write', org?: string): Promise<{ id: string; secret: string }> {
  const form = page.getByRole('form', { name: formName });
  await form.getByLabel('Access key name').fill(name);
  if (org) await form.getByLabel('Org (AWS account)').selectOption({ label: org });
  await form.getByLabel('Access key role').selectOption(role);
  await form.getByRole('button', { name: 'Create access key' }).click();
  const shown = form.getByTestId('shown-once');
  await expect(shown).toBeVisible();
  const m = /^AWS_ACCESS_KEY_ID=(AKIA[A-Z2-7]{16}) AWS_SECRET_ACCESS_KEY=([A-Za-z0-9+/]{40})$/.exec((await shown.innerText()).trim());
  expect(m, 'the pair is shown once as environment variables').not.toBeNull();
  secrets.push(m![2]);
  return { id: m![1], secret: m![2] };
}

test('access keys in the browser: issued on the Account and org admin pages, used by the CLI, revoked at once; the account id is shown', async ({ page }) => {
  await page.goto('/orgs/acme-corp/admin');
  await expect(page.getByTestId('account-id')).toHaveText(account);
  const orgPair = await createAccessKeyInBrowser(page, 'New org access key', `e2e-org-pair-${S}`, 'read');
  const asOrg = await aws(['list-schedule-groups', '--query', 'ScheduleGroups[].Name'], orgPair);
  expect(asOrg.code, asOrg.stderr).toBe(0);
  expect(asOrg.json).toContain('ops-scheduler');

  await page.goto('/account');
  const mine = await createAccessKeyInBrowser(page, 'New AWS access key', `e2e-my-pair-${S}`, 'write', 'acme-corp');
  const row = page.getByRole('row').filter({ hasText: `e2e-my-pair-${S}` });
  await expect(row).toContainText(mine.id);
  await expect(row).toContainText('operator@acme-corp.example');
  expect((await aws(['get-schedule-group', '--name', 'default'], mine)).code).toBe(0);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: `e2e-my-pair-${S}` })).not.toContainText('never');
  }).toPass({ timeout: 15_000 });
  await page.getByRole('row').filter({ hasText: `e2e-my-pair-${S}` }).getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: new RegExp(`^Revoke access key "e2e-my-pair-${S}"`) });
  await expect(confirm).toContainText('Requests signed with it are refused from their next request on');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('row').filter({ hasText: `e2e-my-pair-${S}` }).getByText(/^revoked /)).toBeVisible();
  expect((await aws(['get-schedule-group', '--name', 'default'], mine)).stderr).toContain('(UnrecognizedClientException)');
  // The org admin sees the member's pair too.
  await page.goto('/orgs/acme-corp/admin');
  await expect(page.getByRole('row').filter({ hasText: `e2e-my-pair-${S}` })).toContainText('revoked');
});

test('no access key secret is in the database file in clear', async () => {
  const db = readFileSync(path.join(ROOT, 'data/e2e.db'));
  for (const secret of secrets) expect(db.includes(Buffer.from(secret)), `secret ${secret.slice(0, 4)}… stored in clear`).toBe(false);
});
