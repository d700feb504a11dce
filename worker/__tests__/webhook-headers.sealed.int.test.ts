/**
 * SPEC §13.5: the header values of an `http` target are write-only secrets. Through the product API's
 * request handler, the real worker, a real receiver on loopback and moto's SQS: a value is stored sealed
 * with the server key (the row holds no value), delivered as written, and answered to every role as
 * `"••••"` in get_schedule, list_schedules, list_executions, list_dead_letters and list_activity; the
 * dead-letter list and the SQS dead-letter body carry no header value (any name); an edit that sends
 * `"••••"` keeps the stored value; a row stored before sealing (plain values) still delivers, is
 * masked, and is sealed by its next save. SPEC §13.1: a header value above U+00FF is refused at save.
 */
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorResponse, handleRevisionCommand } from '../../lib/api';
import type { Actor } from '../../lib/auth';
import { makeUser } from '../../lib/testing/catalog-world';
import { testDelivery } from '../../lib/testing/fire-and-deliver';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { requireMoto } from '../../lib/testing/moto';
import { startReceiver } from '../../lib/testing/receiver';
import { useSeededScheduler } from '../../lib/testing/seeded-scheduler';
import { Worker } from '../worker';

const w = useSeededScheduler();
const suffix = randomUUID().slice(0, 8);
const SECRET_A = 'Bearer s3cr3t-alpha-7731';
const SECRET_B = 'hunter2-pass-5512';
const SECRET_C = 'hmac-value-0099';
const SAVE_ALLOWED = { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] };
let reader: Actor;
let sqs: SQSClient;

beforeAll(async () => {
  await requireMoto();
  sqs = new SQSClient({ region: 'us-east-1' });
  reader = await makeUser(w.db, `reader-${suffix}@example.com`, w.ctx.orgId, 'read');
});

/** One scheduler command through the product API's handler, as `actor`; the status and the answer's text and JSON. */
async function command(actor: Actor, params: Record<string, unknown>): Promise<{ status: number; text: string; body: any }> {
  const rev = await w.scheduler();
  const req = new Request(`http://127.0.0.1/api/v1/revisions/${rev.id}/data`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ engine: 'scheduler_blobhub', ...params }),
  });
  let res: Response;
  try {
    res = await handleRevisionCommand(req, actor, rev.id, { db: w.db, limits: TEST_LIMITS, httpAllowList: SAVE_ALLOWED });
  } catch (e) {
    res = errorResponse(e);
  }
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

function workerAt(start: Date) {
  const clock = { at: start };
  const worker = new Worker({ db: w.db, limits: TEST_LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => clock.at, delivery: testDelivery() });
  return async (at: Date) => {
    clock.at = at;
    for (let i = 0; i < 20 && (await worker.tick(at)) > 0; i++);
    await worker.deliveries.drain();
    await worker.deliveryStep(at);
  };
}

async function createQueue(name: string): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name }));
  const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: QueueUrl!, arn: attrs.Attributes!.QueueArn! };
}

async function receiveOne(url: string): Promise<Message> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1, WaitTimeSeconds: 1 }));
    if (res.Messages?.length) return res.Messages[0];
  }
  throw new Error('no dead letter arrived');
}

const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);
const hasNoSecret = (text: string, ...secrets: string[]) => expect(secrets.filter((s) => text.includes(s))).toEqual([]);
/** A cron schedule (hourly) to `url` with `headers`, created as the seeded writer. */
const hook = (url: string, headers: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  command: 'create_schedule',
  repeat: 'recurring_cron',
  cron_expression: '0 * * * ? *',
  timezone: 'UTC',
  invocation_target_type: 'http',
  invocation_target: { url, headers },
  ...extra,
});

