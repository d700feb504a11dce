/**
 * How a worker process is started: `node ${WORKER_NODE_ARGS.join(' ')} worker/main.ts`. The product's
 * TypeScript launcher (scripts/start.ts), the benches and the crash tests use `workerArgv` (e2e's
 * generic process helper starts worker/main.ts without the flag: it tests behaviour, not speed);
 * package.json's `worker` script, deploy/entrypoint.sh and deploy/systemd/scheduler-worker.service
 * spell the same flags, and worker/__tests__/launch.test.ts holds them to it.
 *
 * `--max-semi-space-size=64` (MiB; docs/decisions.md 414): V8's young generation may grow to 64 MiB
 * semi-spaces instead of 16. A fire batch's objects live across its statements' awaits; with the
 * default size a scavenge lands inside nearly every batch and copies or promotes them. The worker
 * spends ~10–20 % less CPU per fire (docs/performance.md) for ~40 MB more resident memory at full load.
 */
export const WORKER_NODE_ARGS = ['--max-semi-space-size=64', '--import', 'tsx'] as const;

/** argv after `node` (process.execPath) for a worker: the flags, `preload` modules (`--import ./m`), then worker/main.ts. */
export function workerArgv(preload: string[] = []): string[] {
  return [...WORKER_NODE_ARGS, ...preload.flatMap((m) => ['--import', `./${m}`]), 'worker/main.ts'];
}
