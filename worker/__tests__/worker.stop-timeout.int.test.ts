/**
 * A worker whose database stopped answering still stops (worker/main.ts, decision 422): SIGTERM asks
 * for the graceful stop; when the statement in hand never returns, the process exits 1 after
 * WORKER_STOP_TIMEOUT_MS with a line saying why, and a second signal (2 s or more after the first)
 * exits at once. Before, such a worker ignored SIGTERM until its supervisor killed it. Ctrl-C, which
 * reaches a worker twice within milliseconds (directly and through `npm start`), is one stop: a
 * worker on a working database still stops gracefully, exit 0. The silent "database" is a real TCP
 * listener on loopback that takes connections and never answers (a hung server, a black-holing
 * proxy). A worker whose parent is gone (its IPC channel closed) stops gracefully too. Runs in the SQLite pass only: the silent server stands for PostgreSQL whatever the pass.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../lib/testing/test-db';
import { sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';

type Line = { level?: string; msg?: string; [k: string]: unknown };

const t = useTestDatabase();
let silent: Server;
const held: Socket[] = [];
let silentUrl = '';
const children: ChildProcess[] = [];
beforeAll(async () => {
  silent = createServer((sock) => void held.push(sock));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `postgresql://scheduler:scheduler@127.0.0.1:${(silent.address() as AddressInfo).port}/scheduler`;
});
afterEach(() => {
  // A failed assertion leaves no worker behind.
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => silent.close(r));
});

/**
 * worker/main.ts on `url`, its complete JSON lines collected; resolves once it logged its start.
 * `closed`: its exit code once it exited AND its output was read to the end (at 'exit' the pipe may
 * still hold its last lines).
 */
async function startWorker(url: string, env: Record<string, string>): Promise<{ child: ChildProcess; lines: () => Line[]; closed: Promise<number | null> }> {
  let out = '';
  const child = spawnWorker(url, { LOG_LEVEL: 'info', ...env }, [], { stdout: 'pipe' });
  children.push(child);
  // Exit code and the end of stdout, not 'close': that also waits for the IPC channel, which a
  // channel closed from this end (`disconnect()`) never reports.
  const ended = new Promise<void>((r) => child.stdout!.once('end', () => r()));
  const closed = new Promise<number | null>((r) => child.once('exit', (code) => void ended.then(() => r(code))));
  child.stdout!.on('data', (d) => (out += d));
  // Only lines already ended by a newline: the last chunk may be half a line.
  const lines = () => out.slice(0, out.lastIndexOf('\n') + 1).split('\n').flatMap((l): Line[] => (l.startsWith('{') ? [JSON.parse(l) as Line] : []));
  for (let i = 0; i < 600 && !lines().some((l) => l.msg === 'worker started'); i++) await sleep(50);
  expect(lines().map((l) => l.msg)).toContain('worker started');
  return { child, lines, closed };
}

describe.skipIf(testDialect() !== 'sqlite')('stopping a worker', () => {
  it('on a database that never answers, SIGTERM: exits 1 after WORKER_STOP_TIMEOUT_MS, saying why', async () => {
    const { child, lines, closed } = await startWorker(silentUrl, { WORKER_STOP_TIMEOUT_MS: '1500' });
    const asked = Date.now();
    child.kill('SIGTERM');
    const code = await closed;
    const took = Date.now() - asked;
    expect(code).toBe(1);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(15_000);
    expect(lines().find((l) => String(l.msg).startsWith('worker: not stopped'))).toMatchObject({
      level: 'error',
      msg: 'worker: not stopped within WORKER_STOP_TIMEOUT_MS of the stop signal (is the database answering?): exiting now',
      signal: 'SIGTERM',
      stopTimeoutMs: 1500,
    });
    expect(lines().map((l) => l.msg)).toContain('worker stopping');
  });

  it('on a database that never answers, a second signal 2 s after the first exits at once', async () => {
    const { child, lines, closed } = await startWorker(silentUrl, { WORKER_STOP_TIMEOUT_MS: '60000' });
    child.kill('SIGTERM');
    await sleep(2_300);
    const asked = Date.now();
    child.kill('SIGINT');
    expect(await closed).toBe(1);
    expect(Date.now() - asked).toBeLessThan(10_000);
    expect(lines().find((l) => String(l.msg).startsWith('worker: second stop signal'))).toMatchObject({ level: 'warn', signal: 'SIGINT' });
  });

  it('Ctrl-C through npm start (SIGINT, then SIGTERM from the supervisor 10 ms later) is one graceful stop: exit 0', async () => {
    const { child, lines, closed } = await startWorker(t.url, { WORKER_POLL_INTERVAL_MS: '200', WORKER_STOP_TIMEOUT_MS: '60000' });
    child.kill('SIGINT');
    await sleep(10);
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    const msgs = lines().map((l) => String(l.msg));
    expect(msgs).toContain('worker stopping');
    expect(msgs).toContain('worker stopped');
    expect(msgs.filter((m) => m.startsWith('worker: second stop signal') || m.startsWith('worker: not stopped'))).toEqual([]);
  });

  it('its parent gone (the IPC channel closed, as when a test run is killed): a graceful stop, exit 0', async () => {
    const { child, lines, closed } = await startWorker(t.url, { WORKER_POLL_INTERVAL_MS: '200', WORKER_STOP_TIMEOUT_MS: '60000' });
    const asked = Date.now();
    // What the worker sees of a parent that died: its end of the channel closes.
    child.disconnect();
    expect(await closed).toBe(0);
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect(lines().find((l) => l.msg === 'worker stopping')).toMatchObject({ reason: 'disconnect' });
    expect(lines().map((l) => l.msg)).toContain('worker stopped');
  });
});
