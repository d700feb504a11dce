/** Shared helpers for end-to-end tests that speak to the HTTP API with the bootstrap key. */
import { expect, type APIRequestContext } from '@playwright/test';

/** Set as SCHEDULER_BOOTSTRAP_API_KEY for the server playwright.config.ts starts. */
export const E2E_API_KEY = 'e2e-bootstrap-key-0123456789';
export const headers = { 'x-api-key': E2E_API_KEY };
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
