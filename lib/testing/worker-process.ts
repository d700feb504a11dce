/**
 * Tests only: real worker processes (`worker/main.ts`) for the crash tests, and the fresh database
 * they share with the test file.
 *
 * ```ts
 * const t = useTestDatabase();            // registers beforeAll / afterAll
 * const w = spawnWorker(t.url, { WORKER_BATCH_SIZE: '5' });
 * w.kill('SIGKILL'); await exited(w);
 * ```
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { childEnv } from '../config';
import type { Db } from '../db';
import { workerArgv } from '../../worker/launch';
import { createTestDb } from './test-db';

const ROOT = path.resolve(__dirname, '../..');

/**
 * A worker process on database `url` with `env` added, started as the product starts one (worker/launch.ts);
 * `node --import tsx` is one process, so signals
 * reach the worker itself. `preload`: modules (repo-relative) loaded before worker/main.ts, e.g. one
 * that registers a test's target driver in the worker's registry. `stdout: 'pipe'`: its log lines
 * are readable on `child.stdout` (ignored by default). The worker stops when this process is gone.
 */
export function spawnWorker(url: string, env: Record<string, string>, preload: string[] = [], opts: { stdout?: 'pipe' | 'ignore' } = {}): ChildProcess {
  // The IPC channel is the worker's tie to this test process: when a killed test run closes it, the
  // worker stops (worker/main.ts) instead of firing on into the ports of later tests.
  const child = spawn(process.execPath, workerArgv(preload), { cwd: ROOT, env: childEnv({ DATABASE_URL: url, ...env }), stdio: ['ignore', opts.stdout ?? 'ignore', 'inherit', 'ipc'] });
  // The channel must not keep the test process alive on its own.
  child.channel?.unref();
  return child;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Resolves with the exit code (null after a signal) once `c` has exited. */
export const exited = (c: ChildProcess) =>
  new Promise<number | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))));

/** A fresh database of the TEST_DATABASE dialect for the calling file: created before all its tests, dropped after. */
export function useTestDatabase(): { readonly db: Db; readonly url: string } {
  let t: Awaited<ReturnType<typeof createTestDb>> | undefined;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t?.cleanup());
  return {
    get db() {
      return t!.db;
    },
    get url() {
      return t!.url;
    },
  };
}
