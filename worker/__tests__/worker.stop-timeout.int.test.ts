/**
 * A worker whose database stopped answering still stops (worker/main.ts): SIGTERM asks for the
 * graceful stop; when the statement in hand never returns, the process exits 1 after
 * WORKER_STOP_TIMEOUT_MS with a line saying why, and a second signal exits at once. Before, such a
 * worker ignored SIGTERM until its supervisor killed it. The "database" is a real TCP listener on
 * loopback that takes connections and never answers (a hung server, a black-holing proxy). It uses no
 * test database, so it runs in the SQLite pass only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../../lib/config';
import { testDialect } from '../../lib/testing/test-db';
import { exited, sleep } from '../../lib/testing/worker-process';
import { workerArgv } from '../launch';

const ROOT = path.resolve(__dirname, '../..');
type Line = { level?: string; msg?: string; [k: string]: unknown };

let silent: Server;
const held: Socket[] = [];
let url = '';
beforeAll(async () => {
  silent = createServer((sock) => void held.push(sock));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  url = `postgresql://scheduler:scheduler@127.0.0.1:${(silent.address() as AddressInfo).port}/scheduler`;
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => silent.close(r));
});

/** worker/main.ts on the silent database, its JSON lines collected; resolves once it logged its start. */
async function startWorker(env: Record<string, string>): Promise<{ child: ChildProcess; lines: () => Line[] }> {
  let out = '';
  const child = spawn(process.execPath, workerArgv(), { cwd: ROOT, env: childEnv({ DATABASE_URL: url, LOG_LEVEL: 'info', ...env }), stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.on('data', (d) => (out += d));
  const lines = () => out.split('\n').flatMap((l): Line[] => (l.startsWith('{') ? [JSON.parse(l) as Line] : []));
  for (let i = 0; i < 600 && !lines().some((l) => l.msg === 'worker started'); i++) await sleep(50);
  expect(lines().map((l) => l.msg)).toContain('worker started');
  // Its first statement (the heartbeat) is now waiting for an answer that never comes.
  await sleep(500);
  return { child, lines };
}

describe.skipIf(testDialect() !== 'sqlite')('a worker whose database never answers', () => {
  it('SIGTERM: exits 1 after WORKER_STOP_TIMEOUT_MS, saying why', async () => {
    const { child, lines } = await startWorker({ WORKER_STOP_TIMEOUT_MS: '1500' });
    const asked = Date.now();
    child.kill('SIGTERM');
    const code = await exited(child);
    const took = Date.now() - asked;
    expect(code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(15_000);
    expect(lines().find((l) => l.level === 'error')).toMatchObject({
      msg: 'worker: not stopped within WORKER_STOP_TIMEOUT_MS of the stop signal (is the database answering?): exiting now',
      signal: 'SIGTERM',
      stopTimeoutMs: 1500,
    });
    expect(lines().map((l) => l.msg)).toContain('worker stopping');
  });

  it('a second signal exits at once', async () => {
    const { child, lines } = await startWorker({ WORKER_STOP_TIMEOUT_MS: '60000' });
    child.kill('SIGTERM');
    await sleep(300);
    const asked = Date.now();
    child.kill('SIGINT');
    expect(await exited(child)).toBe(1);
    expect(Date.now() - asked).toBeLessThan(10_000);
    expect(lines().find((l) => l.level === 'warn')).toMatchObject({ msg: 'worker: second stop signal: exiting now', signal: 'SIGINT' });
  });
});
