/**
 * Tests only: loaded into a worker process before worker/main.ts (`spawnWorker(url, env,
 * ['lib/testing/memory-target-worker.ts'])`), it registers the `memory` target's after-commit driver
 * in that process's registry. Each delivery is appended, as one JSON line, to the file
 * `MEMORY_TARGET_LOG` names, before the delivery answers; each holds its pool slot
 * `MEMORY_TARGET_HOLD_MS` ms (default 0), so a test can kill the worker while deliveries are in flight.
 */
import { appendFileSync } from 'node:fs';
import { registerTargetDriver } from '../targets';
import { memoryDriver } from './memory-target';

const log = process.env.MEMORY_TARGET_LOG;
if (!log) throw new Error('MEMORY_TARGET_LOG must name the file deliveries are appended to');
registerTargetDriver(memoryDriver({ mode: 'after-commit', holdMs: Number(process.env.MEMORY_TARGET_HOLD_MS ?? 0), record: (d) => appendFileSync(log, `${JSON.stringify(d)}\n`) }));
