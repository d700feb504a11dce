/**
 * SPEC §14 "Signing": fuzzing the EventBridge-compatible API with 10,000 signed requests, in the
 * manner of the product API's fuzz (e2e/contract-fuzz.spec.ts: fast-check, mutated valid bodies, the
 * bodies a penetration test broke the server with), here through the facade's own request handler on
 * a real database: lone UTF-16 surrogates (as JSON escapes) in Description, Target.Input, Name, group
 * names and tag keys and values; forged NextTokens (huge, negative and fractional instants, surrogates,
 * arrays, other versions); wrong types, nulls and huge strings at every path of a valid body. Every
 * write is invalid by construction. No answer may be a 5xx, every write must be an AWS 4xx (a list with
 * a forged token may answer a page), and nothing may be stored by a refusal: schedules, groups, tags, client tokens and the existing schedule's version
 * are unchanged.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../../prisma/seed';
import { loadConfig } from '../../../config';
import { NodeSha256 } from '../../../testing/node-sha256';
import { createTestDb, type TestDb } from '../../../testing/test-db';
import { handleEventBridgeRequest } from '../index';

const BOOT = { accessKeyId: 'AKIAFUZZBOOT00000001', secretAccessKey: 'fuzz-boot-secret-0123456789abcdef' };
const REGION = 'us-east-1';
const ROLE = 'arn:aws:iam::123456789012:role/scheduler';
const RUNS = 10_000;

const signer = new SignatureV4({ service: 'scheduler', region: REGION, credentials: BOOT, sha256: NodeSha256 });

let t: TestDb;
const runtime = () => ({ db: t.db, limits: loadConfig().limits });

/** Send one request signed as the SDK signs it (`query` already encoded); the status and body. */
async function send(method: string, path: string, query: string, body: string): Promise<{ status: number; text: string }> {
  const signed = await signer.sign({
    method,
    protocol: 'http:',
    hostname: '127.0.0.1',
    path,
    query: Object.fromEntries(query ? query.split('&').map((p) => p.split('=').map(decodeURIComponent) as [string, string]) : []),
    headers: { host: '127.0.0.1', 'content-type': 'application/json', ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
    body,
  });
  const req = new Request(`http://127.0.0.1${path}${query ? `?${query}` : ''}`, { method, headers: signed.headers as Record<string, string>, ...(body ? { body } : {}) });
  const res = await handleEventBridgeRequest(req, { runtime: runtime() });
  return { status: res.status, text: await res.text() };
}

/** What a refusal must leave as it was. */
async function stored() {
  const existing = await t.db.schedule.findFirst({ where: { name: 'fuzz-existing' }, select: { version: true, description: true } });
  return {
    schedules: await t.db.schedule.count(),
    groups: await t.db.scheduleGroup.count(),
    blobs: await t.db.blob.count(),
    tokens: await t.db.clientToken.count(),
    tags: JSON.stringify(await t.db.scheduleGroup.findMany({ select: { tags: true, updatedAt: true }, orderBy: { blobId: 'asc' } })),
    existing,
  };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** A lone surrogate as a JSON escape inside otherwise ordinary text (JSON.stringify would escape it the same way). */
const LONE = fc.constantFrom('\\ud800', '\\udfff', 'x\\udbff', '\\udc00y', 'ok\\ud83d', '\\ude00!');
const VALID_CREATE: Record<string, Json> = {
  ScheduleExpression: 'cron(0 8 * * ? *)',
  FlexibleTimeWindow: { Mode: 'OFF' },
  Target: { Arn: 'https://hooks.example.com/in', RoleArn: ROLE, Input: '{"k":1}' },
  Description: 'fuzz',
};
const weird = fc.oneof(fc.jsonValue() as fc.Arbitrary<Json>, fc.constant(null), fc.string({ maxLength: 3000 }), fc.integer(), fc.double(), fc.constant('é'.repeat(5000)));

/** Serialize `obj` with the text `marker` replaced by a lone-surrogate escape (so the body is still JSON, carrying the escape). */
const withLone = (obj: Json, lone: string) => JSON.stringify(obj).replace('__LONE__', lone);
const b64 = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o), 'utf8').toString('base64url');

