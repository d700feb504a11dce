/**
 * SPEC §13.1 against a real HTTP receiver on loopback: every delivery's signature verified with
 * `standardwebhooks`, the same `webhook-id` on a retry, the timeout, redirects never followed,
 * destination refusals at fire, the bounded pool.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type HttpAllowList } from '../../../config';
import { testFire } from '../../../testing/fire-context';
import { closedPort, startReceiver, type Receiver } from '../../../testing/receiver';
import { createDeliveryPool, deliver, deliverHttp, generateSigningSecret, occurrenceId, type FireContext } from '../..';

const LOOPBACK: HttpAllowList = { hosts: [], addresses: [], ranges: ['127.0.0.0/8'] };
const NONE: HttpAllowList = { hosts: [], addresses: [], ranges: [] };
const secret = generateSigningSecret();
/** One pool for the file, as a process has (SCHEDULER_DELIVERY_CONCURRENCY's default). */
const pool = createDeliveryPool(64);

const fire = (overrides: Partial<FireContext> = {}) => testFire('eu-west-1', new Date('2026-03-01T09:00:00.000Z'), overrides);

/** The receiver's check of one delivery, as a receiver would write it (Webhook.verify). */
function verify(r: { headers: Record<string, string>; body: string }, key = secret): unknown {
  return new Webhook(key).verify(r.body, r.headers);
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((req) => {
    if (req.path.startsWith('/ok')) return { status: 200, body: 'received' };
    if (req.path.startsWith('/created')) return { status: 201, body: '' };
    if (req.path.startsWith('/fail')) return { status: 500, body: 'database down' };
    if (req.path.startsWith('/flaky')) {
      const seen = receiver.requests.filter((x) => x.path === req.path).length;
      return seen === 1 ? { status: 503, body: 'try later' } : { status: 204 };
    }
    if (req.path.startsWith('/hang')) return 'hang';
    if (req.path.startsWith('/slow')) return { status: 200, body: 'slow', delayMs: 200 };
    if (req.path.startsWith('/redirect')) return { status: 302, headers: { location: '/moved-here' }, body: 'see /moved-here' };
    if (req.path.startsWith('/big')) return { status: 200, body: 'ü'.repeat(3000) };
    return { status: 404, body: 'no such hook' };
  });
});
afterAll(() => receiver.close());
const received = (path: string) => receiver.requests.filter((r) => r.path === path);

