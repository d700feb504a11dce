/**
 * Cross-tenant access matrix (SPEC §2; issue "Accounts and access", acceptance 1). Two orgs
 * (`acme-corp`, `globex-corp`: e2e/setup/access-fixtures.ts, written by global setup), each with
 * users of every role, org keys and personal keys of each role. Every principal of one org tries
 * every scheduler command, every workflow command, the discovery routes and every page against the
 * OTHER org's objects. Every refusal must be byte-identical (status and body) to the answer for an
 * object that does not exist, and nothing of the other org may change.
 */
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AccessFixtures, OrgKey, OrgObjects } from './setup/access-fixtures';
import { ACCESS_FIXTURES } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fx = JSON.parse(readFileSync(path.join(ROOT, ACCESS_FIXTURES), 'utf8')) as AccessFixtures;
const ORG_KEYS: OrgKey[] = ['acme', 'globex'];
const other = (org: OrgKey): OrgKey => (org === 'acme' ? 'globex' : 'acme');

/** Ids that no object has: the "does not exist" side of every comparison. */
const MISSING_ID = '0f0e0d0c-0b0a-4909-8807-060504030201';
const MISSING_ALIAS = 'no-such-thing-here';

type Body = Record<string, unknown>;
interface Answer {
  status: number;
  body: string;
}

const keyLabel = (k: AccessFixtures['keys'][number]) => `${k.org} ${k.owner} key ${k.owner === 'user' ? `(${k.userRole} user) ` : ''}${k.role}`;

async function post(api: APIRequestContext, key: string, url: string, data: Body): Promise<Answer> {
  const res = await api.post(url, { headers: { authorization: `Bearer ${key}` }, data });
  return { status: res.status(), body: await res.text() };
}
async function get(api: APIRequestContext, key: string, url: string): Promise<Answer> {
  const res = await api.get(url, { headers: { 'x-api-key': key } });
  return { status: res.status(), body: await res.text() };
}

/** Every scheduler command of SPEC §3.1 with parameters that name the scheduler's own schedule. */
function schedulerCommands(o: OrgObjects): Body[] {
  const target = { target: { org: o.alias, blob: o.workflow.alias, revision: 'default', session: o.session.alias }, workflow: { definition: o.definition.alias } };
  return [
    { command: 'get_schedule', schedule_id: o.schedule.id },
    { command: 'get_schedule', schedule_id: o.schedule.alias },
    { command: 'list_schedules' },
    { command: 'list_schedules', start_schedule_id: o.schedule.id },
    { command: 'list_executions', schedule_id: o.schedule.id },
    { command: 'create_schedule', repeat: 'recurring_cron', cron_expression: '0 4 * * ? *', timezone: 'UTC', enabled: false, invocation_target: target },
    { command: 'update_schedule', schedule_id: o.schedule.id, description: 'changed across tenants' },
    { command: 'delete_schedule', schedule_id: o.schedule.id },
    { command: 'run_schedule', schedule_id: o.schedule.id },
    { command: 'set_all_enabled', enabled: true },
    { command: 'get_signing_secret' },
    { command: 'rotate_signing_secret' },
  ].map((c) => ({ engine: 'scheduler_blobhub', ...c }));
}

/** Every workflow command of SPEC §3.2 with parameters that name the blob's own session and definition. */
function workflowCommands(o: OrgObjects): Body[] {
  return [
    { command: 'create_session', alias: 'intruder-session' },
    { command: 'get_session', session_id: o.session.id },
    { command: 'get_session', session_id: o.session.alias },
    { command: 'update_session', session_id: o.session.alias, alias: 'renamed-session' },
    { command: 'close_session', session_id: o.session.id },
    { command: 'reopen_session', session_id: o.session.id },
    { command: 'delete_session', session_id: o.session.id },
    { command: 'list_sessions' },
    { command: 'create_definition', alias: 'intruder-def', name: 'Intruder' },
    { command: 'update_definition', definition_id: o.definition.alias, name: 'Changed' },
    { command: 'list_definitions' },
    { command: 'create_execution', target: { session: o.session.alias }, workflow: { definition: o.definition.alias }, input_data: [] },
    { command: 'list_workflow_executions' },
    { command: 'list_workflow_executions', session_id: o.session.id },
    { command: 'commit_revision' },
    { command: 'branch_revision' },
    { command: 'set_default_revision' },
  ].map((c) => ({ engine: 'workflow_blobhub', ...c }));
}

