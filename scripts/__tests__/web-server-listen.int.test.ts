/**
 * The web process cannot listen (the port is taken): it says so in one JSON error line and exits 1,
 * so systemd `Restart=on-failure`, docker `--restart on-failure` and `npm start` see a failure. It
 * finds out before Next.js prepares (no build needed, fails in well under a second of its own work).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const port = Number(process.env.TEST_PORT_BASE ?? 5910) + 7;
let blocker: Server;

beforeAll(async () => {
  blocker = createServer();
  await new Promise<void>((resolve, reject) => {
    blocker.once('error', reject);
    blocker.listen(port, '127.0.0.1', () => resolve());
  });
});
afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
});

describe('scripts/web-server.ts when its port is taken', () => {
  it('logs "web server: cannot listen on host:port" as JSON with the error code and exits 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/web-server.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOSTNAME: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    const lines = out.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => String(l.msg ?? l.message).startsWith('web server: cannot listen'));
    expect(line, out).toBeDefined();
    expect(line).toMatchObject({ level: 'error', service: 'web', code: 'EADDRINUSE' });
    expect(String(line!.msg ?? line!.message)).toBe(`web server: cannot listen on 127.0.0.1:${port}`);
    // No plain-text stack trace besides the JSON line.
    expect(out).not.toMatch(/^Error: listen/m);
  });
});
