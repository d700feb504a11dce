/** Shared helpers for end-to-end tests that speak to the HTTP API with the bootstrap key. */
import { expect, type APIRequestContext } from '@playwright/test';
import { request as httpRequest } from 'node:http';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { ErrorBodySchema } from '../lib/errors';
import { SCHEDULER_COMMANDS, type DeadLetter, type Run, type Schedule } from '../lib/schedules/contract';
import { WORKFLOW_COMMANDS } from '../lib/workflows/contract';

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

const COMMANDS: Record<string, Record<string, { answer: z.ZodType }>> = { scheduler_blobhub: SCHEDULER_COMMANDS, workflow_blobhub: WORKFLOW_COMMANDS };

/**
 * Every answer the server sends matches the contract (SPEC §3): a 200 its command's answer schema
 * (strict: an undeclared field fails), anything else the error body. Fails the test otherwise.
 */
export function expectContractAnswer(body: Record<string, unknown>, status: number, answer: unknown): void {
  const contract = COMMANDS[String(body.engine)]?.[String(body.command)];
  const schema = status === 200 ? contract?.answer : ErrorBodySchema;
  if (!schema) throw new Error(`a 200 answer to a command without a contract: ${String(body.engine)}/${String(body.command)}`);
  const r = schema.safeParse(answer);
  expect(r.success, `${String(body.command)} answered ${status} outside its contract:\n${r.success ? '' : z.prettifyError(r.error)}\n${JSON.stringify(answer).slice(0, 2000)}`).toBe(true);
}

/** POST a command to a revision; returns status and JSON body, checked against the contract. */
export async function command(request: APIRequestContext, revisionId: string, body: Record<string, unknown>) {
  const res = await request.post(`/api/v1/revisions/${revisionId}/data`, { headers, data: body });
  const out = { status: res.status(), body: await res.json() };
  expectContractAnswer(body, out.status, out.body);
  return out;
}

export const FOLLOWING_TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
};

/** The seeded scheduler; its pages are titled "Ops scheduler". */
export const OPS_SCHEDULER = 'ops-scheduler';

/** A schedule as the API returns it (SPEC §5.1): the contract's type. */
export type ApiSchedule = Schedule;

/** A run record (SPEC §8.1): the contract's type. */
export type ApiRun = Run;

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

/**
 * POST JSON to the main e2e server from another loopback address (`127.0.0.2`, …): the client socket
 * is bound to `localAddress`, so the server sees a different client address than the browser's
 * 127.0.0.1 (loopback holds all of 127.0.0.0/8). Returns status, headers and body text.
 */
export function postFrom(
  localAddress: string,
  path: string,
  body: unknown,
  extraHeaders: Record<string, string> = {},
  port: number = E2E_PORT,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': data.length, ...extraHeaders } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** GET from another loopback address (see `postFrom`). */
export function getFrom(localAddress: string, path: string, extraHeaders: Record<string, string> = {}, port: number = E2E_PORT) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', localAddress, headers: extraHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A workflow command that must succeed (200); returns its body. */
export async function workflowCommand(request: APIRequestContext, revisionId: string, name: string, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await command(request, revisionId, { engine: 'workflow_blobhub', command: name, ...fields });
  expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as Record<string, unknown>;
}

/**
 * A session of its own in the seeded `procedures` blob's default revision. Closed (`close()`), a fire
 * into it is refused with `session_not_open` (SPEC §8.1), so a test gets failed attempts through the
 * real worker; a save needs it open (SPEC §6.3 checks the target as a fire would), so close it after
 * saving the schedule. `reopen()` lets a later fire (a replay) succeed; `remove()` deletes it.
 */
export async function testSession(
  request: APIRequestContext,
  alias: string,
): Promise<{ alias: string; close: () => Promise<void>; reopen: () => Promise<void>; remove: () => Promise<void> }> {
  const rev = await revisionOf(request, 'procedures');
  const session = (await workflowCommand(request, rev, 'create_session', { alias })).session as { id: string };
  return {
    alias,
    close: async () => void (await workflowCommand(request, rev, 'close_session', { session_id: session.id })),
    reopen: async () => void (await workflowCommand(request, rev, 'reopen_session', { session_id: session.id })),
    remove: async () => {
      const res = await command(request, rev, { engine: 'workflow_blobhub', command: 'delete_session', session_id: session.id });
      expect([200, 404], JSON.stringify(res.body)).toContain(res.status);
    },
  };
}

/** A one-time schedule's `invocation_time` about `seconds` from now (whole seconds), as wall time in `zone`. */
export function wallTimeIn(seconds: number, zone = 'UTC'): string {
  return DateTime.fromMillis(Math.ceil(Date.now() / 1000) * 1000 + seconds * 1000, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
}

/** Every dead letter of a scheduler, all pages of `list_dead_letters` (10 a page, newest first). */
export async function listAllDeadLetters(request: APIRequestContext, revisionId: string): Promise<DeadLetter[]> {
  const out: DeadLetter[] = [];
  let cursor: string | null = null;
  do {
    const body = await schedulerCommand(request, revisionId, 'list_dead_letters', cursor ? { start_dead_letter_id: cursor } : {});
    out.push(...(body.dead_letters as DeadLetter[]));
    cursor = body.last_dead_letter_id as string | null;
  } while (cursor);
  return out;
}
