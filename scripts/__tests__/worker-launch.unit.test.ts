/**
 * Every way the product starts a worker uses the worker's node flags (worker/launch.ts, decision 414):
 * the TypeScript launchers call `workerArgv`, and the three that cannot import it (package.json's
 * `worker` script, the container's entrypoint, the systemd unit) spell the same command line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKER_NODE_ARGS, workerArgv } from '../../worker/launch';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const commandLine = `node ${WORKER_NODE_ARGS.join(' ')} worker/main.ts`;

describe('worker launch', () => {
  it('raises the young generation and loads tsx, then runs worker/main.ts after any preload', () => {
    expect(WORKER_NODE_ARGS).toContain('--max-semi-space-size=64');
    expect(workerArgv()).toEqual(['--max-semi-space-size=64', '--import', 'tsx', 'worker/main.ts']);
    expect(workerArgv(['lib/testing/memory-target-worker.ts'])).toEqual([
      '--max-semi-space-size=64', '--import', 'tsx', '--import', './lib/testing/memory-target-worker.ts', 'worker/main.ts',
    ]);
  });

  it.each([
    ['package.json (npm run worker)', () => JSON.parse(read('package.json')).scripts.worker as string],
    ['deploy/entrypoint.sh (the container)', () => read('deploy/entrypoint.sh')],
    ['deploy/systemd/scheduler-worker.service', () => read('deploy/systemd/scheduler-worker.service')],
  ])('%s starts the worker with the same command line', (_name, text) => {
    expect(text()).toContain(commandLine);
  });

  it('npm start supervises a worker started by workerArgv', () => {
    expect(read('scripts/start.ts')).toMatch(/name: 'worker', command: process\.execPath, argv: workerArgv\(\)/);
  });
});
