/**
 * SPEC §17 in the manifest (docs/cli.md): a scheduler's alert rules as code, against the real product
 * API (lib/testing/product-api.ts) on a real database. `diff` shows the rules to create, `deploy`
 * creates them (a rule on a schedule it creates too), a rule the manifest does not list is drift left
 * alone, `pull` writes the rules back and then `diff` is clean; a rule naming a channel the org does
 * not have stops `deploy` before it writes anything, at the rule's line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { seed } from '../../prisma/seed';
import { errorResponse } from '../../lib/api';
import { actorFromApiKey } from '../../lib/auth';
import { deleteAlertChannel } from '../../lib/schedules';
import type { AlertRule } from '../../lib/schedules/contract';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { serveProductApi } from '../../lib/testing/product-api';
import type { FetchServer } from '../../lib/testing/serve-fetch';
import { createTestDb, type TestDb } from '../../lib/testing/test-db';
import { ApiClient } from '../client';
import { deploy } from '../commands/deploy';
import { diff } from '../commands/diff';
import { pull } from '../commands/pull';
import type { ConnectionFlags } from '../connection';
import { EXIT, type Io } from '../io';

const KEY = 'cli-alerts-api-key-0123456789';
let t: TestDb;
let server: FetchServer;
let client: ApiClient;
let revisionId: string;
let dir: string;
let flags: ConnectionFlags;

async function run(command: (opts: { file: string; flags: ConnectionFlags; io: Io }) => Promise<number>, file: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command({ file, flags, io: { out: (l) => out.push(l), err: (l) => err.push(l) } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const rules = async () => (await client.command<{ rules: AlertRule[] }>(revisionId, 'scheduler_blobhub', 'list_alert_rules', {})).rules;

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, KEY, 'cli-alerts-operator-password');
  server = await serveProductApi({ db: t.db, limits: TEST_LIMITS });
  client = new ApiClient({ url: server.url, apiKey: KEY });
  const res = await fetch(`${server.url}/api/v1/orgs/acme-corp/blobs`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'scheduler', alias: 'cli-alerts', name: 'cli-alerts' }) });
  revisionId = ((await res.json()) as { default_revision_id: string }).default_revision_id;
  for (const name of ['ops-slack', 'ops-mail']) {
    await t.db.alertChannel.create({ data: { orgId: ctx.orgId, name, type: 'slack', config: { url_origin: 'https://hooks.example.com' }, sealed: {}, createdAt: new Date(), updatedAt: new Date() } });
  }
  flags = { url: server.url, apiKey: KEY, scheduler: 'acme-corp/cli-alerts' };
  dir = mkdtempSync(path.join(tmpdir(), 'scheduler-cli-alerts-'));
});
afterAll(async () => {
  await server?.close();
  await t?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const MANIFEST = `scheduler: {org: acme-corp, blob: cli-alerts}
schedules:
  nightly-report:
    repeat: recurring_cron
    cron_expression: 0 2 * * ? *
    timezone: UTC
    invocation_target:
      target: {org: acme-corp, blob: procedures, revision: default, session: nightly-batch}
      workflow: {definition: triage}
alerts:
  - events: [failure, recovered]
    channels: [ops-slack]
    failure_tolerance: 3
  - schedule: nightly-report
    events: [silence]
    channels: [ops-mail, ops-slack]
    silence_seconds: 90000
`;

it('deploy creates the manifest\'s rules; drift is left alone; pull writes them back and diff is clean', async () => {
  const file = path.join(dir, 'schedules.yaml');
  writeFileSync(file, MANIFEST);
  const planned = await run(diff, file);
  expect(planned.code, planned.err).toBe(EXIT.differs);
  expect(planned.out).toContain('+ alert rule on all schedules: failure, recovered → ops-slack');
  expect(planned.out).toContain('+ alert rule on nightly-report: silence → ops-mail, ops-slack');

  const deployed = await run(deploy, file);
  expect(deployed.code, deployed.err).toBe(EXIT.ok);
  expect(deployed.out).toContain('2 alert rules created');
  const made = await rules();
  expect(made.map((r) => [r.events, r.channels.map((c) => c.name), r.failure_tolerance, r.silence_seconds ?? null])).toEqual([
    [['failure', 'recovered'], ['ops-slack'], 3, null],
    [['silence'], ['ops-mail', 'ops-slack'], 1, 90000],
  ]);
  expect((await run(diff, file)).code).toBe(EXIT.ok);

  // A rule made elsewhere is drift: reported, left alone.
  await client.command(revisionId, 'scheduler_blobhub', 'create_alert_rule', { events: ['paused'], channels: ['ops-mail'] });
  const drift = await run(diff, file);
  expect(drift.out).toMatch(/! drift: alert rule [0-9a-f-]{36} \(paused → ops-mail\) is not in the manifest/);
  expect((await run(deploy, file)).code).toBe(EXIT.ok);
  expect(await rules()).toHaveLength(3);

  // pull writes every deployed rule; diff is then clean.
  const pulled = await run(pull, file);
  expect(pulled.code, pulled.err).toBe(EXIT.ok);
  const doc = parseYaml(readFileSync(file, 'utf8')) as { alerts: unknown[] };
  expect(doc.alerts).toEqual([
    { events: ['failure', 'recovered'], channels: ['ops-slack'], failure_tolerance: 3 },
    { schedule: 'nightly-report', events: ['silence'], channels: ['ops-mail', 'ops-slack'], silence_seconds: 90000 },
    { events: ['paused'], channels: ['ops-mail'] },
  ]);
  const clean = await run(diff, file);
  expect(clean.code, clean.out).toBe(EXIT.ok);
});

it('a rule naming a channel the org does not have stops deploy before anything is written, at its line', async () => {
  const file = path.join(dir, 'bad.yaml');
  writeFileSync(file, `${MANIFEST.replace('cli-alerts}', 'cli-alerts}').replace('nightly-report:\n', 'weekly-report:\n').replace('schedule: nightly-report', 'schedule: weekly-report')}  - events: [failure]\n    channels: [nobody-here]\n`);
  const before = (await rules()).length;
  const r = await run(deploy, file);
  expect(r.code).toBe(EXIT.error);
  expect(r.err).toMatch(/bad\.yaml:19: invalid_request_body: channels: "nobody-here" is not an alert channel of the scheduler's org/);
  expect(r.err).toContain('nothing was written');
  expect(await rules()).toHaveLength(before);
  const listed = await client.listAllSchedules(revisionId);
  expect(listed.map((s) => s.alias)).not.toContain('weekly-report');
});

it('a channel rules name is not deleted (409 channel_in_use naming them); a rule left naming no channel is pulled as drift and diff accepts the file', async () => {
  const file = path.join(dir, 'orphan.yaml');
  writeFileSync(file, MANIFEST);
  const org = await t.db.org.findFirstOrThrow({ where: { alias: 'acme-corp' } });
  const hook = await t.db.alertChannel.create({ data: { orgId: org.id, name: 'old-hook', type: 'slack', config: { url_origin: 'https://hooks.example.com' }, sealed: {}, createdAt: new Date(), updatedAt: new Date() } });
  const { rule } = await client.command<{ rule: AlertRule }>(revisionId, 'scheduler_blobhub', 'create_alert_rule', { events: ['dead_letter'], channels: ['old-hook'] });

  // Decision 340: the API refuses, naming the rule; the channel and the rule stay as they were.
  // (The route's own answer: `errorResponse` of what the domain threw, as every API route answers.)
  const actor = (await actorFromApiKey(t.db, KEY))!;
  const refused = errorResponse(await deleteAlertChannel(t.db, { actor, org: 'acme-corp', channel: 'old-hook' }).then(() => null, (e: unknown) => e));
  expect(refused.status).toBe(409);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('channel_in_use');
  expect(body.error.message).toContain(`the alert channel "old-hook" is named by 1 alert rule: scheduler "cli-alerts": dead_letter on all schedules (rule ${rule.id})`);
  expect(await t.db.alertChannel.count({ where: { id: hook.id } })).toBe(1);
  expect((await rules()).find((r) => r.id === rule.id)?.channels.map((c) => c.name)).toEqual(['old-hook']);

  // A rule naming no channel (left by a channel deleted before the refusal existed): pull leaves it out
  // and says so; diff accepts the pulled file, reporting the rule as drift.
  await t.db.alertRuleChannel.deleteMany({ where: { ruleId: rule.id } });
  const pulled = await run(pull, file);
  expect(pulled.code, pulled.err).toBe(EXIT.ok);
  expect(pulled.out).toContain(`! drift: alert rule ${rule.id} (dead_letter) names no channel, so it alerts no one`);
  const doc = parseYaml(readFileSync(file, 'utf8')) as { alerts: { channels: string[] }[] };
  expect(doc.alerts.every((r) => r.channels.length > 0)).toBe(true);
  expect(doc.alerts).toHaveLength((await rules()).length - 1);
  const checked = await run(diff, file);
  expect(checked.err).toBe('');
  expect(checked.code, checked.out).toBe(EXIT.ok);
  expect(checked.out).toContain(`! drift: alert rule ${rule.id} (dead_letter) names no channel`);

  // Once no rule names it, the channel is deleted.
  await client.command(revisionId, 'scheduler_blobhub', 'delete_alert_rule', { rule_id: rule.id });
  await deleteAlertChannel(t.db, { actor, org: 'acme-corp', channel: 'old-hook' });
  expect(await t.db.alertChannel.count({ where: { id: hook.id } })).toBe(0);
});
