import { describe, expect, it } from 'vitest';
import { afterFailedAttempt } from '../retry-policy';
import { retryDelaySeconds } from '../contract';

const at = (iso: string) => new Date(iso);

describe('SPEC §12.2 retry back-off: min(60 × 2^(n−1), 86400) s after failed attempt n', () => {
  it('60, 120, 240 … capped at one day', () => {
    expect([1, 2, 3, 4, 5, 10, 11, 12, 13, 185].map(retryDelaySeconds)).toEqual([60, 120, 240, 480, 960, 30_720, 61_440, 86_400, 86_400, 86_400]);
  });

  it('attempt n+1 is due the delay after attempt n failed', () => {
    const policy = { maximumRetryAttempts: 2, maximumEventAgeSeconds: 86_400 };
    const scheduledFor = at('2026-01-01T00:00:00Z');
    expect(afterFailedAttempt(policy, 1, scheduledFor, at('2026-01-01T00:00:01Z'))).toEqual({ kind: 'retry', attempt: 2, at: at('2026-01-01T00:01:01Z') });
    expect(afterFailedAttempt(policy, 2, scheduledFor, at('2026-01-01T00:01:01Z'))).toEqual({ kind: 'retry', attempt: 3, at: at('2026-01-01T00:03:01Z') });
    // Attempt 3 = maximum_retry_attempts + 1: the last one.
    expect(afterFailedAttempt(policy, 3, scheduledFor, at('2026-01-01T00:03:01Z'))).toEqual({ kind: 'exhausted', reason: 'maximum_retry_attempts' });
  });

  it('maximum_retry_attempts 0: the first failure exhausts the occurrence', () => {
    expect(afterFailedAttempt({ maximumRetryAttempts: 0, maximumEventAgeSeconds: 86_400 }, 1, at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'))).toEqual({ kind: 'exhausted', reason: 'maximum_retry_attempts' });
  });

  it('a retry that would start after scheduled_for + maximum_event_age_seconds exhausts it instead', () => {
    const policy = { maximumRetryAttempts: 185, maximumEventAgeSeconds: 300 };
    const scheduledFor = at('2026-01-01T00:00:00Z');
    // Attempt 3 would start at 00:01 + 120 s + … : 00:00 + 60 → fails at 00:01, next at 00:03 (within 300 s).
    expect(afterFailedAttempt(policy, 2, scheduledFor, at('2026-01-01T00:01:00Z'))).toEqual({ kind: 'retry', attempt: 3, at: at('2026-01-01T00:03:00Z') });
    // Attempt 4 would start at 00:07 > 00:05.
    expect(afterFailedAttempt(policy, 3, scheduledFor, at('2026-01-01T00:03:00Z'))).toEqual({ kind: 'exhausted', reason: 'maximum_event_age' });
    // Exactly at the limit is still allowed (inclusive).
    expect(afterFailedAttempt({ maximumRetryAttempts: 5, maximumEventAgeSeconds: 60 }, 1, scheduledFor, scheduledFor)).toEqual({ kind: 'retry', attempt: 2, at: at('2026-01-01T00:01:00Z') });
  });
});
