/**
 * Schedules as code round-trip every writable field (SPEC §11), against the real product API: the
 * CLI commands (`pull`, `diff`, `deploy`, `ls`) talk HTTP to the API's real handlers
 * (lib/testing/product-api.ts) on a real database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql).
 * A scheduler holds one schedule of each cadence (one_time, recurring_cron, recurring_rate) and target
 * type (workflow, http, aws with sqs / eventbridge / ecs parameters), every delivery field set; the
 * pulled manifest diffs clean; then each field is changed in turn (`FIELD_EDITS`, which the compiler
 * keeps in step with the contract's field list; one edit per schedule a round): diff shows it and
 * nothing else (exit 2: so the round before left everything equal), deploy applies it, and the API
 * answers the new value. At the end diff is clean and pull changes nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, parse as parseYaml } from 'yaml';
import { seed } from '../../prisma/seed';
import { loadConfig } from '../../lib/config';
import { driverOf } from '../../lib/targets';
import type { Schedule } from '../../lib/schedules/contract';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { serveProductApi } from '../../lib/testing/product-api';
import type { FetchServer } from '../../lib/testing/serve-fetch';
import { createTestDb, type TestDb } from '../../lib/testing/test-db';
import { ApiClient } from '../client';
import { deploy } from '../commands/deploy';
import { diff } from '../commands/diff';
import { ls } from '../commands/ls';
import { pull } from '../commands/pull';
import type { ConnectionFlags } from '../connection';
import { EXIT, type Io } from '../io';
import { editsInOrder, FULL_SCHEDULES, type FieldEdit } from './fixtures';

const KEY = 'cli-roundtrip-api-key-0123456789';
const SCHEDULER = 'cli-roundtrip';

let t: TestDb;
let server: FetchServer;
let client: ApiClient;
let revisionId: string;
let dir: string;
let flags: ConnectionFlags;

/** Run a CLI command with its output captured. */
async function run(command: (opts: { file: string; flags: ConnectionFlags; io: Io }) => Promise<number>, file: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command({ file, flags, io: { out: (l) => out.push(l), err: (l) => err.push(l) } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function stored(alias: string): Promise<Schedule> {
  return (await client.command<{ schedule: Schedule }>(revisionId, 'scheduler_blobhub', 'get_schedule', { schedule_id: alias })).schedule;
}

/** The edits in rounds: round k makes the k-th edit of every schedule that has one (each schedule's edits in order). */
function rounds(): { field: string; edit: FieldEdit }[][] {
  const byAlias = new Map<string, { field: string; edit: FieldEdit }[]>();
  for (const e of editsInOrder()) byAlias.set(e.edit.alias, [...(byAlias.get(e.edit.alias) ?? []), e]);
  const n = Math.max(...[...byAlias.values()].map((l) => l.length));
  return Array.from({ length: n }, (_, k) => [...byAlias.values()].flatMap((l) => (l[k] ? [l[k]] : [])));
}

function valueAt(v: unknown, p: readonly string[]): unknown {
  return p.reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);
}

/** Edit the manifest file as a user would: set (or remove) each path of `edit` in its entry. */
function editFile(file: string, edit: FieldEdit): void {
  const doc = parseDocument(readFileSync(file, 'utf8'));
  for (const [p, value] of edit.set) {
    const at = ['schedules', edit.alias, ...p];
    if (value === undefined) doc.deleteIn(at);
    else doc.setIn(at, doc.createNode(value));
  }
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
}

beforeAll(async () => {
  t = await createTestDb();
  await seed(t.db, KEY, 'cli-roundtrip-operator-password');
  // The webhook fixtures point at a loopback port nothing listens on: allowed, as an operator would, so saves pass (nothing is sent).
  const httpAllowList = loadConfig({ SCHEDULER_HTTP_ALLOWED_HOSTS: '127.0.0.1' }).delivery.httpAllowList;
  server = await serveProductApi({ db: t.db, limits: TEST_LIMITS, httpAllowList });
  client = new ApiClient({ url: server.url, apiKey: KEY });
  const res = await fetch(`${server.url}/api/v1/orgs/acme-corp/blobs`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'scheduler', alias: SCHEDULER, name: SCHEDULER }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  revisionId = ((await res.json()) as { default_revision_id: string }).default_revision_id;
  flags = { url: server.url, apiKey: KEY, scheduler: `acme-corp/${SCHEDULER}` };
  dir = mkdtempSync(path.join(tmpdir(), 'scheduler-cli-roundtrip-'));
  for (const [alias, fields] of Object.entries(FULL_SCHEDULES)) {
    await client.command(revisionId, 'scheduler_blobhub', 'create_schedule', { alias, ...fields });
  }
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SPEC §11: every field of every cadence and target type round-trips through pull, diff and deploy', () => {
  const file = () => path.join(dir, 'schedules.yaml');

  it('ls names each cadence: cron, rate and one-time', async () => {
    const r = await run(ls, file());
    expect(r.code, r.err).toBe(EXIT.ok);
    expect(r.out).toMatch(/^cron-webhook\s+cron 0 9 \? \* MON-FRI \*\s+America\/New_York\s/m);
    expect(r.out).toMatch(/^rate-sqs\s+rate 10 minutes\s+UTC\s/m);
    expect(r.out).toMatch(/^rate-eventbridge\s+rate 2 hours\s+Asia\/Kolkata\s/m);
    expect(r.out).toMatch(/^once-workflow\s+once 2031-03-01T09:30:00\s+Europe\/Berlin\s+no\s/m);
    expect(r.out).toContain(`5 schedules in acme-corp/${SCHEDULER}.`);
  });

  it('pull writes every field as the schedules were created, and diff then exits 0', async () => {
    const pulled = await run(pull, file());
    expect(pulled.code, pulled.err).toBe(EXIT.ok);
    expect(pulled.out).toContain('5 added, 0 updated, 0 unchanged, 0 removed');
    // Header values are write-only (SPEC §13.5): a new entry gets "••••" for each (decision 147).
    const hook = FULL_SCHEDULES['cron-webhook'];
    const masked = { ...hook, invocation_target: { ...hook.invocation_target, headers: { 'X-Team': '••••', Authorization: '••••' } } };
    expect(parseYaml(readFileSync(file(), 'utf8'))).toEqual({ scheduler: { org: 'acme-corp', blob: SCHEDULER }, schedules: { ...FULL_SCHEDULES, 'cron-webhook': masked } });
    const d = await run(diff, file());
    expect(d.code, `${d.out}\n${d.err}`).toBe(EXIT.ok);
    expect(d.out).toBe(`No differences: 5 schedules in acme-corp/${SCHEDULER} match the manifest.`);
  });

  it('a deploy of a pulled manifest sends "••••" back, and the server keeps every stored header value (the CLI never writes the mask over a secret)', async () => {
    editFile(file(), { alias: 'cron-webhook', set: [[['invocation_target', 'timeout_seconds'], 25]] });
    const d = await run(diff, file());
    expect(d.out).toContain('invocation_target.timeout_seconds: 20 → 25');
    expect(d.out).not.toContain('headers');
    const dep = await run(deploy, file());
    expect(dep.code, `${dep.out}\n${dep.err}`).toBe(EXIT.ok);
    const row = await t.db.schedule.findFirstOrThrow({ where: { revisionId, alias: 'cron-webhook' } });
    const parsed = driverOf('http')!.parse(row.invocationTarget);
    expect(parsed.ok && (parsed.target as { headers?: Record<string, string> }).headers).toEqual({ 'X-Team': 'ops', Authorization: 'Bearer abc' });
    expect(JSON.stringify(row.invocationTarget)).not.toContain('Bearer abc');
  });

  it.each(rounds().map((round, i) => [i, round.map((r) => `${r.edit.alias}.${r.field}`).join(', '), round] as const))(
    'round %i (%s): diff shows each edit and nothing else, deploy applies it, the API answers it',
    async (_i, _names, round) => {
      const before = new Map(await Promise.all(round.map(async ({ edit }) => [edit.alias, await stored(edit.alias)] as const)));
      for (const { edit } of round) editFile(file(), edit);

      const d = await run(diff, file());
      expect(d.code, `${d.out}\n${d.err}`).toBe(EXIT.differs);
      for (const { edit } of round) {
        // The entry's change lines (from its `~ update` line to the next entry's): the edit's, and
        // nothing else (so every earlier round left its schedule equal to the manifest).
        const block = (d.out.split(`~ update ${edit.alias} (${before.get(edit.alias)?.id})\n`)[1]?.split(/\n(?! {4})/)[0] ?? '').split('\n');
        expect(block.some((l) => l.startsWith(`    ${edit.set[0][0].join('.')}`)), `${edit.alias}:\n${d.out}`).toBe(true);
        const edited = new Set(edit.set.map(([p]) => p[0]));
        for (const line of block) expect(edited.has(line.trim().split(/[.:]/)[0]), `${edit.alias}: ${line}`).toBe(true);
      }
      expect(d.out).toContain(`Plan: 0 to create, ${round.length} to update, ${5 - round.length} unchanged.`);

      const dep = await run(deploy, file());
      expect(dep.code, `${dep.out}\n${dep.err}`).toBe(EXIT.ok);
      expect(dep.out).toContain(`0 created, ${round.length} updated, ${5 - round.length} unchanged`);
      for (const { field, edit } of round) {
        expect(dep.out).toMatch(new RegExp(`^~ updated ${edit.alias}: .*\\b${field}\\b`, 'm'));
        const [checkPath, answered] = edit.check ?? edit.set[0];
        const after = await stored(edit.alias);
        expect(valueAt(after, checkPath), `${edit.alias}.${checkPath.join('.')}`).toEqual(answered);
        expect(after.version).toBe((before.get(edit.alias)?.version ?? 0) + 1);
      }
    },
  );

  it('after every edit, diff is clean, pull finds the file already equal to the deployment, and a fresh pull diffs clean', async () => {
    const clean = await run(diff, file());
    expect(clean.code, `${clean.out}\n${clean.err}`).toBe(EXIT.ok);
    const again = await run(pull, file());
    expect(again.code, again.err).toBe(EXIT.ok);
    expect(again.out).toContain('0 added, 0 updated, 5 unchanged, 0 removed (file left as it was)');
    const fresh = path.join(dir, 'fresh.yaml');
    expect((await run(pull, fresh)).code).toBe(EXIT.ok);
    const d = await run(diff, fresh);
    expect(d.code, `${d.out}\n${d.err}`).toBe(EXIT.ok);
    // Written as the API answers: instants in UTC, defaults left out.
    const { schedules } = parseYaml(readFileSync(fresh, 'utf8'));
    expect(schedules['rate-sqs']).toMatchObject({ repeat: 'recurring_cron', cron_expression: '0 6 * * ? *', start_date: '2030-05-01T00:00:00.000Z', enabled: false });
    expect(schedules['rate-sqs'].action_after_completion).toBeUndefined();
    expect(schedules['cron-ecs']).toMatchObject({ repeat: 'recurring_rate', rate_expression: '45 minutes' });
    expect(schedules['cron-ecs'].flexible_time_window).toBeUndefined();
  });

  it('another spelling of what is deployed is no change (the dry run decides): a partial retry_policy, defaults written out', async () => {
    const spelled = path.join(dir, 'spelled.yaml');
    const doc = parseDocument(readFileSync(file(), 'utf8'));
    doc.setIn(['schedules', 'rate-sqs', 'retry_policy'], doc.createNode({ maximum_retry_attempts: 2 }));
    writeFileSync(spelled, doc.toString());
    // A real change first: the age left out is the API's default, 86,400 s.
    const d = await run(diff, spelled);
    expect(d.code).toBe(EXIT.differs);
    expect(d.out).toContain('    retry_policy.maximum_retry_attempts: 0 → 2');
    expect((await run(deploy, spelled)).code).toBe(EXIT.ok);
    expect((await stored('rate-sqs')).retry_policy).toEqual({ maximum_retry_attempts: 2, maximum_event_age_seconds: 86_400 });
    // Now the partial policy, an explicit `enabled: true`, `action_after_completion: none` and an
    // `off` window all say what is deployed.
    doc.setIn(['schedules', 'cron-ecs', 'enabled'], true);
    doc.setIn(['schedules', 'cron-ecs', 'action_after_completion'], 'none');
    doc.setIn(['schedules', 'cron-ecs', 'flexible_time_window'], doc.createNode({ mode: 'off' }));
    writeFileSync(spelled, doc.toString());
    const clean = await run(diff, spelled);
    expect(clean.code, clean.out).toBe(EXIT.ok);
    const none = await run(deploy, spelled);
    expect(none.out).toContain('Nothing to do: 5 schedules');
  });
});
