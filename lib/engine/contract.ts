/**
 * The fire engine's universal rules and names (SPEC §8.1, §12.2): why an occurrence's retries ended,
 * and the retry back-off. Universal (no I/O): the schedule contract re-exports them, and the form's
 * back-off hint reads `retryDelaySeconds` as the engine does.
 */

/** Why a failed attempt ended its occurrence's retries (SPEC §8.1 `exhausted`). */
export const EXHAUSTED_REASONS = [
  /** Attempt `maximum_retry_attempts + 1` failed. */
  'maximum_retry_attempts',
  /** The next retry would start after `scheduled_for + maximum_event_age_seconds`. */
  'maximum_event_age',
  /** Disabling the schedule or changing its target cancelled the pending retry (SPEC §12.2). */
  'cancelled',
] as const;
export type ExhaustedReason = (typeof EXHAUSTED_REASONS)[number];

/** Longest pause between two attempts, in seconds (SPEC §12.2). */
export const MAX_RETRY_DELAY_SECONDS = 86_400;

/**
 * The pause after failed attempt `attempt` (1 = the first), in seconds: `min(60 × 2^(n−1), 86400)`
 * (SPEC §12.2): 60, 120, 240, … capped at one day from the 12th attempt on. Pure; the fire path
 * (`retry-policy.ts`) and the form's back-off hint both use it.
 * @throws RangeError when `attempt` is not a whole number ≥ 1.
 */
export function retryDelaySeconds(attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt must be a whole number ≥ 1');
  // 2^(n-1) overflows nothing before the cap: 60 × 2^11 = 122,880 > 86,400 already.
  return attempt >= 12 ? MAX_RETRY_DELAY_SECONDS : Math.min(60 * 2 ** (attempt - 1), MAX_RETRY_DELAY_SECONDS);
}
