/**
 * SPEC §13.1 and §13.2 at save, through the product API's request handler (`handleRevisionCommand`:
 * routing, the command table, the error table) on a real database: `http` and `aws` targets are
 * created, dry-run and updated like workflow targets; a webhook whose host is or resolves to a
 * loopback, private, link-local or metadata address is refused with `400 invalid_invocation_target`
 * naming the address and SCHEDULER_HTTP_ALLOWED_HOSTS, unless the operator's allow list (passed in,
 * as the edge passes `runtime().httpAllowList`) lists it; an ARN of another service is refused.
 * Nothing is written by a refused save.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig, type HttpAllowList } from '../../config';
import type { HostResolver } from '../../targets';
import { errorResponse, handleRevisionCommand } from '../../api';
import { useSchedulerWorld } from '../../testing/catalog-world';
import { TEST_LIMITS } from '../../testing/limits';
import { createSchedule } from '../save/create-schedule';
import { updateSchedule } from '../save/update-schedule';

const world = useSchedulerWorld();

/** SCHEDULER_HTTP_ALLOWED_HOSTS as lib/config parses it, from the text an operator writes. */
const allowList = (text: string): HttpAllowList => loadConfig({ SCHEDULER_HTTP_ALLOWED_HOSTS: text }).delivery.httpAllowList;

const cron = { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC' };
const webhook = (url: string, extra: Record<string, unknown> = {}) => ({ ...cron, invocation_target_type: 'http', invocation_target: { url, ...extra } });
const sqs = (arn: string, extra: Record<string, unknown> = {}) => ({ ...cron, invocation_target_type: 'aws', invocation_target: { arn, ...extra } });

/** POST one scheduler command as the writer; the answer's status and JSON. */
async function command(params: Record<string, unknown>, httpAllowList?: HttpAllowList): Promise<{ status: number; body: any }> {
  const { db, w, ops } = world;
  const req = new Request(`http://127.0.0.1/api/v1/revisions/${ops.id}/data`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ engine: 'scheduler_blobhub', ...params }),
  });
  let res: Response;
  try {
    res = await handleRevisionCommand(req, w.writer, ops.id, { db, limits: TEST_LIMITS, httpAllowList });
  } catch (e) {
    res = errorResponse(e);
  }
  return { status: res.status, body: await res.json() };
}

const count = () => world.db.schedule.count({ where: { revisionId: world.ops.id } });

