/**
 * Tests' one-call fire of everything due (SPEC §8, §13): `fireDue`, then the http and aws attempts it
 * stored in flight delivered and recorded (`deliverAndRecord`), as the worker does beside its loop.
 * Returns the batch's outcomes with each `delivering` one replaced by its recorded `fired` outcome.
 */
import type { HttpAllowList, Limits } from '../config';
import type { Db } from '../db';
import { createDeliveryPool } from '../delivery';
import { deliverAndRecord, fireDue, type DeliveryDeps, type FireOutcome } from '../schedules';

/** Delivery for tests: a pool of 16 and loopback allowed (receivers listen on 127.0.0.1). */
export function testDelivery(allowList: HttpAllowList = { hosts: ['localhost'], addresses: [], ranges: ['127.0.0.0/8', '::1/128'] }): DeliveryDeps {
  return { pool: createDeliveryPool(16), allowList };
}

export async function fireDueAndDeliver(opts: { db: Db; now: Date; limit?: number; limits: Limits; delivery?: DeliveryDeps; clock?: () => Date }): Promise<FireOutcome[]> {
  const outcomes = await fireDue({ db: opts.db, now: opts.now, limit: opts.limit ?? 500, limits: opts.limits, clock: opts.clock });
  const inFlight = outcomes.flatMap((o) => (o.kind === 'delivering' ? [o.delivery] : []));
  const recorded = inFlight.length ? await deliverAndRecord(opts.db, inFlight, opts.delivery ?? testDelivery(), opts.clock ?? (() => opts.now)) : [];
  return [...outcomes.filter((o) => o.kind !== 'delivering'), ...recorded];
}