describe('§13.1 webhook delivery', () => {
  it('POSTs the default event, signed; a 2xx is success with the status and an excerpt', async () => {
    const f = fire();
    const outcome = await deliver({ type: 'http', target: { url: receiver.url('/ok/default') }, fire: f, signingSecrets: [secret], allowList: LOOPBACK, pool });
    expect(outcome.status).toBe('success');
    expect(outcome.result).toEqual({ http_status: 200, response_excerpt: 'received' });
    expect(outcome.retryable).toBe(false);
    const [r] = received('/ok/default');
    expect(r.method).toBe('POST');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe('scheduler-webhooks/1');
    expect(r.headers.host).toBe(`127.0.0.1:${receiver.port}`);
    expect(r.headers['webhook-id']).toBe(occurrenceId(f));
    expect(outcome.deliveryId).toBe(occurrenceId(f));
    expect(Number(r.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verify(r)).toEqual({
      version: '0',
      id: occurrenceId(f),
      'detail-type': 'Scheduled Event',
      source: 'aws.scheduler',
      account: '123456789012',
      time: '2026-03-01T09:00:00Z',
      region: 'eu-west-1',
      resources: [f.scheduleArn],
      detail: '{}',
    });
    expect(outcome.request).toEqual({ type: 'http', method: 'POST', url: receiver.url('/ok/default'), headers: expect.objectContaining({ 'webhook-id': occurrenceId(f) }), body: r.body });
  });

  it('sends the target body with its method and headers, byte for byte as signed', async () => {
    const body = { report: 'daily', ids: [1, 2, 3], note: 'é ✓' };
    const outcome = await deliverHttp({
      target: { url: receiver.url('/created/custom'), method: 'PUT', headers: { Authorization: 'Bearer abc', 'X-Env': 'prod', 'User-Agent': 'mine/2' }, body },
      fire: fire(),
      signingSecrets: [secret],
      allowList: LOOPBACK, pool,
    });
    expect(outcome.result).toEqual({ http_status: 201, response_excerpt: '' });
    const [r] = received('/created/custom');
    expect(r.method).toBe('PUT');
    expect(r.headers.authorization).toBe('Bearer abc');
    expect(r.headers['x-env']).toBe('prod');
    expect(r.headers['user-agent']).toBe('mine/2');
    expect(r.body).toBe(JSON.stringify(body));
    expect(verify(r)).toEqual(body);
    // Tampering breaks the signature.
    expect(() => verify({ ...r, body: r.body.replace('daily', 'weekly') })).toThrow('No matching signature found');
    expect(() => verify(r, generateSigningSecret())).toThrow('No matching signature found');
  });

  it('a 500 answer fails (retryable) and the retry of the same occurrence carries the same webhook-id', async () => {
    const f = fire();
    const first = await deliverHttp({ target: { url: receiver.url('/flaky/a') }, fire: f, signingSecrets: [secret], allowList: LOOPBACK, pool });
    expect(first.status).toBe('invocation_error');
    expect(first.result).toEqual({ error: 'http_error', message: 'HTTP 503 Service Unavailable: not a 2xx answer', http_status: 503, response_excerpt: 'try later' });
    expect(first.retryable).toBe(true);
    const second = await deliverHttp({ target: { url: receiver.url('/flaky/a') }, fire: { ...f, attempt: 2 }, signingSecrets: [secret], allowList: LOOPBACK, pool });
    expect(second.status).toBe('success');
    expect(second.result).toEqual({ http_status: 204, response_excerpt: '' });
    const [a, b] = received('/flaky/a');
    expect(a.headers['webhook-id']).toBe(occurrenceId(f));
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.body).toBe(a.body); // the same event: receivers de-duplicate by id
    expect(verify(a)).toEqual(verify(b));
    // Another occurrence of the same schedule is another id.
    const next = await deliverHttp({ target: { url: receiver.url('/fail/b') }, fire: { ...f, scheduledFor: new Date('2026-03-01T10:00:00.000Z') }, signingSecrets: [secret], allowList: LOOPBACK, pool });
    expect(next.result).toMatchObject({ error: 'http_error', http_status: 500, response_excerpt: 'database down' });
    expect(received('/fail/b')[0].headers['webhook-id']).not.toBe(a.headers['webhook-id']);
  });

  it('during a rotation both secrets sign: a receiver holding either verifies', async () => {
    const current = generateSigningSecret();
    await deliverHttp({ target: { url: receiver.url('/ok/rotation') }, fire: fire(), signingSecrets: [current, secret], allowList: LOOPBACK, pool });
    const [r] = received('/ok/rotation');
    expect(r.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(r, current)).toMatchObject({ source: 'aws.scheduler' });
    expect(verify(r, secret)).toMatchObject({ source: 'aws.scheduler' });
  });

  it('a receiver that hangs is cut at timeout_seconds', async () => {
    const started = performance.now();
    const outcome = await deliverHttp({ target: { url: receiver.url('/hang/1'), timeout_seconds: 1 }, fire: fire(), signingSecrets: [secret], allowList: LOOPBACK, pool });
    const elapsed = performance.now() - started;
    expect(outcome.status).toBe('invocation_error');
    expect(outcome.result).toEqual({ error: 'timeout', message: 'no answer within 1 s' });
    expect(outcome.retryable).toBe(true);
    expect(received('/hang/1')).toHaveLength(1); // it got the request, and never answered
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(5000); // cut at 1 s, far from the 10 s default
  });

  it('a redirect is an http_error and is never followed', async () => {
    const outcome = await deliverHttp({ target: { url: receiver.url('/redirect/x') }, fire: fire(), signingSecrets: [secret], allowList: LOOPBACK, pool });
    expect(outcome.result).toEqual({ error: 'http_error', message: 'HTTP 302 Found: a redirect, which is not followed', http_status: 302, response_excerpt: 'see /moved-here' });
    expect(outcome.retryable).toBe(false);
    expect(received('/moved-here')).toHaveLength(0);
  });

  it('keeps at most 1 KiB of the answer, never half a character', async () => {
    const outcome = await deliverHttp({ target: { url: receiver.url('/big') }, fire: fire(), signingSecrets: [secret], allowList: LOOPBACK, pool });
    const excerpt = (outcome.result as { response_excerpt: string }).response_excerpt;
    expect(excerpt).toBe('ü'.repeat(512)); // 2 bytes each: exactly 1,024 bytes
    expect(Buffer.byteLength(excerpt)).toBe(1024);
  });

  it('a 404 is not retryable; a port nothing listens on is connection_failed (retryable)', async () => {
    const missing = await deliverHttp({ target: { url: receiver.url('/nothing-here') }, fire: fire(), signingSecrets: [secret], allowList: LOOPBACK, pool });
    expect(missing).toMatchObject({ status: 'invocation_error', retryable: false, result: { error: 'http_error', http_status: 404 } });
    const port = await closedPort();
    const refused = await deliverHttp({ target: { url: `http://127.0.0.1:${port}/hook` }, fire: fire(), signingSecrets: [secret], allowList: LOOPBACK, pool });
    expect(refused.status).toBe('invocation_error');
    expect(refused.result).toMatchObject({ error: 'connection_failed', message: expect.stringContaining('ECONNREFUSED') });
    expect(refused.retryable).toBe(true);
  });
});

