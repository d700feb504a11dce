/**
 * Tests' fire as a worker process fires (SPEC §8, §13): the product's engine with the facades the
 * worker's edge layers on it (worker/main.ts: the EventBridge-compatible API's facts), `fireDue`, and
 * the one-call fire of everything due, whose after-commit attempts are delivered and recorded
 * (`deliverAndRecord`) as the worker does beside its loop.
 */
import { EVENTBRIDGE_FIRE_FACTS } from '../api';
import type { HttpAllowList, Limits } from '../config';
import type { Db } from '../db';
import { schedulerEngine, type DeliveryDeps, type FireOutcome } from '../schedules';
import { createDeliveryPool } from '../targets';

/** The engine of a worker process: the product's, with the facades its edge passes (worker/main.ts). */
export const workerEngine = schedulerEngine.with(EVENTBRIDGE_FIRE_FACTS);

/** `fireDue` as a worker process runs it (`workerEngine`). */
export const fireDue = workerEngine.fireDue;

/**
 * The orgs the tests' deliveries grant the worker's own AWS credentials (SPEC §13.5), as
 * `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS` does a worker's: the fixtures' orgs (`makeOrg`'s default
 * `acme-corp`, `globex-corp`, the EventBridge tests' orgs), which deliver to moto's default account
 * with the test environment's keys (docs/decisions.md 216). Tests of §13.5 use orgs not listed here.
 */
export const TEST_WORKER_CREDENTIALS_ORGS: readonly string[] = ['acme-corp', 'globex-corp', 'second-org'];

/** Delivery for tests: a pool of 16, loopback allowed (receivers listen on 127.0.0.1), the fixtures' orgs granted the worker's AWS credentials. */
export function testDelivery(
  allowList: HttpAllowList = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8', '::1/128'] },
  awsWorkerCredentialsOrgs: readonly string[] = TEST_WORKER_CREDENTIALS_ORGS,
): DeliveryDeps {
  return { pool: createDeliveryPool(16), allowList, awsWorkerCredentialsOrgs };
}

/** Fire everything due at `now` and deliver and record the batch's after-commit attempts; each `delivering` outcome is replaced by its recorded `fired` one. */
export async function fireDueAndDeliver(opts: { db: Db; now: Date; limit?: number; limits: Limits; delivery?: DeliveryDeps; clock?: () => Date }): Promise<FireOutcome[]> {
  const outcomes = await workerEngine.fireDue({ db: opts.db, now: opts.now, limit: opts.limit ?? 500, limits: opts.limits, clock: opts.clock });
  const inFlight = outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
  const recorded = inFlight.length ? await workerEngine.deliverAndRecord(opts.db, inFlight, opts.delivery ?? testDelivery(), opts.clock ?? (() => opts.now)) : [];
  return [...outcomes.filter((o) => o.kind !== 'delivering'), ...recorded];
}

/** Fire backfills as the worker does (SPEC §18.1), delivering and recording what goes in flight, until none has work left (at most `rounds` passes, else it throws). */
export async function drainBackfills(opts: { db: Db; now?: Date; limits: Limits; delivery?: DeliveryDeps; rounds?: number }): Promise<void> {
  const now = opts.now ?? new Date();
  const delivery = opts.delivery ?? testDelivery();
  for (let i = 0; i < (opts.rounds ?? 200); i++) {
    const r = await workerEngine.fireBackfills({ db: opts.db, now, limit: 50, limits: opts.limits });
    const inFlight = r.outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
    if (inFlight.length) await workerEngine.deliverAndRecord(opts.db, inFlight, delivery, () => now);
    if (r.outcomes.length === 0 && r.waiting === 0) return;
  }
  throw new Error('backfills did not drain');
}
