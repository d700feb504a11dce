/**
 * `npm run worker`: one worker process. Any number may run against one database. SIGTERM/SIGINT
 * finish the batch in hand and the deliveries in hand, then exit 0. When that takes longer than
 * WORKER_STOP_TIMEOUT_MS (a database that stopped answering holds a statement forever), or at a
 * second signal (2 s or more after the first), the process exits 1 at once: what a crash does. Nothing
 * committed is lost and the batch in hand rolls back and stays due (each occurrence fires once); a
 * webhook or AWS attempt in flight is delivered again once its lease ends, as after any crash
 * (at-least-once, lib/engine/in-flight.ts).
 */
import { loadConfigOrExit, serverSecretKey, workerClock } from '../lib/config';
import { EVENTBRIDGE_FIRE_FACTS } from '../lib/api/eventbridge/fire-facts';
import { closeDb, getDb } from '../lib/db';
import { checkinUrls, createDeliveryDeps, schedulerEngine } from '../lib/schedules';
import { configureLog, logProcessWarnings, logger } from '../lib/log';
import { logEvents } from './log';
import { Worker } from './worker';

// A configuration error: one JSON line, exit 1 (decision 399).
const config = loadConfigOrExit((problems) => {
  configureLog({ service: 'worker' });
  logger.error('invalid configuration', { problems });
});
// Every line of this process: service `worker`, at LOG_LEVEL and above (lib/log).
configureLog({ service: 'worker', level: config.logLevel });
// Node's warnings (a deprecation, the AWS SDK's notice about this Node.js version) as lines of the same log.
logProcessWarnings();
const worker = new Worker({
  db: getDb(config),
  limits: config.limits,
  batchSize: config.worker.batchSize,
  pollIntervalMs: config.worker.pollIntervalMs,
  clock: workerClock(config.worker.testClock),
  delivery: createDeliveryDeps(config),
  // SPEC §17: alert links under SCHEDULER_PUBLIC_URL; the dead man's switch SCHEDULER_HEARTBEAT_URL.
  alerts: { publicUrl: config.http.publicUrl, heartbeatUrl: config.heartbeatUrl },
  // The facades this deployment serves name their schedules' fires (SPEC §14): passed in, never imported by the engine.
  // SPEC §16.1: each attempt's check-in URL, under SCHEDULER_PUBLIC_URL, signed with the server key.
  engine: schedulerEngine.with({ ...EVENTBRIDGE_FIRE_FACTS, checkins: checkinUrls(config.http.publicUrl, serverSecretKey(config)) }),
});
logEvents(worker.events, worker.id);
/**
 * A repeat within this many ms of the first stop signal is the same request, not a second one: Ctrl-C
 * reaches the worker directly (its terminal's process group) AND through its parent (`npm start`'s
 * supervisor sends SIGTERM; npm forwards SIGINT), a few ms apart.
 */
const SAME_STOP_MS = 2_000;
let stopAsked: number | null = null;
/**
 * A stop request (`signal`: SIGTERM, SIGINT, or `disconnect` when the parent is gone): the first stops
 * gracefully; another 2 s or more later exits at once, as does a stop that outlasts WORKER_STOP_TIMEOUT_MS.
 */
function requestStop(signal: string): void {
  if (stopAsked !== null) {
    if (Date.now() - stopAsked < SAME_STOP_MS) return;
    logger.warn('worker: second stop signal: exiting now', { signal, afterMs: Date.now() - stopAsked });
    process.exit(1);
  }
  stopAsked = Date.now();
  worker.stop(signal);
  const limit = config.worker.stopTimeoutMs;
  setTimeout(() => {
    logger.error('worker: not stopped within WORKER_STOP_TIMEOUT_MS of the stop signal (is the database answering?): exiting now', { signal, stopTimeoutMs: limit });
    process.exit(1);
  }, limit).unref();
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => requestStop(signal));
// Started with an IPC channel (a supervising parent, the crash tests' spawnWorker): a parent that is
// gone (killed, crashed) closes the channel, and the worker stops as at SIGTERM rather than fire on
// alone with nobody to stop it. The channel alone never keeps the worker running.
if (process.channel) {
  process.channel.unref();
  // Only as a first request: a parent that goes during a graceful stop is not a second signal.
  process.once('disconnect', () => {
    if (stopAsked === null) requestStop('disconnect');
  });
}

worker
  .run()
  .then(() => closeDb())
  .then(() => {
    // Last: nothing after this line can still fail or hang.
    logger.info('worker stopped', { workerId: worker.id });
    process.exit(0);
  })
  .catch((e) => {
    logger.error('worker crashed', { error: String(e) });
    process.exit(1);
  });
