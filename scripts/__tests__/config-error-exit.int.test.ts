/**
 * A configuration error at every entry point (web, worker, migrate, start): exit 1 with one clear line
 * (JSON through lib/log in the web and worker processes), no stack trace, and a DATABASE_URL's
 * password never echoed (decision 399).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

const bad: { env: Record<string, string>; says: string }[] = [
  { env: { PORT: 'abc' }, says: 'PORT:' },
  { env: { DATABASE_URL: 'mysql://u:SECRETPW@h/db' }, says: 'DATABASE_URL: the scheme "mysql" is not supported' },
  { env: { DATABASE_URL: '"postgresql://u:SECRETPW@h:5432/db"' }, says: 'DATABASE_URL: is wrapped in quotes' },
];

describe.each([
  { script: 'scripts/web-server.ts', json: 'web' },
  { script: 'worker/main.ts', json: 'worker' },
  { script: 'scripts/migrate.ts', json: null },
  { script: 'scripts/start.ts', json: null },
])('$script with a bad configuration', ({ script, json }) => {
  it.each(bad)('$env: one line, exit 1', async ({ env, says }) => {
    const { code, out } = await run(script, env);
    expect(code, out).toBe(1);
    const lines = out.trim().split('\n');
    expect(lines, out).toHaveLength(1);
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).not.toContain('SECRETPW');
    if (json) {
      const line = JSON.parse(lines[0]) as { problems: string[] };
      expect(line).toMatchObject({ level: 'error', service: json, msg: 'invalid configuration' });
      expect(line.problems.join('\n')).toContain(says);
    } else {
      expect(out).toContain(says);
      expect(lines[0]).toMatch(new RegExp(`^${path.basename(script, '.ts')}: invalid configuration: `));
    }
  });
});

describe('scripts/start.ts with its port held by another process', () => {
  it('one line naming the port, exit 1, before migrations and never "ready"', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, out } = await run('scripts/start.ts', { PORT: String(port), HOSTNAME: '127.0.0.1' });
      expect(code, out).toBe(1);
      expect(out.trim().split('\n'), out).toEqual([`start: port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port`]);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });
});

