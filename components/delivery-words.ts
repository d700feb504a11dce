/**
 * The SPEC §12 delivery settings in plain words, for the schedule form's hints and the schedule page:
 * the retry back-off (`retryDelaySeconds`, the contract's one rule), the retry policy, the flexible
 * time window, after completion, pause after failures, and why an occurrence's retries ended.
 * Universal and pure.
 */
import { retryDelaySeconds, type ExhaustedReason, type FlexibleTimeWindow, type RetryPolicyJson, type Schedule } from '@/lib/schedules/contract';
import { formatDuration } from './format';

/** `60 s`, `1 h`, `1 d`: a whole number of seconds, short. */
export function secondsWords(seconds: number): string {
  return seconds < 600 ? `${seconds} s` : formatDuration(seconds * 1000);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * What `retries` retries with `maximumEventAgeSeconds` mean, attempt by attempt (SPEC §12.2): the wait
 * before each retry (60 s, 120 s, 240 s …, doubling, capped at 1 day), how many fit inside the event
 * age when every attempt fails at once, and when the last one would start.
 */
export function backoffWords(retries: number, maximumEventAgeSeconds: number): string {
  if (!Number.isInteger(retries) || retries < 0) return '';
  if (retries === 0) return 'No retry: the first failed attempt ends the occurrence, which goes to the dead letters.';
  const waits = Array.from({ length: Math.min(retries, 4) }, (_, i) => secondsWords(retryDelaySeconds(i + 1)));
  const list = `${waits.join(', ')}${retries > 4 ? ' …' : ''}`;
  // The retries that start within the event age if every attempt fails at once (attempt 1 on time).
  let elapsed = 0;
  let fit = 0;
  for (let n = 1; n <= retries; n++) {
    const next = elapsed + retryDelaySeconds(n);
    if (Number.isInteger(maximumEventAgeSeconds) && next > maximumEventAgeSeconds) break;
    elapsed = next;
    fit = n;
  }
  const capped = retries >= 12 ? ', capped at 1 day' : ', doubling each time, capped at 1 day';
  const fits =
    !Number.isInteger(maximumEventAgeSeconds) || maximumEventAgeSeconds <= 0
      ? ''
      : fit < retries
        ? ` Within an event age of ${secondsWords(maximumEventAgeSeconds)} only ${plural(fit, 'retry', 'retries')} fit${fit === 1 ? 's' : ''}; after that the occurrence is exhausted.`
        : ` If every attempt fails at once, the last retry starts ${secondsWords(elapsed)} after the first attempt.`;
  return `Waits before each retry: ${list}${capped}.${fits}`;
}

/** A retry policy in words: "Up to 3 retries (4 attempts), none later than 1 h after the scheduled time". */
export function retryPolicyWords(policy: RetryPolicyJson | undefined, deadLetter: boolean): string {
  if (!policy) return deadLetter ? 'No retry: the first failed attempt goes to the dead letters.' : 'Off: one attempt per occurrence.';
  const { maximum_retry_attempts: retries, maximum_event_age_seconds: age } = policy;
  if (retries === 0) return 'No retry (0 retries): the first failed attempt goes to the dead letters.';
  return `Up to ${plural(retries, 'retry', 'retries')} (${plural(retries + 1, 'attempt')}), none starting later than ${secondsWords(age)} after the scheduled time.`;
}

/** How many attempts an occurrence of `schedule` may make (SPEC §12.2), or null when it is not retried at all. */
export function attemptsAllowed(schedule: Pick<Schedule, 'retry_policy' | 'dead_letter'>): number | null {
  if (schedule.retry_policy) return schedule.retry_policy.maximum_retry_attempts + 1;
  return schedule.dead_letter ? 1 : null;
}

/** The flexible time window in words (SPEC §12.4). */
export function flexibleWindowWords(window: FlexibleTimeWindow | undefined): string {
  if (!window || window.mode === 'off') return 'Off: each occurrence fires at its scheduled time.';
  return `Flexible, ${plural(window.maximum_window_minutes, 'minute')}: each occurrence fires at its own fixed offset from 0 up to ${plural(window.maximum_window_minutes, 'minute')} after its scheduled time.`;
}

/** `action_after_completion` in words (SPEC §12.5). */
export function afterCompletionWords(action: Schedule['action_after_completion']): string {
  return action === 'delete' ? 'Delete the schedule once it completes (its dead letters stay).' : 'Keep the schedule once it completes (read-only).';
}

/** `pause_after_failures` in words (SPEC §12.5). */
export function pauseAfterFailuresWords(n: number | undefined): string {
  return n === undefined ? 'Never: failures do not disable it.' : `Disable after ${plural(n, 'consecutive failed occurrence')}.`;
}

/** Why an occurrence's retries ended (SPEC §8.1 `exhausted`), in words. */
export const EXHAUSTED_WORDS: Record<ExhaustedReason, string> = {
  maximum_retry_attempts: 'maximum retry attempts',
  maximum_event_age: 'maximum event age',
  cancelled: 'cancelled',
};
