/** Shared helpers for end-to-end tests that speak to the HTTP API with the bootstrap key. */
import { expect, type APIRequestContext } from '@playwright/test';

/** Set as SCHEDULER_BOOTSTRAP_API_KEY for the server playwright.config.ts starts. */
export const E2E_API_KEY = 'e2e-bootstrap-key-0123456789';
export const headers = { 'x-api-key': E2E_API_KEY };
/** Set as SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID / SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY: acme-corp's write pair (SPEC §14). */
export const E2E_ACCESS_KEY_ID = 'AKIAE2EBOOTSTRAP0001';
export const E2E_SECRET_ACCESS_KEY = 'e2e-bootstrap-secret-access-key-0123456789';
/** Set as SCHEDULER_DEMO_PASSWORD: the seeded operator's login password in the e2e servers. */
export const E2E_DEMO_PASSWORD = 'e2e-operator-password-0123';
export const DEMO_EMAIL = 'operator@acme-corp.example';
/** The operator's logged-in browser state, written by e2e/global-setup.ts and used by every test by default. */
export const STORAGE_STATE = 'data/e2e-storage-state.json';
/** Ids, passwords and keys of the two-org access fixtures (e2e/setup/access-fixtures.ts), written by global setup. */
export const ACCESS_FIXTURES = 'data/e2e-access.json';
/** Everything the main e2e server (web + worker) printed, teed by playwright.config.ts. */
export const SERVER_LOG = 'data/e2e-server.log';
/** The main server (web + worker). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** A second web app with tight limits (min interval 120 s, 3 schedules per scheduler), no worker. */
export const LIMITS_PORT = E2E_PORT + 1;
export const LIMITS_BASE_URL = `http://127.0.0.1:${LIMITS_PORT}`;

/** The default revision id of blob `blob` in org `acme-corp` (SPEC §3.3 discovery). */
export async function revisionOf(request: APIRequestContext, blob: string): Promise<string> {
  const res = await request.get(`/api/v1/orgs/acme-corp/blobs/${blob}`, { headers });
  expect(res.status()).toBe(200);
  return (await res.json()).default_revision_id as string;
}

/** POST a command to a revision; returns status and JSON body. */
export async function command(request: APIRequestContext, revisionId: string, body: Record<string, unknown>) {
  const res = await request.post(`/api/v1/revisions/${revisionId}/data`, { headers, data: body });
  return { status: res.status(), body: await res.json() };
}

export const FOLLOWING_TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
};

/** The seeded scheduler; its pages are titled "Ops scheduler". */
export const OPS_SCHEDULER = 'ops-scheduler';

/** A schedule as the API returns it (SPEC §5.1): the fields the browser tests read. */
export interface ApiSchedule {
  id: string;
  alias?: string;
  description?: string;
  repeat: 'one_time' | 'recurring_cron';
  cron_expression?: string;
  invocation_time?: string;
  timezone: string;
  enabled: boolean;
  state: 'active' | 'completed';
  next_fire_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A run record (SPEC §8.1): the fields the browser tests read. */
export interface ApiRun {
  id: string;
  schedule_id: string;
  scheduled_for: string;
  trigger: 'schedule' | 'manual';
  created_at: string;
  status: 'success' | 'limit_exceeded' | 'invocation_error';
  result: { execution_id?: string; revision_id?: string; error?: string };
}

/** A scheduler command that must succeed (200); returns its body. */
export async function schedulerCommand(
  request: APIRequestContext,
  revisionId: string,
  name: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const res = await command(request, revisionId, { engine: 'scheduler_blobhub', command: name, ...fields });
  expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as Record<string, unknown>;
}

/** Every schedule of a scheduler, all pages of `list_schedules` (50 a page), optionally filtered. */
export async function listAllSchedules(
  request: APIRequestContext,
  revisionId: string,
  filters: { state?: 'active' | 'completed'; enabled?: boolean } = {},
): Promise<ApiSchedule[]> {
  const out: ApiSchedule[] = [];
  let cursor: string | null = null;
  do {
    const body = await schedulerCommand(request, revisionId, 'list_schedules', { ...filters, ...(cursor ? { start_schedule_id: cursor } : {}) });
    out.push(...(body.schedules as ApiSchedule[]));
    cursor = body.last_schedule_id as string | null;
  } while (cursor);
  return out;
}

/** `create_schedule` following procedures / nightly-batch / triage unless the fields say otherwise. */
export async function createApiSchedule(request: APIRequestContext, revisionId: string, fields: Record<string, unknown>): Promise<ApiSchedule> {
  const body = await schedulerCommand(request, revisionId, 'create_schedule', { invocation_target: FOLLOWING_TARGET, timezone: 'UTC', ...fields });
  return body.schedule as ApiSchedule;
}

/** `get_schedule` that must succeed. */
export async function getApiSchedule(request: APIRequestContext, revisionId: string, scheduleId: string): Promise<ApiSchedule> {
  return (await schedulerCommand(request, revisionId, 'get_schedule', { schedule_id: scheduleId })).schedule as ApiSchedule;
}

/** Delete the schedules a test made (a 404 is fine: the test may have deleted them itself). */
export async function deleteApiSchedules(request: APIRequestContext, revisionId: string, ids: Iterable<string>): Promise<void> {
  for (const id of ids) {
    const res = await command(request, revisionId, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: id });
    expect([200, 404], JSON.stringify(res.body)).toContain(res.status);
  }
}

let uniqueCounter = 0;
/** A suffix no other test run uses, in alias grammar (SPEC §4): `<UTC yyyymmddhhmmss>-<counter><random>`. */
export function uniqueSuffix(): string {
  const d = new Date();
  const stamp = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  uniqueCounter += 1;
  return `${stamp}-${uniqueCounter}${Math.random().toString(36).slice(2, 6)}`;
}