/** What the other org's objects look like through its own admin key, to prove nothing changed. */
async function snapshot(api: APIRequestContext, org: OrgKey): Promise<string> {
  const o = fx.orgs[org];
  const key = fx.keys.find((k) => k.org === org && k.owner === 'org' && k.role === 'write')!.key;
  const parts = await Promise.all([
    post(api, key, `/api/v1/revisions/${o.scheduler.revisionId}/data`, { engine: 'scheduler_blobhub', command: 'list_schedules' }),
    post(api, key, `/api/v1/revisions/${o.scheduler.revisionId}/data`, { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: o.schedule.id }),
    post(api, key, `/api/v1/revisions/${o.workflow.revisionId}/data`, { engine: 'workflow_blobhub', command: 'list_sessions' }),
    post(api, key, `/api/v1/revisions/${o.workflow.revisionId}/data`, { engine: 'workflow_blobhub', command: 'list_definitions' }),
    post(api, key, `/api/v1/revisions/${o.workflow.revisionId}/data`, { engine: 'workflow_blobhub', command: 'list_workflow_executions' }),
    get(api, key, `/api/v1/orgs/${o.alias}/blobs`),
  ]);
  for (const p of parts) expect(p.status, p.body).toBe(200);
  return parts.map((p) => p.body).join('\n');
}

let before: Record<OrgKey, string>;

test.beforeAll(async ({ request }) => {
  before = { acme: await snapshot(request, 'acme'), globex: await snapshot(request, 'globex') };
});

test.afterAll(async ({ request }) => {
  // Nothing readable was writable across the boundary: both orgs' objects are exactly as before.
  for (const org of ORG_KEYS) expect(await snapshot(request, org), `${org} changed`).toBe(before[org]);
});

test('every key can use its own org (the refusals below are not broken keys)', async ({ request }) => {
  for (const k of fx.keys) {
    const o = fx.orgs[k.org];
    const own = await post(request, k.key, `/api/v1/revisions/${o.scheduler.revisionId}/data`, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: o.schedule.id });
    expect(own.status, `${keyLabel(k)}: ${own.body}`).toBe(200);
    // A read key (or a read member's key) may read but not write: 403, since it already knows the scheduler.
    const canWrite = k.role === 'write' && (k.owner === 'org' || k.userRole !== 'read');
    const write = await post(request, k.key, `/api/v1/revisions/${o.scheduler.revisionId}/data`, { engine: 'scheduler_blobhub', command: 'set_all_enabled', enabled: false });
    expect(write.status, `${keyLabel(k)}: ${write.body}`).toBe(canWrite ? 200 : 403);
  }
});

test('§2 every scheduler and workflow command on the other org\'s revisions answers exactly as a missing revision', async ({ request }) => {
  for (const k of fx.keys) {
    const theirs = fx.orgs[other(k.org)];
    for (const [revisionId, bodies] of [
      [theirs.scheduler.revisionId, schedulerCommands(theirs)],
      [theirs.workflow.revisionId, workflowCommands(theirs)],
    ] as const) {
      for (const body of bodies) {
        const refused = await post(request, k.key, `/api/v1/revisions/${revisionId}/data`, body);
        const missing = await post(request, k.key, `/api/v1/revisions/${MISSING_ID}/data`, body);
        expect(refused, `${keyLabel(k)} ${body.command}`).toEqual(missing);
        expect(refused.status).toBe(404);
        expect(JSON.parse(refused.body)).toEqual({ error: { code: 'not_found', message: 'revision not found' } });
      }
    }
  }
});

