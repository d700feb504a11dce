/**
 * The bounded pool every outbound delivery goes through (SPEC §13; issue "delivery outside the
 * database transaction"): one concurrency limit per process shared by webhooks and AWS calls, so a
 * slow receiver or a throttled service holds at most `SCHEDULER_DELIVERY_CONCURRENCY` slots and
 * never the worker's claim, its database connection or the event loop.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { loadConfig } from '../config';

let limit: LimitFunction | undefined;

/**
 * Run `send` when a slot is free (FIFO), holding the slot until it settles. The limit is read from
 * the configuration on first use (default 64 in flight).
 */
export function withDeliverySlot<T>(send: () => Promise<T>): Promise<T> {
  limit ??= pLimit(loadConfig().delivery.concurrency);
  return limit(send);
}

/** Deliveries in flight and waiting (for metrics and tests). */
export function deliveryPoolLoad(): { active: number; pending: number } {
  return { active: limit?.activeCount ?? 0, pending: limit?.pendingCount ?? 0 };
}
