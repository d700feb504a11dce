/**
 * Issue "Ship it as a service", acceptance 3: the systemd units in deploy/systemd/ pass
 * `systemd-analyze verify`, and their commands, read from the unit files (ExecStart, Environment),
 * run by hand in this repository as WorkingDirectory with a test environment file's variables, start
 * the web app and a worker: the migrate unit's commands exit 0, then the web app answers its readiness
 * probe with the worker's heartbeat in it, and SIGTERM (what systemd sends) stops both with exit 0.
 * Skipped, saying so, where `systemd-analyze` is missing. The web unit serves the repository's build
 * (`.next`): `npm test` runs this after the end-to-end suite, which builds it; without one it is built.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { freePort, Phases, waitReady } from '../../lib/testing/service-run';
import { buildIsCurrent, sourceHash, stampBuild } from '../web-build';

const ROOT = path.resolve(import.meta.dirname, '../..');
const UNITS = path.join(ROOT, 'deploy/systemd');

const hasSystemd = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!hasSystemd) console.warn('systemd units test SKIPPED: systemd-analyze is missing (apt-get install systemd)');

interface Unit {
  workingDirectory: string;
  environmentFile: string;
  environment: Record<string, string>;
  /** Each ExecStart= line, split into words (systemd's prefixes `-@:+!` removed). */
  execStart: string[][];
}

/** The [Service] settings of a unit file that running it by hand needs. */
function readUnit(file: string): Unit {
  const unit: Unit = { workingDirectory: '', environmentFile: '', environment: {}, execStart: [] };
  let section = '';
  for (const raw of readFileSync(path.join(UNITS, file), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    if (section !== 'Service') continue;
    const [key, ...rest] = line.split('=');
    const value = rest.join('=');
    if (key === 'WorkingDirectory') unit.workingDirectory = value;
    if (key === 'EnvironmentFile') unit.environmentFile = value.replace(/^-/, '');
    if (key === 'Environment') {
      for (const word of value.match(/"[^"]*"|\S+/g) ?? []) {
        const assignment = word.replace(/^"|"$/g, '');
        const eq = assignment.indexOf('=');
        unit.environment[assignment.slice(0, eq)] = assignment.slice(eq + 1);
      }
    }
    if (key === 'ExecStart') unit.execStart.push(value.replace(/^[-@:+!]+/, '').split(/\s+/));
  }
  return unit;
}

describe.skipIf(!hasSystemd)('the systemd units (deploy/systemd)', () => {
  const phases = new Phases('systemd units test');
  const children: ChildProcess[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'scheduler-systemd-'));
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    console.log(`systemd units test timings:\n${phases.table()}`);
  });

  test('systemd-analyze verify accepts every unit', async () => {
    const files = readdirSync(UNITS).filter((f) => f.endsWith('.service'));
    expect(files.sort()).toEqual(['scheduler-migrate.service', 'scheduler-web.service', 'scheduler-worker.service']);
    const r = await phases.run('systemd-analyze verify', async () => spawnSync('systemd-analyze', ['verify', ...files.map((f) => path.join(UNITS, f))], { encoding: 'utf8' }));
    // Any complaint (an unknown setting, a missing executable) is printed, even when the exit is 0.
    expect({ status: r.status, output: `${r.stdout}${r.stderr}`.trim() }).toEqual({ status: 0, output: '' });
  });

  test("the units' commands, run by hand in the repository, migrate, then start the web app and a worker", async () => {
    const [migrate, web, worker] = ['scheduler-migrate.service', 'scheduler-web.service', 'scheduler-worker.service'].map(readUnit);
    for (const u of [migrate, web, worker]) expect(u.environmentFile).toBe('/etc/scheduler/env');
    expect(migrate.execStart.length).toBeGreaterThan(0);
    const port = await freePort(3);
    const base = `http://127.0.0.1:${port}`;
    // What /etc/scheduler/env would hold, for a database of this test's own.
    const envFile = {
      DATABASE_URL: `file:${path.join(dir, 'scheduler.db')}`,
      SCHEDULER_SECRET_KEY: randomBytes(32).toString('hex'),
      SCHEDULER_BOOTSTRAP_API_KEY: 'systemd-test-bootstrap-key-0123456789',
      SCHEDULER_DEMO_PASSWORD: 'systemd-test-password-0123',
      HOSTNAME: '127.0.0.1',
      PORT: String(port),
    };
    const envOf = (u: Unit) => ({ ...process.env, ...envFile, ...u.environment });
    const run = (u: Unit, argv: string[]) => spawn(argv[0], argv.slice(1), { cwd: ROOT, env: envOf(u), stdio: ['ignore', 'pipe', 'pipe'] });

    // The unit serves the repository's build as it is: build it (as `npm start` would) when there is
    // none or it is of other sources than these (a stale build has no route added since).
    const hash = sourceHash(ROOT);
    if (!buildIsCurrent(ROOT, hash)) {
      await phases.run('next build (no current build in the repository)', async () => {
        const r = spawnSync(path.join(ROOT, 'node_modules/.bin/next'), ['build'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
        expect(r.status, r.stderr).toBe(0);
        stampBuild(ROOT, hash);
      });
    }

    await phases.run('migrate unit commands', async () => {
      for (const argv of migrate.execStart) {
        const child = run(migrate, argv);
        let out = '';
        child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
        child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
        const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
        expect(code, `${argv.join(' ')}:\n${out}`).toBe(0);
      }
    });

    const logs = new Map<ChildProcess, string>();
    const started = (u: Unit) =>
      u.execStart.map((argv) => {
        const child = run(u, argv);
        children.push(child);
        logs.set(child, '');
        const take = (b: Buffer) => logs.set(child, `${logs.get(child)}${b.toString()}`.slice(-8000));
        child.stdout!.on('data', take);
        child.stderr!.on('data', take);
        return child;
      });
    const [webChild] = started(web);
    const [workerChild] = started(worker);
    const health = await phases.run('web + worker to ready', () =>
      waitReady(
        base,
        async () => ([webChild, workerChild].some((c) => c.exitCode !== null || c.signalCode !== null) ? [webChild, workerChild].map((c) => logs.get(c)).join('\n---\n') : null),
        (h) => Number(h.workers_alive) >= 1,
      ),
    );
    // The worker's heartbeat is what makes it alive in the report.
    expect(health).toMatchObject({ status: 'ok', database: 'reachable', workers_alive: 1 });
    expect(typeof health.worker_heartbeat_age_seconds).toBe('number');
    expect((await fetch(`${base}/login`)).status).toBe(200);

    // systemctl stop: SIGTERM; both exit 0.
    const codes = await phases.run('stop (SIGTERM)', () =>
      Promise.all(
        [webChild, workerChild].map((c) => {
          const exited = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
          c.kill('SIGTERM');
          return exited;
        }),
      ),
    );
    expect(codes).toEqual([0, 0]);
  }, 900_000);
});