describe('SPEC §13.1: webhook destinations are checked at save, after DNS resolution', () => {
  it('the metadata address and a loopback address are refused at create (and at dry run), naming the address and SCHEDULER_HTTP_ALLOWED_HOSTS', async () => {
    const before = await count();
    const metadata = await command({ command: 'create_schedule', ...webhook('http://169.254.169.254/latest/meta-data') });
    expect(metadata).toEqual({
      status: 400,
      body: {
        error: {
          code: 'invalid_invocation_target',
          message: 'url: 169.254.169.254 is a cloud metadata address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it',
          path: 'invocation_target.url',
        },
      },
    });
    const loopback = await command({ command: 'create_schedule', ...webhook('http://127.0.0.1:9/') });
    expect(loopback.status).toBe(400);
    expect(loopback.body.error).toEqual({
      code: 'invalid_invocation_target',
      message: 'url: 127.0.0.1 is a loopback address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it',
      path: 'invocation_target.url',
    });
    const dry = await command({ command: 'create_schedule', dry_run: true, ...webhook('http://[::1]:8080/hook') });
    expect(dry.status).toBe(400);
    expect(dry.body.error.message).toBe('url: ::1 is a loopback address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it');
    const privateRange = await command({ command: 'create_schedule', ...webhook('https://10.20.30.40/in') });
    expect(privateRange.body.error.message).toBe('url: 10.20.30.40 is a private address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it');
    expect(await count()).toBe(before);
  });

  it('a host name that resolves to a loopback address (localhost, the system resolver) is refused', async () => {
    const r = await command({ command: 'create_schedule', ...webhook('http://localhost:9/hook') });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_invocation_target');
    expect(r.body.error.path).toBe('invocation_target.url');
    // /etc/hosts may list ::1 first or 127.0.0.1 first: either is named, with the host that resolves to it.
    expect(r.body.error.message).toMatch(/^url: (127\.0\.0\.1|::1) is a loopback address \(localhost resolves to it\); list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it$/);
  });

  it('a host name resolving to a private address is refused, through the resolver seam; a public one is accepted', async () => {
    const { db, w, ops } = world;
    const resolveHost: HostResolver = async (host) => {
      if (host === 'hooks.internal.example') return [{ address: '93.184.216.34', family: 4 }, { address: '10.1.2.3', family: 4 }];
      if (host === 'hooks.public.example') return [{ address: '93.184.216.34', family: 4 }];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const save = (url: string) => createSchedule({ db, actor: w.writer, revision: ops, input: webhook(url), limits: TEST_LIMITS, now: new Date(), resolveHost });
    await expect(save('https://hooks.internal.example/in')).rejects.toMatchObject({
      code: 'invalid_invocation_target',
      path: 'invocation_target.url',
      message: 'url: 10.1.2.3 is a private address (hooks.internal.example resolves to it); list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it',
    });
    await expect(save('https://nowhere.example/in')).rejects.toMatchObject({ code: 'invalid_invocation_target', message: 'url: nowhere.example does not resolve (ENOTFOUND)' });
    const s = await save('https://hooks.public.example/in');
    expect(s.invocation_target_type).toBe('http');
    expect(s.invocation_target).toEqual({ url: 'https://hooks.public.example/in' });
  });

  it('a reader learns nothing of where a host resolves: write access is checked before the destination', async () => {
    const { db, w, ops } = world;
    const resolveHost: HostResolver = async () => [{ address: '10.9.8.7', family: 4 }];
    await expect(createSchedule({ db, actor: w.reader, revision: ops, input: webhook('https://hooks.internal.example/'), limits: TEST_LIMITS, now: new Date(), resolveHost })).rejects.toMatchObject({
      code: 'forbidden',
      message: 'this needs write access to the scheduler',
    });
  });

  it('SCHEDULER_HTTP_ALLOWED_HOSTS (passed in) opens exactly what it lists: the metadata address only by its exact listing', async () => {
    const list = allowList('169.254.169.254,127.0.0.1');
    const metadata = await command({ command: 'create_schedule', ...webhook('http://169.254.169.254/latest/meta-data', { method: 'PUT', headers: { 'X-Env': 'test' }, body: { n: 1 }, timeout_seconds: 5 }) }, list);
    expect(metadata.status).toBe(200);
    expect(metadata.body.schedule).toMatchObject({
      invocation_target_type: 'http',
      // Header values are write-only (SPEC §13.5).
      invocation_target: { url: 'http://169.254.169.254/latest/meta-data', method: 'PUT', headers: { 'X-Env': '••••' }, body: { n: 1 }, timeout_seconds: 5 },
    });
    const loopback = await command({ command: 'create_schedule', ...webhook('http://127.0.0.1:9/') }, list);
    expect(loopback.status).toBe(200);
    expect(loopback.body.schedule.invocation_target).toEqual({ url: 'http://127.0.0.1:9/' });
    // A range does not open the metadata address inside it; the host name of another URL is not listed.
    const range = allowList('169.254.0.0/16');
    expect((await command({ command: 'create_schedule', ...webhook('http://169.254.169.254/') }, range)).body.error.message).toMatch(/^url: 169\.254\.169\.254 is a cloud metadata address/);
    expect((await command({ command: 'create_schedule', ...webhook('http://169.254.10.10/') }, range)).status).toBe(200);
    expect((await command({ command: 'create_schedule', ...webhook('http://localhost:9/') }, allowList('localhost'))).status).toBe(200);
  });

  it('update checks a new webhook URL too, and switching a workflow schedule to a webhook needs the target with its type', async () => {
    const created = await command({ command: 'create_schedule', alias: 'hook-edit', ...webhook('http://127.0.0.1:9/a') }, allowList('127.0.0.1'));
    expect(created.status).toBe(200);
    const refused = await command({ command: 'update_schedule', schedule_id: 'hook-edit', invocation_target: { url: 'http://169.254.169.254/' } });
    expect(refused.body.error).toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target.url' });
    const moved = await command({ command: 'update_schedule', schedule_id: 'hook-edit', invocation_target: { url: 'http://127.0.0.1:9/b', method: 'PUT' } }, allowList('127.0.0.1'));
    expect(moved.status).toBe(200);
    // Sent without its type, the target keeps the stored one.
    expect(moved.body.schedule).toMatchObject({ invocation_target_type: 'http', invocation_target: { url: 'http://127.0.0.1:9/b', method: 'PUT' } });
    // An edit that leaves the target alone does not check it again (the allow list is not passed here).
    expect((await command({ command: 'update_schedule', schedule_id: 'hook-edit', description: 'still there' })).status).toBe(200);
    const switchOnly = await command({ command: 'update_schedule', schedule_id: 'hook-edit', invocation_target_type: 'aws' });
    expect(switchOnly.body.error).toEqual({ code: 'invalid_request_body', message: 'switching invocation_target_type to "aws" needs invocation_target in the same request', path: 'invocation_target' });
  });
});

describe('SPEC §13.2: aws targets at save', () => {
  it('an SQS target is created as sent; an ARN of an unsupported service, a FIFO queue without a group and non-JSON Lambda input are refused', async () => {
    const before = await count();
    const ok = await command({ command: 'create_schedule', alias: 'orders', ...sqs('arn:aws:sqs:eu-west-1:123456789012:orders', { role_arn: 'arn:aws:iam::123456789012:role/scheduler', input: 'hello' }) });
    expect(ok.status).toBe(200);
    expect(ok.body.schedule).toMatchObject({
      alias: 'orders',
      invocation_target_type: 'aws',
      invocation_target: { arn: 'arn:aws:sqs:eu-west-1:123456789012:orders', role_arn: 'arn:aws:iam::123456789012:role/scheduler', input: 'hello' },
    });
    const kinesis = await command({ command: 'create_schedule', ...sqs('arn:aws:kinesis:eu-west-1:123456789012:stream/s') });
    expect(kinesis).toEqual({
      status: 400,
      body: { error: { code: 'invalid_invocation_target', message: '"kinesis" ARNs are not a supported target; use one of sqs, sns, lambda, states, events, ecs', path: 'invocation_target.arn' } },
    });
    const fifo = await command({ command: 'create_schedule', ...sqs('arn:aws:sqs:eu-west-1:123456789012:orders.fifo') });
    expect(fifo.body.error).toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target.sqs_parameters' });
    const lambda = await command({ command: 'create_schedule', ...sqs('arn:aws:lambda:eu-west-1:123456789012:function:resize', { input: 'not json' }) });
    expect(lambda.body.error).toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target.input' });
    const mismatched = await command({ command: 'create_schedule', ...cron, invocation_target_type: 'aws', invocation_target: { url: 'https://hooks.example.com/' } });
    expect(mismatched.body.error).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.arn' });
    expect(await count()).toBe(before + 1);
  });

  it('a stored EventBridge-shaped webhook row ({url, body: string}) reads and edits as an http target', async () => {
    const { db, w, ops } = world;
    const s = await createSchedule({ db, actor: w.writer, revision: ops, input: webhook('http://127.0.0.1:9/old'), limits: TEST_LIMITS, now: new Date(), httpAllowList: allowList('127.0.0.1') });
    await db.schedule.update({ where: { id: s.id }, data: { invocationTarget: { url: 'http://127.0.0.1:9/old', body: 'plain text' } } });
    const edited = await updateSchedule({ db, actor: w.writer, revision: ops, scheduleRef: s.id, input: { enabled: false }, limits: TEST_LIMITS, now: new Date() });
    expect(edited.enabled).toBe(false);
    expect(edited.invocation_target).toEqual({ url: 'http://127.0.0.1:9/old', body: 'plain text' });
  });
});
