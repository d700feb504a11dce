/**
 * Fuzzing the command endpoint (scheduler contract, acceptance 5; security hardening, acceptance 3):
 * ≥ 2,000 random and mutated bodies — wrong types, unknown keys, huge strings, nulls, and the bodies a
 * penetration test broke the server with: `input_data` nested 65 to 10,000 deep, lone surrogates in a
 * field, invalid UTF-8 inside a string, and 2 MB bodies. Every body is invalid by construction; every
 * answer must be a 4xx with a stable SPEC code (`invalid_request_body` with a path for depth and
 * surrogates, `413 request_too_large` for 2 MB), never a 5xx, and the scheduler's schedule count must
 * not change. fast-check prints the seed on failure.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { FOLLOWING_TARGET, headers } from './api';

const STABLE_CODES = new Set([
  'invalid_request_body', 'unknown_command', 'invalid_cron_expression', 'invalid_timezone', 'invalid_invocation_time',
  'invalid_date_window', 'interval_too_short', 'invalid_alias', 'invalid_invocation_target', 'invalid_workflow_reference',
  'schedule_limit_reached', 'alias_taken', 'schedule_not_found', 'request_too_large',
]);

const VALID = {
  engine: 'scheduler_blobhub',
  command: 'create_schedule',
  alias: 'fuzz-base',
  description: 'fuzz',
  repeat: 'recurring_cron',
  cron_expression: '0 9 ? * MON-FRI *',
  timezone: 'UTC',
  invocation_target: FOLLOWING_TARGET,
};

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const PATHS: string[][] = [
  ['alias'], ['description'], ['repeat'], ['cron_expression'], ['timezone'], ['invocation_target'],
  ['invocation_target', 'target'], ['invocation_target', 'target', 'blob'], ['invocation_target', 'target', 'session'],
  ['invocation_target', 'workflow'], ['invocation_target', 'workflow', 'definition'], ['invocation_target', 'input_data'],
  ['start_date'], ['end_date'], ['enabled'], ['invocation_time'],
];

/** `obj` with `value` at `path` (undefined deletes); copies only the objects along the path. */
function setAt(obj: Json, path: readonly string[], value: Json | undefined): Json {
  const base = typeof obj === 'object' && obj !== null && !Array.isArray(obj) ? obj : {};
  const [key, ...rest] = path;
  const copy: { [k: string]: Json } = { ...base };
  if (rest.length === 0) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  } else copy[key] = setAt(copy[key] ?? {}, rest, value);
  return copy;
}

const deep = (depth: number): Json => (depth === 0 ? 'bottom' : { n: deep(depth - 1) });
/** `[[…[1]…]]` nested `depth` deep, built without recursion (10,000 levels). */
const deepText = (depth: number, open: '[' | '{"n":') => open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth);
const LONE = ['\\ud800', '\\udfff', 'x\\udbff', '\\udc00y']; // JSON escapes (backslash u), not UTF-16 code units
const weirdValue = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.constant(null),
  fc.string({ maxLength: 5000 }),
  fc.integer({ min: 1, max: 200 }).map((n) => 'é'.repeat(n * 100)),
  fc.integer({ min: 100, max: 2000 }).map((d) => deep(d)),
  fc.array(fc.jsonValue() as fc.Arbitrary<Json>, { maxLength: 50 }),
);

/** A mutation that surely makes the body invalid. */
const breaking = fc.oneof(
  fc.record({ kind: fc.constant('unknown-key' as const), container: fc.constantFrom<readonly string[]>([], ['invocation_target'], ['invocation_target', 'target'], ['invocation_target', 'workflow']), key: fc.string({ minLength: 1, maxLength: 40 }).filter((k) => !['alias', 'description', 'repeat', 'invocation_time', 'cron_expression', 'timezone', 'start_date', 'end_date', 'enabled', 'invocation_target_type', 'invocation_target', 'org', 'blob', 'revision', 'session', 'definition', 'input_data', 'target', 'workflow', '__proto__', 'engine', 'command'].includes(k)) }),
  fc.record({ kind: fc.constant('wrong-type' as const), path: fc.constantFrom(['repeat'], ['timezone'], ['invocation_target'], ['invocation_target', 'target'], ['enabled']), value: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.constant({})) }),
  fc.record({ kind: fc.constant('missing' as const), path: fc.constantFrom(['repeat'], ['timezone'], ['invocation_target'], ['invocation_target', 'target'], ['invocation_target', 'workflow', 'definition'], ['cron_expression']) }),
  fc.record({ kind: fc.constant('read-only' as const), key: fc.constantFrom('id', 'state', 'next_fire_at', 'created_by', 'created_at', 'updated_at', 'skipped_occurrences'), value: fc.jsonValue() as fc.Arbitrary<Json> }),
  fc.record({ kind: fc.constant('raw' as const), text: fc.constantFrom('{', '[]', 'null', '"x"', '{"engine":"scheduler_blobhub","command":"create_schedule","alias":"\\ud800\\udc00\\ud800"', '\u0000', '{"a":1}}', '{"engine":"scheduler_blobhub","command":"create_schedule","repeat":"recurring_cron","timezone":"UTC","cron_expression":"\\uDFFF"}') }),
  fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Uint8Array.from([0xff, 0xfe, ...b])) }),
  // input_data nested past the 64-level limit (arrays or objects, up to 10,000 deep).
  fc.record({ kind: fc.constant('deep-input' as const), depth: fc.oneof(fc.integer({ min: 65, max: 200 }), fc.constantFrom(1000, 10_000)), open: fc.constantFrom<'[' | '{"n":'>('[', '{"n":') }),
  // A lone surrogate (as a JSON escape) in a string field or a key.
  fc.record({ kind: fc.constant('lone-surrogate' as const), field: fc.constantFrom('description', 'alias', 'timezone', 'key'), lone: fc.constantFrom(...LONE) }),
  // Otherwise valid JSON whose description holds bytes that are not UTF-8.
  fc.record({ kind: fc.constant('bad-utf8-string' as const), bytes: fc.constantFrom([0xc3, 0x28], [0xa0, 0xa1], [0xe2, 0x28, 0xa1], [0xf0, 0x28, 0x8c, 0xbc], [0xed, 0xa0, 0x80], [0xc0, 0xaf]) }),
  // 2 MB: over the 1 MiB body limit.
  fc.record({ kind: fc.constant('huge' as const), size: fc.integer({ min: 2_000_000, max: 2_100_000 }) }),
);
const extra = fc.array(fc.record({ path: fc.constantFrom(...PATHS), value: weirdValue }), { maxLength: 3 });

