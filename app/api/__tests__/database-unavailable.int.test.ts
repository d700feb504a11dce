/**
 * A database out of reach, and a connection cut mid-request, under the real HTTP handler
 * (`app/api/v1/revisions/[revisionId]/data/route.ts`) on real PostgreSQL, reached through a TCP proxy
 * on loopback (lib/testing/cutting-proxy.ts) that the test cuts as a network cut or a server restart
 * would (lib/errors `conditionError`):
 * - the connection cut when the create's COMMIT is sent: `503 database_connection_lost`, whose message
 *   says the change may or may not have been saved; PostgreSQL never received the COMMIT, so nothing
 *   was saved, and the next request (a new pooled connection) succeeds without a restart;
 * - the proxy refusing connections: reads and writes answer `503 database_unavailable` at once (the
 *   login form goes back to the form with `?error=database_unavailable`), and answer 200 again once it
 *   listens;
 * - never the driver's text, never a bare 500.
 * PostgreSQL only: SQLite is a file in the process, with no connection to lose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import { loginResponse } from '../../../lib/api';
import { closeDb, getDb } from '../../../lib/db';
import { startCuttingProxy, type CuttingProxy } from '../../../lib/testing/cutting-proxy';
import { createTestDb, testDialect, type TestDb } from '../../../lib/testing/test-db';

const KEY = 'database-fault-test-key-0123456789';
type RouteModule = { POST: (req: Request, ctx: { params: Promise<{ revisionId: string }> }) => Promise<Response> };

describe.skipIf(testDialect() !== 'postgresql')('PostgreSQL out of reach or cut mid-request (real route handler)', () => {
  let t: TestDb;
  let proxy: CuttingProxy;
  let route: RouteModule;
  let revisionId: string;

  beforeAll(async () => {
    t = await createTestDb('postgresql');
    await seed(t.db, KEY, 'database-fault-operator-password');
    revisionId = (await t.db.blob.findFirstOrThrow({ where: { alias: 'ops-scheduler' } })).defaultRevisionId!;
    const target = new URL(t.url);
    proxy = await startCuttingProxy(Number(target.port || 5432));
    const proxied = new URL(t.url);
    proxied.port = String(proxy.port);
    // The route handlers' client (lib/api runtime → getDb) is this one, through the proxy.
    await closeDb();
    getDb({ databaseUrl: proxied.toString(), databasePoolSize: 2 });
    route = (await import('../v1/revisions/[revisionId]/data/route')) as unknown as RouteModule;
  });
  afterAll(async () => {
    await closeDb();
    await proxy?.stop();
    await t?.cleanup();
  });

  async function call(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
    const res = await route.POST(
      new Request(`http://127.0.0.1/api/v1/revisions/${revisionId}/data`, { method: 'POST', headers: { 'x-api-key': KEY }, body: JSON.stringify({ engine: 'scheduler_blobhub', ...body }) }),
      { params: Promise.resolve({ revisionId }) },
    );
    const text = await res.text();
    return { status: res.status, json: JSON.parse(text) as Record<string, unknown>, text };
  }
  const create = (alias: string) =>
    call({
      command: 'create_schedule', alias, repeat: 'recurring_cron', cron_expression: '0 3 * * ? *', timezone: 'UTC', enabled: false,
      invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
    });
  const stored = (alias: string) => t.db.schedule.count({ where: { revisionId, alias } });

  it('a create whose COMMIT is cut answers 503 database_connection_lost; nothing half-written; the next request works', async () => {
    expect((await create('before-the-cut')).status).toBe(200);

    const cut = proxy.cutWhenClientSends('COMMIT');
    const lost = await create('cut-at-commit');
    await cut;
    expect(lost.status).toBe(503);
    expect(lost.json).toEqual({
      error: {
        code: 'database_connection_lost',
        message:
          'the connection to the database was lost while the request ran: a change it was making may or may not have been saved (a read changed nothing); read it back before trying again (a create with the same client_token is safe to retry)',
      },
    });
    expect(lost.text).not.toMatch(/Connection terminated|ECONNRESET|57P01|prisma/i);
    // The COMMIT never reached PostgreSQL: the transaction rolled back whole.
    expect(await stored('cut-at-commit')).toBe(0);

    // The pool dropped the broken connection: the same process creates again, no restart.
    const again = await create('cut-at-commit');
    expect(again.status, again.text).toBe(200);
    expect(await stored('cut-at-commit')).toBe(1);
    expect(await stored('before-the-cut')).toBe(1);
  });

  it('while the database cannot be reached, reads and writes answer 503 database_unavailable at once; then 200 again', async () => {
    await proxy.stop();
    // The pool drops its idle connections when their sockets close (as PostgreSQL's restart closes
    // them); a request racing that closing may meet one first, and answers database_connection_lost.
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      const started = Date.now();
      const read = await call({ command: 'list_schedules' });
      const write = await create('while-unreachable');
      for (const r of [read, write]) {
        expect(r.status).toBe(503);
        expect(r.json).toEqual({ error: { code: 'database_unavailable', message: 'the database cannot be reached: the request did not run; try again once the database is back' } });
        expect(r.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|prisma/i);
      }
      expect(Date.now() - started).toBeLessThan(10_000);
      // The login form goes back to the form, which names the condition (not a JSON page).
      const login = await loginResponse(
        new Request('http://127.0.0.1/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: 'operator@example.com', password: 'whatever-password', next: '/schedulers' }).toString(),
        }),
      );
      expect(login.status).toBe(303);
      expect(login.headers.get('location')).toBe('/login?error=database_unavailable');
    } finally {
      await proxy.start();
    }
    expect(await stored('while-unreachable')).toBe(0);
    const back = await call({ command: 'list_schedules' });
    expect(back.status, back.text).toBe(200);
    expect((back.json.schedules as { alias: string }[]).map((s) => s.alias)).toEqual(expect.arrayContaining(['before-the-cut', 'cut-at-commit']));
  });
});
