/**
 * What a fire reports, one outcome per claimed occurrence or pending attempt (the worker turns each
 * into a typed event, worker/events.ts), and the bounds of the transactions that produce them.
 */
import type { FireTrigger } from '../targets';
import type { ExhaustedReason } from './contract';
import type { InFlightAttempt } from './in-flight';
import type { AfterAttempt, RunOutcome } from './settle';

/**
 * Interactive-transaction bounds for a batch. `maxWait` covers waiting for SQLite's write lock
 * (another worker's batch) or a PostgreSQL connection; `timeout` is far above a batch's real cost
 * and only stops a wedged transaction (it then rolls back: nothing fired).
 */
export const FIRE_TX = { maxWait: 30_000, timeout: 120_000 } as const;

/**
 * Why catching up skipped occurrences (SPEC §8, §18.2): beyond the catch-up window, or inside it by
 * the schedule's `catch_up` — `max_burst` (mode `all`), `latest`, `none`. When both apply, the
 * mode's reason is given; `skippedOutsideWindow` counts the others.
 */
export type SkipReason = 'outside-catchup-window' | 'catchup-max-burst' | 'catchup-latest' | 'catchup-none';

export type FireOutcome =
  | ({
      kind: 'fired';
      scheduleId: string;
      scheduledFor: Date;
      attempt: number;
      /** The fire's stored trigger (a backfill's names it, SPEC §18.1). */
      trigger?: FireTrigger;
      /** How late the attempt started: after the offset instant (first attempt) or its due time (retry). */
      lateMs: number;
      run: RunOutcome;
      /** A failed attempt that will be retried: when. */
      nextAttemptAt: Date | null;
      /** A failed attempt that ended its occurrence's retries: why. */
      exhausted: ExhaustedReason | null;
    } & AfterAttempt)
  /**
   * An attempt of an after-commit driver stored in flight (SPEC §13): the caller delivers `delivery`
   * after commit and records it (`recordDelivered`); its run does not exist yet.
   */
  | { kind: 'delivering'; scheduleId: string; scheduledFor: Date; attempt: number; lateMs: number; delivery: InFlightAttempt }
  | { kind: 'skipped'; scheduleId: string; scheduledFor: Date; skipped: number; reason: SkipReason; skippedOutsideWindow: number; completed: boolean; deleted: boolean }
  /** The occurrence already has a scheduled run: next_fire_at was advanced, nothing fired again. */
  | { kind: 'already-fired'; scheduleId: string; scheduledFor: Date; completed: boolean; deleted: boolean }
  /** SPEC §16.2: due while run `inProgressRunId` was in progress: recorded `skipped`, or kept waiting (`buffer`). */
  | { kind: 'overlap'; scheduleId: string; scheduledFor: Date; action: 'skip' | 'buffer'; inProgressRunId: string }
  /** A pending retry of a schedule that is no longer enabled: cancelled, not fired (SPEC §12.2). */
  | { kind: 'retry-cancelled'; scheduleId: string; scheduledFor: Date; attempt: number }
  /** Another worker (or a save) moved next_fire_at first: nothing was written. */
  | { kind: 'lost-race'; scheduleId: string; scheduledFor: Date }
  /** The following occurrence could not be computed: the schedule was paused with the reason (not fired, not advanced). */
  | { kind: 'error'; scheduleId: string; scheduledFor: Date; error: Error };