test('§2 references from inside one\'s own org to the other org\'s objects answer exactly as missing ones', async ({ request }) => {
  for (const k of fx.keys) {
    const mine = fx.orgs[k.org];
    const theirs = fx.orgs[other(k.org)];
    const sched = `/api/v1/revisions/${mine.scheduler.revisionId}/data`;
    const flows = `/api/v1/revisions/${mine.workflow.revisionId}/data`;
    const pairs: [string, Body, Body][] = [
      // Their schedule id in my scheduler: schedule_not_found, as for an id nobody has.
      [sched, { command: 'get_schedule', schedule_id: theirs.schedule.id }, { command: 'get_schedule', schedule_id: MISSING_ID }],
      [sched, { command: 'list_executions', schedule_id: theirs.schedule.id }, { command: 'list_executions', schedule_id: MISSING_ID }],
      [sched, { command: 'update_schedule', schedule_id: theirs.schedule.id, enabled: true }, { command: 'update_schedule', schedule_id: MISSING_ID, enabled: true }],
      [sched, { command: 'delete_schedule', schedule_id: theirs.schedule.id }, { command: 'delete_schedule', schedule_id: MISSING_ID }],
      [sched, { command: 'run_schedule', schedule_id: theirs.schedule.id }, { command: 'run_schedule', schedule_id: MISSING_ID }],
      // A schedule targeting their workflow blob (by alias, by id): the §6.3 refusal, as for a missing blob.
      ...(['alias', 'id'] as const).map((by): [string, Body, Body] => {
        const t = (org: string, blob: string) => ({
          command: 'create_schedule', repeat: 'recurring_cron', cron_expression: '0 5 * * ? *', timezone: 'UTC', enabled: false,
          invocation_target: { target: { org, blob, revision: 'default', session: theirs.session.alias }, workflow: { definition: theirs.definition.alias } },
        });
        return by === 'alias' ? [sched, t(theirs.alias, theirs.workflow.alias), t(theirs.alias, MISSING_ALIAS)] : [sched, t(mine.alias, theirs.workflow.blobId), t(mine.alias, MISSING_ID)];
      }),
      // An execution in my blob running their definition (qualified reference): as a missing definition.
      [
        flows,
        { command: 'create_execution', target: { session: mine.session.alias }, workflow: { org: theirs.alias, blob: theirs.workflow.alias, definition: theirs.definition.alias }, input_data: [] },
        { command: 'create_execution', target: { session: mine.session.alias }, workflow: { org: theirs.alias, blob: MISSING_ALIAS, definition: theirs.definition.alias }, input_data: [] },
      ],
      // Their session id as a filter in my blob.
      [flows, { command: 'list_workflow_executions', session_id: theirs.session.id }, { command: 'list_workflow_executions', session_id: MISSING_ID }],
      [flows, { command: 'get_session', session_id: theirs.session.id }, { command: 'get_session', session_id: MISSING_ID }],
    ];
    for (const [url, refusedBody, missingBody] of pairs) {
      const engine = url === sched ? 'scheduler_blobhub' : 'workflow_blobhub';
      const refused = await post(request, k.key, url, { engine, ...refusedBody });
      const missing = await post(request, k.key, url, { engine, ...missingBody });
      expect(refused, `${keyLabel(k)} ${refusedBody.command} → ${refused.body}`).toEqual(missing);
      expect(refused.status).toBeGreaterThanOrEqual(400);
    }
  }
});

test('§3.3 discovery of the other org answers exactly as a missing org or blob', async ({ request }) => {
  for (const k of fx.keys) {
    const mine = fx.orgs[k.org];
    const theirs = fx.orgs[other(k.org)];
    const pairs: [Answer, Answer][] = [
      [await get(request, k.key, `/api/v1/orgs/${theirs.alias}/blobs`), await get(request, k.key, `/api/v1/orgs/${MISSING_ALIAS}/blobs`)],
      [await get(request, k.key, `/api/v1/orgs/${theirs.id}/blobs`), await get(request, k.key, `/api/v1/orgs/${MISSING_ID}/blobs`)],
      [await get(request, k.key, `/api/v1/orgs/${theirs.alias}/blobs/${theirs.scheduler.alias}`), await get(request, k.key, `/api/v1/orgs/${MISSING_ALIAS}/blobs/${theirs.scheduler.alias}`)],
      [await get(request, k.key, `/api/v1/orgs/${theirs.alias}/blobs/${theirs.workflow.blobId}`), await get(request, k.key, `/api/v1/orgs/${theirs.alias}/blobs/${MISSING_ID}`)],
      [await get(request, k.key, `/api/v1/orgs/${mine.alias}/blobs/${theirs.workflow.blobId}`), await get(request, k.key, `/api/v1/orgs/${mine.alias}/blobs/${MISSING_ID}`)],
    ];
    for (const [refused, missing] of pairs) {
      expect(refused, keyLabel(k)).toEqual(missing);
      expect(refused.status).toBe(404);
    }
    // Creating a blob in their org: the same answer as in an org that does not exist.
    const create = { type: 'scheduler', alias: 'intruder-scheduler' };
    const refused = await request.post(`/api/v1/orgs/${theirs.alias}/blobs`, { headers: { 'x-api-key': k.key }, data: create });
    const missing = await request.post(`/api/v1/orgs/${MISSING_ALIAS}/blobs`, { headers: { 'x-api-key': k.key }, data: create });
    expect({ status: refused.status(), body: await refused.text() }).toEqual({ status: missing.status(), body: await missing.text() });
    expect(refused.status()).toBe(404);
    // Their org is not listed among what I can read.
    const list = JSON.parse((await get(request, k.key, `/api/v1/orgs/${mine.alias}/blobs`)).body) as { blobs: { id: string }[] };
    expect(list.blobs.map((b) => b.id)).not.toContain(theirs.scheduler.blobId);
  }
});

