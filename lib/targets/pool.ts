/**
 * The bounded pool outbound deliveries go through (SPEC §13; "delivery outside the database
 * transaction"): one concurrency limit shared by webhooks, AWS calls and dead letters, so a slow
 * receiver or a throttled service holds at most `concurrency` slots and never the worker's claim,
 * its database connection or the event loop. The process's edge makes one (`createDeliveryPool`
 * with `SCHEDULER_DELIVERY_CONCURRENCY`) and passes it to every delivery.
 */
import pLimit from 'p-limit';

export interface DeliveryPool {
  /** Run `send` when a slot is free (FIFO), holding the slot until it settles. */
  run<T>(send: () => Promise<T>): Promise<T>;
  /** Deliveries in flight and waiting (for metrics and tests). */
  load(): { active: number; pending: number };
}

/** A pool of `concurrency` (≥ 1) deliveries in flight at once; the rest wait their turn. */
export function createDeliveryPool(concurrency: number): DeliveryPool {
  const limit = pLimit(concurrency);
  return {
    run: (send) => limit(send),
    load: () => ({ active: limit.activeCount, pending: limit.pendingCount }),
  };
}