describe('§13.1 destinations refused at fire (destination_refused), before any connection', () => {
  it.each([
    ['http://127.0.0.1:{port}/ok/r1', '127.0.0.1 is a loopback address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it'],
    ['http://[::1]:{port}/ok/r2', '::1 is a loopback address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it'],
    ['http://0.0.0.0:{port}/ok/r3', '0.0.0.0 is an unspecified address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it'],
    ['http://localhost:{port}/ok/r4', 'a loopback address (localhost resolves to it)'],
  ])('%s', async (template, message) => {
    const url = template.replace('{port}', String(receiver.port));
    const before = receiver.requests.length;
    const outcome = await deliverHttp({ target: { url }, fire: fire(), signingSecrets: [secret], allowList: NONE, pool });
    expect(outcome.status).toBe('invocation_error');
    expect(outcome.result).toMatchObject({ error: 'destination_refused', message: expect.stringContaining(message) });
    expect(outcome.retryable).toBe(false);
    expect(receiver.requests.length).toBe(before);
  });

  it('a host listed in SCHEDULER_HTTP_ALLOWED_HOSTS is delivered to (localhost → 127.0.0.1)', async () => {
    const outcome = await deliverHttp({ target: { url: `http://localhost:${receiver.port}/ok/allowed` }, fire: fire(), signingSecrets: [secret], allowList: { hosts: ['localhost'], addresses: [], ranges: [] }, pool });
    expect(outcome.result).toEqual({ http_status: 200, response_excerpt: 'received' });
    expect(received('/ok/allowed')[0].headers.host).toBe(`localhost:${receiver.port}`);
  });
});

describe('bounded pool', () => {
  it('16 deliveries more than SCHEDULER_DELIVERY_CONCURRENCY (default 64) to a slow receiver: at most that many at a time, and all arrive', async () => {
    const limit = loadConfig().delivery.concurrency;
    const bounded = createDeliveryPool(limit);
    const slow = await startReceiver(() => ({ status: 200, body: 'ok', delayMs: 200 }));
    try {
      const all = Array.from({ length: limit + 16 }, () => deliverHttp({ target: { url: slow.url('/slow') }, fire: fire(), signingSecrets: [secret], allowList: LOOPBACK, pool: bounded }));
      await new Promise((r) => setTimeout(r, 100));
      expect(bounded.load()).toEqual({ active: limit, pending: 16 });
      const outcomes = await Promise.all(all);
      expect(outcomes.every((o) => o.status === 'success')).toBe(true);
      expect(slow.requests).toHaveLength(limit + 16);
      expect(slow.maxInFlight()).toBe(limit);
      expect(bounded.load()).toEqual({ active: 0, pending: 0 });
    } finally {
      await slow.close();
    }
  });
});
