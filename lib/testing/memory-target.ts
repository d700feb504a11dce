/**
 * Tests only: a `memory` target type, added the way any target type is (docs/architecture.md
 * "Adding a target type") but registered by the test that uses it (`registerTargetDriver`), in either
 * delivery mode: `in-transaction` (made in the claim's transaction, exactly once with its run) or
 * `after-commit` (stored in flight with a lease, delivered through the process's pool, at least once).
 * Each delivery is handed to `record` (an array in-process, a file line in a worker process), so a
 * test sees what reached the "receiver" beside what the engine recorded. No engine file names it.
 *
 * ```ts
 * const deliveries: MemoryDelivery[] = [];
 * const unregister = registerTargetDriver(memoryDriver({ mode: 'after-commit', record: (d) => deliveries.push(d) }));
 * await insertSchedules(db, [{ …, invocationTargetType: MEMORY_TARGET.type, invocationTarget: { inbox: 'a' } }]);
 * ```
 */
import { z } from 'zod';
import { defineDriver, defineTargetContract, occurrenceId, type AttemptContext, type DriverOutcome, type TargetDriver } from '../targets';

/** `invocation_target` of a `memory` schedule: the inbox it delivers to; `fail` makes every attempt fail. */
export const MemoryTargetSchema = z.strictObject({ inbox: z.string().min(1), fail: z.boolean().optional(), secret: z.string().optional() });
export type MemoryTarget = z.infer<typeof MemoryTargetSchema>;

/** What one attempt delivered (the "request" a dead letter keeps, once redacted). */
export interface MemoryDelivery {
  type: 'memory';
  inbox: string;
  /** The occurrence id: the same on every attempt of one occurrence (receivers de-duplicate by it). */
  deliveryId: string;
  scheduleId: string;
  scheduledFor: string;
  attempt: number;
  runId: string;
  /** The target's secret, as sent: `redact` replaces it. */
  secret?: string;
}

/** The `memory` target type's contract: its schema, result shapes and words. */
export const MEMORY_TARGET = defineTargetContract({
  type: 'memory',
  save: MemoryTargetSchema,
  stored: MemoryTargetSchema,
  results: [z.strictObject({ inbox: z.string(), delivery_id: z.string(), repeated_delivery: z.literal(true).optional() })],
  looksLike: (t) => 'inbox' in t,
  address: (t) => `memory:${t.inbox}`,
  words: {
    title: 'Memory',
    noun: 'a memory inbox',
    choice: 'Deliver to an inbox in the worker (tests).',
    intro: 'Each fire is appended to the inbox.',
    label: (t) => `Memory inbox ${t.inbox}`,
    detail: (t) => (t.fail ? 'every attempt fails' : 'delivered'),
  },
});

export interface MemoryDriverOptions {
  mode: 'in-transaction' | 'after-commit';
  /** Called once per delivery, as it happens. */
  record(delivery: MemoryDelivery): void;
  /** After-commit only: how long a delivery holds its pool slot before answering, in ms. Default 0. */
  holdMs?: number;
}

/** One attempt's delivery to `target`, and its outcome. */
function deliverTo(target: MemoryTarget, ctx: AttemptContext, record: MemoryDriverOptions['record']): DriverOutcome {
  const deliveryId = occurrenceId(ctx);
  const request: MemoryDelivery = {
    type: 'memory',
    inbox: target.inbox,
    deliveryId,
    scheduleId: ctx.scheduleId,
    scheduledFor: ctx.scheduledFor.toISOString(),
    attempt: ctx.attempt,
    runId: ctx.runId,
    ...(target.secret ? { secret: target.secret } : {}),
  };
  record(request);
  return target.fail
    ? { status: 'invocation_error', result: { error: 'inbox_refused', message: `inbox ${target.inbox} refuses every delivery` }, executionId: null, request, retryable: true }
    : { status: 'success', result: { inbox: target.inbox, delivery_id: deliveryId }, executionId: null, request, retryable: false };
}

const REDACTED = '[redacted]';

/** The `memory` driver in `opts.mode`: register it with `registerTargetDriver`. */
export function memoryDriver(opts: MemoryDriverOptions): TargetDriver {
  const base = {
    contract: MEMORY_TARGET,
    parse(stored: unknown) {
      const parsed = MemoryTargetSchema.safeParse(stored);
      return parsed.success ? ({ ok: true, target: parsed.data } as const) : ({ ok: false, message: parsed.error.issues[0]?.message ?? 'not a memory target' } as const);
    },
    // What is secret: the target's `secret`, in what was sent and in the stored target.
    redact: {
      sent: (request: MemoryDelivery): MemoryDelivery => (request.secret ? { ...request, secret: REDACTED } : request),
      target: (target: MemoryTarget): MemoryTarget => (target.secret ? { ...target, secret: REDACTED } : target),
    },
  };
  if (opts.mode === 'in-transaction') {
    return defineDriver<MemoryTarget, MemoryDelivery>({
      ...base,
      mode: 'in-transaction',
      deliver: async (_tx, attempts) => attempts.map((a) => deliverTo(a.target, a.ctx, opts.record)),
    });
  }
  return defineDriver<MemoryTarget, MemoryDelivery, never>({
    ...base,
    mode: 'after-commit',
    needs: [],
    attemptMs: () => 1_000,
    // Through the process's pool: the engine counts the send in the database as its slot is taken.
    deliver: ({ target, ctx }, env) =>
      env.pool.run(async () => {
        const outcome = deliverTo(target, ctx, opts.record);
        if (opts.holdMs) await new Promise((r) => setTimeout(r, opts.holdMs));
        return outcome;
      }),
  });
}