test('§5.2 2,000 fuzzed bodies: only 4xx with a stable code, nothing written', async ({ request }) => {
  test.setTimeout(600_000);
  const blob = await request.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type: 'scheduler', alias: `fuzz-${Date.now().toString(36)}` } });
  const revision = (await blob.json()).default_revision_id as string;
  const url = `/api/v1/revisions/${revision}/data`;
  const countSchedules = async () => (await (await request.post(url, { headers, data: { engine: 'scheduler_blobhub', command: 'list_schedules' } })).json()).schedules.length;
  const statuses = new Map<number, number>();
  const kinds = new Map<string, number>();

  await fc.assert(
    fc.asyncProperty(breaking, extra, async (brk, extras) => {
      let payload: string | Buffer;
      const valid = JSON.stringify(VALID);
      if (brk.kind === 'raw') payload = brk.text;
      else if (brk.kind === 'bytes') payload = Buffer.from(brk.bytes);
      else if (brk.kind === 'deep-input') {
        payload = valid.replace('"input_data":[', `"input_data":[{"alias":"deep","value":${deepText(brk.depth, brk.open)}},`);
      } else if (brk.kind === 'lone-surrogate') {
        payload = brk.field === 'key' ? valid.replace('{', `{"k${brk.lone}":1,`) : valid.replace(`"${brk.field}":"`, `"${brk.field}":"${brk.lone}`);
      } else if (brk.kind === 'bad-utf8-string') {
        const [head, tail] = valid.split('"description":"fuzz');
        payload = Buffer.concat([Buffer.from(`${head}"description":"fu`), Buffer.from(brk.bytes), Buffer.from(`zz${tail}`)]);
      } else if (brk.kind === 'huge') {
        payload = valid.replace('"description":"fuzz"', `"description":"${'d'.repeat(brk.size)}"`);
      } else {
        let body = VALID as unknown as Json;
        for (const e of extras) body = setAt(body, e.path, e.value);
        if (brk.kind === 'unknown-key') body = setAt(body, [...brk.container, brk.key], 1);
        else if (brk.kind === 'wrong-type') body = setAt(body, brk.path, brk.value as Json);
        else if (brk.kind === 'missing') body = setAt(body, brk.path, undefined);
        else body = setAt(body, [brk.key], brk.value);
        payload = JSON.stringify(body);
      }
      const res = await request.post(url, { headers: { ...headers, 'content-type': 'application/json' }, data: payload });
      statuses.set(res.status(), (statuses.get(res.status()) ?? 0) + 1);
      const text = await res.text();
      expect(res.status(), text.slice(0, 300)).toBeGreaterThanOrEqual(400);
      expect(res.status(), text.slice(0, 300)).toBeLessThan(500);
      const json = JSON.parse(text);
      expect(STABLE_CODES.has(json.error.code), json.error.code).toBe(true);
      if (brk.kind === 'deep-input') expect(json.error).toMatchObject({ code: 'invalid_request_body', path: expect.stringMatching(/^invocation_target\.input_data\.0\.value(\.(0|n))+$/) });
      if (brk.kind === 'lone-surrogate' || brk.kind === 'bad-utf8-string') expect(json.error.code).toBe('invalid_request_body');
      if (brk.kind === 'lone-surrogate' && brk.field !== 'key') expect(json.error.path).toBe(brk.field);
      if (brk.kind === 'huge') expect([res.status(), json.error.code]).toEqual([413, 'request_too_large']);
      kinds.set(brk.kind, (kinds.get(brk.kind) ?? 0) + 1);
      expect(text).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
    }),
    { numRuns: 2000, seed: Number(process.env.FC_SEED) || undefined, verbose: 1 },
  );
  expect(await countSchedules()).toBe(0);
  expect(statuses.get(500) ?? 0).toBe(0);
  expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2000);
  for (const k of ['deep-input', 'lone-surrogate', 'bad-utf8-string', 'huge']) expect(kinds.get(k) ?? 0, k).toBeGreaterThan(50);
  console.log(`fuzz: statuses ${JSON.stringify(Object.fromEntries(statuses))}; kinds ${JSON.stringify(Object.fromEntries(kinds))}`);
});
