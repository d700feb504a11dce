/**
 * The worker's typed events (STYLE §1.6). Logs, metrics and tests subscribe; a listener's error is
 * logged and never breaks the loop.
 */
import { EventEmitter } from 'node:events';
import type { AlertSendReport, SkipReason, SweepBatch, SweepPhase } from '../lib/schedules';
import { logger } from '../lib/log';

export interface WorkerEventMap {
  'worker:start': { workerId: string };
  'worker:stop': { workerId: string; reason: string };
  /** A heartbeat deleted the rows of workers not seen for 10 × their interval (dead processes). */
  'worker:pruned': { pruned: number };
  'tick:start': { now: Date };
  /** A tick's batch committed (or nothing was due). `claimed` counts every outcome of the batch. */
  'tick:end': { now: Date; claimed: number; fired: number; durationMs: number };
  'tick:error': { error: Error };
  /** An attempt of an occurrence (1 = first, 2… = retries) ran and its run was recorded. */
  'occurrence:fired': {
    scheduleId: string;
    scheduledFor: Date;
    attempt: number;
    lateMs: number;
    status: string;
    error?: string;
    runId: string;
    /** A failed attempt that will be retried: when. */
    nextAttemptAt: Date | null;
    /** A failed attempt that ended its occurrence's retries (SPEC §8.1): why. */
    exhausted: string | null;
    completed: boolean;
    /** `action_after_completion: "delete"` removed the schedule. */
    deleted: boolean;
    /** `pause_after_failures` disabled the schedule (SPEC §12.5). */
    paused: boolean;
    /** The backfill that fired it (SPEC §18.1), absent for the schedule's own and manual fires. */
    backfillId?: string;
  };
  /** An http or aws attempt was stored in flight and handed to the delivery pool (SPEC §13). */
  'occurrence:delivering': { scheduleId: string; scheduledFor: Date; attempt: number; lateMs: number; deliveries: number };
  /** Attempts waiting for a delivery slot were cancelled, never sent: their schedules were deleted or disabled (SPEC §12.2). */
  'deliveries:cancelled': { cancelled: number };
  /** Recording delivered attempts failed: their leases lapse and a worker recovers them. */
  'delivery:error': { error: Error };
  /** Dead letters sent to their SQS queues (SPEC §12.3), and sends that failed. */
  /** SPEC §17: the minute check raised `silence` for `silent` schedules and `realerts` re-alert rows. */
  'alerts:raised': { silent: number; realerts: number };
  'alerts:sent': AlertSendReport;
  /** Alert log rows and ended incidents older than the run retention, deleted. */
  'alerts:swept': { deleted: number };
  /** SPEC §17 dead man's switch: SCHEDULER_HEARTBEAT_URL answered `status`, or the request failed. */
  'heartbeat-url:pinged': { status: number };
  'heartbeat-url:failed': { error: Error };
  'dead-letters:sent': { sent: number; failed: number; failures: { deadLetterId: string; queue: string; error: string; message: string; final: boolean }[] };
  /** Runs whose completion deadline passed without a terminal check-in, decided `timed_out` by this worker (SPEC §16.1). */
  'outcome:timed-out': { runs: { runId: string; scheduleId: string }[] };
  /** A pending retry of a schedule that is no longer enabled was cancelled, not fired (SPEC §12.2). */
  'retry:cancelled': { scheduleId: string; scheduledFor: Date; attempt: number };
  /**
   * Missed occurrences (SPEC §8, §18.2): `skipped` occurrences not fired, beyond the catch-up window or
   * left out by the schedule's `catch_up` mode or `max_burst`, counted in `skipped_occurrences` (the
   * `missed` event of SPEC §17).
   */
  'occurrence:skipped': { scheduleId: string; scheduledFor: Date; skipped: number; reason: SkipReason; skippedOutsideWindow: number; completed: boolean; deleted: boolean };
  /** A backfill tick (SPEC §18.1): occurrences it claimed and fired (or stored in flight), and backfills it completed. */
  'backfill:tick': { fired: number; completed: string[]; waiting: number; durationMs: number };
  'backfill:error': { error: Error };
  'occurrence:lost-race': { scheduleId: string; scheduledFor: Date };
  /** SPEC §16.2: due while a run was in progress: recorded `skipped`, or kept waiting until it ends (`buffer`). */
  'occurrence:overlap': { scheduleId: string; scheduledFor: Date; action: 'skip' | 'buffer'; inProgressRunId: string };
  /** The occurrence already had a scheduled run: advanced without firing again. */
  'occurrence:already-fired': { scheduleId: string; scheduledFor: Date; completed: boolean; deleted: boolean };
  /** The occurrence could not be fired (left due; reported again on every tick). */
  'occurrence:error': { scheduleId: string; scheduledFor: Date; error: Error };
  /**
   * One retention statement ran (lib/schedules `SweepBatch`): its phase, limit, rows deleted and how
   * long it held the database; `done` when the sweep has caught up, with the sweep's `totals` per phase.
   */
  'retention:swept': SweepBatch & { totals: Record<SweepPhase, number> | null };
}

export class WorkerEvents {
  private readonly emitter = new EventEmitter();

  on<K extends keyof WorkerEventMap>(event: K, listener: (payload: WorkerEventMap[K]) => void): () => void {
    const wrapped = (payload: WorkerEventMap[K]) => {
      try {
        listener(payload);
      } catch (e) {
        logger.error('worker event listener failed', { event, error: String(e) });
      }
    };
    this.emitter.on(event, wrapped);
    return () => this.emitter.off(event, wrapped);
  }

  emit<K extends keyof WorkerEventMap>(event: K, payload: WorkerEventMap[K]): void {
    this.emitter.emit(event, payload);
  }
}