test('§2 a refusal takes no longer than a miss (no timing gap large enough to tell)', async ({ request }) => {
  const k = fx.keys.find((x) => x.org === 'acme' && x.owner === 'user' && x.userRole === 'admin' && x.role === 'write')!;
  const theirs = fx.orgs.globex;
  const body = { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: theirs.schedule.id };
  const time = async (revisionId: string) => {
    const t = performance.now();
    await post(request, k.key, `/api/v1/revisions/${revisionId}/data`, body);
    return performance.now() - t;
  };
  const refused: number[] = [];
  const missing: number[] = [];
  for (let i = 0; i < 5; i++) await time(MISSING_ID); // warm-up
  for (let i = 0; i < 30; i++) {
    refused.push(await time(theirs.scheduler.revisionId));
    missing.push(await time(MISSING_ID));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  expect(Math.abs(median(refused) - median(missing))).toBeLessThan(25);
});

test('§2 a browser session does not authenticate the API: /api/v1 needs a key', async ({ request }) => {
  // `request` carries the operator's session cookie (storage state) but no key.
  const res = await request.get('/api/v1/orgs/acme-corp/blobs');
  expect(res.status()).toBe(401);
  expect((await res.json()).error.code).toBe('unauthorized');
});

test('§2 every page of the other org\'s scheduler, schedule and admin answers 404, as for objects that do not exist', async () => {
  for (const u of fx.users) {
    const ctx = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL, storageState: { cookies: [], origins: [] } });
    try {
      const login = await ctx.post('/auth/login', { data: { email: u.email, password: u.password } });
      expect(login.status(), await login.text()).toBe(200);
      const mine = fx.orgs[u.org];
      const theirs = fx.orgs[other(u.org)];
      const pages = (o: OrgObjects, scheduleId: string) => [
        `/schedulers/${o.scheduler.revisionId}`,
        `/schedulers/${o.scheduler.revisionId}/new`,
        `/schedulers/${o.scheduler.revisionId}/schedules/${scheduleId}`,
        `/schedulers/${o.scheduler.revisionId}/schedules/${scheduleId}/edit`,
      ];
      // My own pages render (the 404s below are not a broken login).
      for (const url of pages(mine, mine.schedule.id)) {
        const res = await ctx.get(url);
        expect(res.status(), `${u.email} ${url}`).toBe(200);
      }
      const refused = [
        ...pages(theirs, theirs.schedule.id),
        // Their schedule inside my scheduler's pages.
        `/schedulers/${mine.scheduler.revisionId}/schedules/${theirs.schedule.id}`,
        `/schedulers/${mine.scheduler.revisionId}/schedules/${theirs.schedule.id}/edit`,
        `/orgs/${theirs.alias}/admin`,
        `/orgs/${theirs.id}/admin`,
      ];
      const missing = [...pages({ ...theirs, scheduler: { ...theirs.scheduler, revisionId: MISSING_ID } }, MISSING_ID), `/orgs/${MISSING_ALIAS}/admin`];
      for (const url of [...refused, ...missing]) {
        const res = await ctx.get(url);
        expect(res.status(), `${u.email} ${url}`).toBe(404);
        const html = await res.text();
        expect(html).toContain('This page does not exist, or you cannot see it.');
        expect(html).not.toContain(theirs.scheduler.name);
        expect(html).not.toContain(`Matrix schedule of ${theirs.alias}`);
      }
      // Their scheduler is not listed; mine is.
      const list = await (await ctx.get('/schedulers')).text();
      expect(list).toContain(mine.scheduler.name);
      expect(list).not.toContain(theirs.scheduler.name);
      // The own org's admin page: only for its admins; a read or write member gets the same 404.
      const admin = await ctx.get(`/orgs/${mine.alias}/admin`);
      expect(admin.status(), `${u.email} own admin page`).toBe(u.role === 'admin' ? 200 : 404);
    } finally {
      await ctx.dispose();
    }
  }
});
