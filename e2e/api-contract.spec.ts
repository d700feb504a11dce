/**
 * The scheduler API over HTTP (SPEC §3): authentication, discovery, and the round trip of a schedule
 * through create → get (by id and by alias) → list → list_executions, with the SPEC's error answers.
 */
import { expect, test } from '@playwright/test';
import { command, FOLLOWING_TARGET, headers, revisionOf } from './api';

test('§3 no credentials → 401 unauthorized; a wrong key → 401', async ({ request }) => {
  const scheduler = await revisionOf(request, 'ops-scheduler');
  const none = await request.post(`/api/v1/revisions/${scheduler}/data`, { data: { engine: 'scheduler_blobhub', command: 'list_schedules' } });
  expect(none.status()).toBe(401);
  expect((await none.json()).error.code).toBe('unauthorized');
  const wrong = await request.post(`/api/v1/revisions/${scheduler}/data`, { headers: { authorization: 'Bearer nope' }, data: { engine: 'scheduler_blobhub', command: 'list_schedules' } });
  expect(wrong.status()).toBe(401);
});

test('§3.3 discovery lists the org\'s blobs with their revisions', async ({ request }) => {
  const res = await request.get('/api/v1/orgs/acme-corp/blobs', { headers });
  expect(res.status()).toBe(200);
  const { blobs } = await res.json();
  const byAlias = Object.fromEntries(blobs.map((b: { alias: string }) => [b.alias, b]));
  expect(byAlias['ops-scheduler'].type).toBe('scheduler');
  expect(byAlias['procedures'].type).toBe('workflow');
  expect(byAlias['procedures'].revisions).toEqual([expect.objectContaining({ state: 'draft', is_default: true })]);
  const missing = await request.get('/api/v1/orgs/acme-corp/blobs/no-such-blob', { headers });
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.code).toBe('not_found');
});

test('§3.1 create, get by id and by alias, list, list_executions; errors carry SPEC codes', async ({ request }) => {
  const scheduler = await revisionOf(request, 'ops-scheduler');
  const created = await command(request, scheduler, {
    engine: 'scheduler_blobhub',
    command: 'create_schedule',
    alias: 'contract-roundtrip',
    repeat: 'recurring_cron',
    cron_expression: '0 9 ? * MON-FRI *',
    timezone: 'America/New_York',
    enabled: false,
    invocation_target: FOLLOWING_TARGET,
  });
  expect(created.status).toBe(200);
  const s = created.body.schedule;
  expect(s).not.toHaveProperty('description'); // omitted when absent, never null
  expect(s.next_fire_at).toBeNull(); // disabled
  expect(s.created_by.type).toBe('org');

  const byAlias = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: '  Contract-Roundtrip ' });
  expect(byAlias.status).toBe(200);
  expect(byAlias.body.schedule).toEqual(s);

  const list = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'list_schedules', enabled: false });
  expect(list.status).toBe(200);
  expect(list.body.schedules.map((x: { id: string }) => x.id)).toContain(s.id);
  expect(list.body.last_schedule_id).toBeNull();

  const runs = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: s.id, include_schedule: true });
  expect(runs.body).toEqual({ executions: [], last_execution_id: null, schedule: s });
  // list_executions takes an id only: an alias is schedule_not_found.
  const aliasRefused = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: 'contract-roundtrip' });
  expect(aliasRefused.status).toBe(404);
  expect(aliasRefused.body.error.code).toBe('schedule_not_found');

  const badCron = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'create_schedule', repeat: 'recurring_cron', cron_expression: '0 9 ? * 8 *', timezone: 'UTC', invocation_target: FOLLOWING_TARGET });
  expect(badCron.status).toBe(400);
  expect(badCron.body.error.code).toBe('invalid_cron_expression');
  expect(badCron.body.error.message).toContain('day-of-week');

  const unknown = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'launch_rockets' });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.code).toBe('unknown_command');

  expect((await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: s.id })).status).toBe(200);
});

test('§3 the OpenAPI 3.1 document is served and describes every scheduler command', async ({ request }) => {
  const res = await request.get('/api/v1/openapi.json');
  expect(res.status()).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
  const schemas = Object.keys(doc.components.schemas);
  for (const c of ['create_schedule', 'get_schedule', 'update_schedule', 'delete_schedule', 'list_schedules', 'list_executions', 'run_schedule', 'set_all_enabled', 'get_signing_secret', 'rotate_signing_secret']) {
    expect(schemas).toContain(`${c}_request`);
  }
  expect(doc.components.schemas.create_schedule_request.additionalProperties).toBe(false);
});