describe('SPEC §13.5: webhook header values are write-only', () => {
  it('stored sealed, delivered as written, masked to every role in every answer, absent from dead letters and the SQS body; an edit sending "••••" keeps the value', async () => {
    const received: Record<string, string>[] = [];
    const r = await startReceiver((req) => {
      received.push(req.headers as Record<string, string>);
      return { status: 500, body: 'down' };
    });
    const dlq = await createQueue(`hdr-dlq-${suffix}`);
    try {
      const created = await command(
        w.actor(),
        hook(r.url('/in'), { Authorization: SECRET_A, 'X-Pass': SECRET_B, 'X-Shopify-Hmac-Sha256': SECRET_C }, { alias: `sealed-${suffix}`, dead_letter: { arn: dlq.arn } }),
      );
      expect(created.status).toBe(200);
      expect(created.body.schedule.invocation_target.headers).toEqual({ Authorization: '••••', 'X-Pass': '••••', 'X-Shopify-Hmac-Sha256': '••••' });
      hasNoSecret(created.text, SECRET_A, SECRET_B, SECRET_C);
      const id = created.body.schedule.id as string;

      // At rest: sealed, not plain.
      const row = await w.db.schedule.findUniqueOrThrow({ where: { id } });
      const stored = row.invocationTarget as { headers: Record<string, string>; headers_sealed?: boolean };
      hasNoSecret(JSON.stringify(stored), SECRET_A, SECRET_B, SECRET_C);
      expect(stored.headers_sealed).toBe(true);
      expect(Object.values(stored.headers).every((v) => /^v1\.[0-9a-f]{8}\./.test(v))).toBe(true);

      // Fire: the receiver gets the values as written; one attempt, exhausted into the dead letter.
      const at = row.nextFireAt!;
      await workerAt(at)(plus(at, 500));
      expect(received).toHaveLength(1);
      expect([received[0].authorization, received[0]['x-pass'], received[0]['x-shopify-hmac-sha256']]).toEqual([SECRET_A, SECRET_B, SECRET_C]);
      const letter = await receiveOne(dlq.url);
      const body = JSON.parse(letter.Body!);
      expect(body.headers).toMatchObject({ authorization: '••••', 'x-pass': '••••', 'x-shopify-hmac-sha256': '••••', 'webhook-signature': '••••', 'webhook-id': expect.any(String) });
      hasNoSecret(letter.Body!, SECRET_A, SECRET_B, SECRET_C);
      const lastRequest = (await w.db.deadLetter.findFirstOrThrow({ where: { scheduleId: id } })).lastRequest;
      hasNoSecret(JSON.stringify(lastRequest), SECRET_A, SECRET_B, SECRET_C);

      // Every answer, to the writer and to a read member.
      for (const actor of [w.actor(), reader]) {
        for (const params of [
          { command: 'get_schedule', schedule_id: id },
          { command: 'list_schedules' },
          { command: 'list_executions', schedule_id: id, include_schedule: true },
          { command: 'list_dead_letters' },
          { command: 'list_activity', schedule_id: id },
        ]) {
          const answer = await command(actor, params);
          expect([params.command, answer.status]).toEqual([params.command, 200]);
          hasNoSecret(answer.text, SECRET_A, SECRET_B, SECRET_C);
        }
      }
      const runs = await command(reader, { command: 'list_executions', schedule_id: id });
      expect(runs.body.executions[0].invocation_target.headers).toEqual({ Authorization: '••••', 'X-Pass': '••••', 'X-Shopify-Hmac-Sha256': '••••' });
      const letters = await command(reader, { command: 'list_dead_letters' });
      expect(letters.body.dead_letters.find((d: { schedule_id: string }) => d.schedule_id === id).invocation_target.headers.Authorization).toBe('••••');

      // An edit that sends the answer back (all masked) changes nothing of the target.
      const got = await command(w.actor(), { command: 'get_schedule', schedule_id: id });
      const same = await command(w.actor(), { command: 'update_schedule', schedule_id: id, invocation_target: got.body.schedule.invocation_target });
      expect(same.status).toBe(200);
      expect((await w.db.schedule.findUniqueOrThrow({ where: { id } })).invocationTarget).toEqual(stored);
      const sameActivity = await command(w.actor(), { command: 'list_activity', schedule_id: id });
      expect(sameActivity.body.activity[0].fields ?? []).not.toContain('invocation_target');

      // One value changed, the others kept by their mask (names any case); the activity names the field, never a value.
      const edited = await command(w.actor(), {
        command: 'update_schedule',
        schedule_id: id,
        invocation_target: { url: r.url('/in'), headers: { authorization: '••••', 'X-Pass': 'rotated-pass-8080', 'X-Shopify-Hmac-Sha256': '••••' } },
      });
      expect(edited.status).toBe(200);
      expect(edited.body.schedule.invocation_target.headers).toEqual({ authorization: '••••', 'X-Pass': '••••', 'X-Shopify-Hmac-Sha256': '••••' });
      hasNoSecret(edited.text, 'rotated-pass-8080');
      const activity = await command(reader, { command: 'list_activity', schedule_id: id });
      expect(activity.body.activity[0].fields).toContain('invocation_target');
      hasNoSecret(activity.text, 'rotated-pass-8080', SECRET_A);
      const next = (await w.db.schedule.findUniqueOrThrow({ where: { id } })).nextFireAt!;
      await workerAt(next)(plus(next, 500));
      expect(received).toHaveLength(2);
      expect([received[1].authorization, received[1]['x-pass'], received[1]['x-shopify-hmac-sha256']]).toEqual([SECRET_A, 'rotated-pass-8080', SECRET_C]);

      // Removing a header removes it; a mask under a name with no stored value is refused and writes nothing.
      const before = await w.db.schedule.findUniqueOrThrow({ where: { id } });
      const unknown = await command(w.actor(), { command: 'update_schedule', schedule_id: id, invocation_target: { url: r.url('/in'), headers: { 'X-New': '••••' } } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.headers.X-New' });
      expect((await w.db.schedule.findUniqueOrThrow({ where: { id } })).version).toBe(before.version);
    } finally {
      await r.close();
    }
  });

  it('a create that sends "••••" is refused (nothing is stored to keep), and writes nothing', async () => {
    const count = await w.db.schedule.count();
    const res = await command(w.actor(), hook('http://127.0.0.1:9/in', { Authorization: '••••' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.headers.Authorization' });
    expect(await w.db.schedule.count()).toBe(count);
  });

  it('a row stored before sealing (plain values) still delivers them, is answered masked, and its next save seals them', async () => {
    const received: Record<string, string>[] = [];
    const r = await startReceiver((req) => {
      received.push(req.headers as Record<string, string>);
      return { status: 200, body: 'ok' };
    });
    try {
      const created = await command(w.actor(), hook(r.url('/legacy'), { 'X-Token': 'placeholder' }, { alias: `legacy-${suffix}` }));
      const id = created.body.schedule.id as string;
      // As a row saved before sealing holds it.
      await w.db.schedule.update({ where: { id }, data: { invocationTarget: { url: r.url('/legacy'), headers: { 'X-Token': 'legacy-plain-4242' } } } });
      const got = await command(reader, { command: 'get_schedule', schedule_id: id });
      expect(got.body.schedule.invocation_target.headers).toEqual({ 'X-Token': '••••' });
      hasNoSecret(got.text, 'legacy-plain-4242');
      const at = (await w.db.schedule.findUniqueOrThrow({ where: { id } })).nextFireAt!;
      await workerAt(at)(plus(at, 500));
      expect(received.map((h) => h['x-token'])).toEqual(['legacy-plain-4242']);

      const kept = await command(w.actor(), { command: 'update_schedule', schedule_id: id, description: 'sealed now' });
      expect(kept.status).toBe(200);
      const stored = (await w.db.schedule.findUniqueOrThrow({ where: { id } })).invocationTarget as { headers: Record<string, string>; headers_sealed?: boolean };
      expect(stored.headers_sealed).toBe(true);
      hasNoSecret(JSON.stringify(stored), 'legacy-plain-4242');
      const next = (await w.db.schedule.findUniqueOrThrow({ where: { id } })).nextFireAt!;
      await workerAt(next)(plus(next, 500));
      expect(received.map((h) => h['x-token'])).toEqual(['legacy-plain-4242', 'legacy-plain-4242']);
    } finally {
      await r.close();
    }
  });
});

describe('SPEC §13.1: a header value HTTP cannot carry', () => {
  it('a value above U+00FF is refused at save with invalid_request_body and its path, and nothing is stored; Latin-1 is accepted', async () => {
    const count = await w.db.schedule.count();
    const res = await command(w.actor(), hook('http://127.0.0.1:9/in', { 'X-Name': 'Zoë ☃' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'invalid_request_body',
      message: expect.stringContaining('U+2603'),
      path: 'invocation_target.headers.X-Name',
    });
    expect(await w.db.schedule.count()).toBe(count);
    const latin1 = await command(w.actor(), hook('http://127.0.0.1:9/in', { 'X-Name': 'Zoë' }));
    expect(latin1.status).toBe(200);
  });

  it('a row saved before the rule with such a value fires as unsupported_target naming the problem, not internal_error', async () => {
    const created = await command(w.actor(), hook('http://127.0.0.1:9/in', { 'X-Name': 'plain' }, { alias: `unicode-${suffix}` }));
    const id = created.body.schedule.id as string;
    await w.db.schedule.update({ where: { id }, data: { invocationTarget: { url: 'http://127.0.0.1:9/in', headers: { 'X-Name': 'snow ☃' } } } });
    const at = (await w.db.schedule.findUniqueOrThrow({ where: { id } })).nextFireAt!;
    await workerAt(at)(plus(at, 500));
    const [run] = await w.db.run.findMany({ where: { scheduleId: id } });
    expect(run.status).toBe('invocation_error');
    expect(run.result).toMatchObject({ error: 'unsupported_target', message: expect.stringContaining('U+2603') });
  });
});