const request = fc.oneof(
  // Lone surrogates in the members SPEC §14 names, on create and update.
  fc.record({
    lone: LONE,
    method: fc.constantFrom('POST', 'PUT'),
    where: fc.constantFrom('Description', 'Input', 'RoleArn', 'GroupName', 'DlqArn'),
  }).map(({ lone, method, where }) => {
    const body: Record<string, Json> = JSON.parse(JSON.stringify(VALID_CREATE));
    const target = body.Target as Record<string, Json>;
    if (where === 'Description') body.Description = `a __LONE__ b`;
    if (where === 'Input') target.Input = '{"k":"__LONE__"}';
    if (where === 'RoleArn') target.RoleArn = `${ROLE}__LONE__`;
    if (where === 'GroupName') body.GroupName = 'g__LONE__';
    if (where === 'DlqArn') target.DeadLetterConfig = { Arn: 'arn:aws:sqs:us-east-1:123456789012:q__LONE__' };
    return { method, path: method === 'POST' ? '/schedules/fuzz-new' : '/schedules/fuzz-existing', query: '', body: withLone(body, lone) };
  }),
  // A lone surrogate in a schedule's or group's name (the path, percent-encoded as UTF-8 cannot be; so in the body of a tag request).
  fc.record({ lone: LONE, where: fc.constantFrom('key', 'value', 'group-tag') }).map(({ lone, where }) => {
    if (where === 'group-tag') return { method: 'POST', path: '/schedule-groups/fuzz-group', query: '', body: withLone({ Tags: [{ Key: 'team', Value: 'x__LONE__' }] }, lone) };
    const tag = where === 'key' ? { Key: 'k__LONE__', Value: 'v' } : { Key: 'k', Value: 'v__LONE__' };
    return { method: 'POST', path: `/tags/${encodeURIComponent(`arn:aws:scheduler:${REGION}:000000000000:schedule-group/default`)}`, query: '', body: withLone({ Tags: [tag] }, lone) };
  }),
  // Forged NextTokens.
  fc.record({
    list: fc.constantFrom('/schedules', '/schedule-groups'),
    token: fc.oneof(
      fc.constantFrom(
        b64({ v: 1, t: 1e300, id: 'x' }),
        b64({ v: 1, t: -1e20, id: 'x' }),
        b64({ v: 1, t: 1.5, id: 'x' }),
        b64({ v: 1, t: 8.64e15 + 1, id: 'x' }),
        b64({ v: 1, n: 'a\ud800' }),
        b64({ v: 1, t: 0, id: 'a\udfff' }),
        b64('{"v":1,"t":0,"id":"\\ud800"}'),
        b64('{"v":1,"n":"\\udc00"}'),
        b64([1, 2]),
        b64({ v: 2, n: 'x' }),
        b64({ v: 1, t: '0', id: 1 }),
        b64({ v: 1, n: 'z'.repeat(5000) }),
        b64('null'),
        '%%%',
        '',
      ),
      fc.string({ maxLength: 200 }).map((s) => b64(s)),
      fc.jsonValue().map((v) => b64(v)),
      fc.record({ v: fc.constant(1), t: fc.oneof(fc.double(), fc.integer()), id: fc.string(), n: fc.string() }).map((o) => b64(o)),
    ),
  }).filter(({ token }) => token !== '').map(({ list, token }) => ({ method: 'GET', path: list, query: `NextToken=${encodeURIComponent(token)}`, body: '' })),
  // Wrong types, nulls and huge strings at a path of a valid create, with a lone surrogate in its Description too.
  fc.record({
    path: fc.constantFrom(['ScheduleExpression'], ['FlexibleTimeWindow'], ['FlexibleTimeWindow', 'Mode'], ['Target'], ['Target', 'Arn'], ['Target', 'Input'], ['Target', 'RetryPolicy'], ['State'], ['StartDate'], ['EndDate'], ['ScheduleExpressionTimezone'], ['ClientToken']),
    value: weird,
    lone: LONE,
  }).map(({ path, value, lone }) => {
    const body: Record<string, Json> = JSON.parse(JSON.stringify(VALID_CREATE));
    let at = body as Record<string, Json>;
    for (const k of path.slice(0, -1)) at = (at[k] ?? (at[k] = {})) as Record<string, Json>;
    at[path[path.length - 1]] = value;
    body.Description = 'd__LONE__';
    return { method: 'POST', path: '/schedules/fuzz-typed', query: '', body: withLone(body, lone) };
  }),
);

beforeAll(async () => {
  t = await createTestDb();
  await seed(t.db, undefined, undefined, BOOT);
  const made = await send('POST', '/schedules/fuzz-existing', '', JSON.stringify({ ...VALID_CREATE, Target: { Arn: 'arn:aws:sqs:us-east-1:123456789012:q', RoleArn: ROLE } }));
  expect(made.status).toBe(200);
  const group = await send('POST', '/schedule-groups/fuzz-group', '', JSON.stringify({}));
  expect(group.status).toBe(200);
}, 60_000);
afterAll(async () => t?.cleanup());

describe('SPEC §14: the EventBridge API under fuzzing', () => {
  it(`${RUNS.toLocaleString('en')} invalid signed requests: every answer a 4xx AWS error, none a 5xx, nothing stored by a refusal`, async () => {
    const before = await stored();
    const statuses = new Map<number, number>();
    const fiveHundreds: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const res = await send(r.method, r.path, r.query, r.body);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) fiveHundreds.push(`${r.method} ${r.path}?${r.query} ${r.body.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`);
        const said = `${r.method} ${r.path}?${r.query} ${r.body.slice(0, 300)} → ${res.text.slice(0, 300)}`;
        expect(res.status, said).toBeLessThan(500);
        // A forged NextToken may happen to name a real cursor (a list answers a page); every write is a refusal.
        if (r.method !== 'GET') {
          expect(res.status, said).toBeGreaterThanOrEqual(400);
          expect(JSON.parse(res.text)).toHaveProperty('Message');
        }
      }),
      { numRuns: RUNS },
    );
    expect(fiveHundreds).toEqual([]);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
    expect(await stored()).toEqual(before);
  }, 600_000);
});
