/**
 * Retries (SPEC §12.2) as pure decisions: does a schedule retry at all, and after a failed attempt, is
 * another one due, and when, or is the occurrence exhausted? No clock, no I/O: the caller passes the
 * instants. The back-off itself (`retryDelaySeconds`) is in the engine's contract, where the form reads it too.
 */
import type { FiringSchedule } from '../db';
import { retryDelaySeconds, type ExhaustedReason } from './contract';

/** `retry_policy` as stored (SPEC §12.2). */
export interface RetryPolicy {
  /** Retries after the first attempt, 0–185. So at most `maximumRetryAttempts + 1` attempts. */
  maximumRetryAttempts: number;
  /** How long after `scheduled_for` a retry may still start, in seconds, 60–86,400. */
  maximumEventAgeSeconds: number;
}

export type AttemptVerdict =
  | { kind: 'retry'; attempt: number; at: Date }
  | { kind: 'exhausted'; reason: Exclude<ExhaustedReason, 'cancelled'> };

/**
 * What follows failed attempt `attempt` of the occurrence `scheduledFor`, which failed at `failedAt`
 * (SPEC §12.2): attempt `attempt + 1` at `failedAt + retryDelaySeconds(attempt)`, unless `attempt` is
 * already `maximumRetryAttempts + 1` (exhausted: `maximum_retry_attempts`) or that instant is after
 * `scheduledFor + maximumEventAgeSeconds` (exhausted: `maximum_event_age`).
 */
export function afterFailedAttempt(policy: RetryPolicy, attempt: number, scheduledFor: Date, failedAt: Date): AttemptVerdict {
  if (attempt >= policy.maximumRetryAttempts + 1) return { kind: 'exhausted', reason: 'maximum_retry_attempts' };
  const at = new Date(failedAt.getTime() + retryDelaySeconds(attempt) * 1000);
  if (at.getTime() > scheduledFor.getTime() + policy.maximumEventAgeSeconds * 1000) return { kind: 'exhausted', reason: 'maximum_event_age' };
  return { kind: 'retry', attempt: attempt + 1, at };
}

/** The retry policy a failed attempt of `row` follows, or null for one attempt and no dead letter (BlobHub, SPEC §12.2). */
export function retryPolicyOf(row: Pick<FiringSchedule, 'retryMaximumAttempts' | 'retryMaximumEventAgeSeconds' | 'deadLetterArn'>): RetryPolicy | null {
  // A dead_letter without a retry_policy still has dead letters: its policy is "no retry".
  if (row.retryMaximumAttempts === null && row.deadLetterArn === null) return null;
  return { maximumRetryAttempts: row.retryMaximumAttempts ?? 0, maximumEventAgeSeconds: row.retryMaximumEventAgeSeconds ?? 86_400 };
}
