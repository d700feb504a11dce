/** The SPEC §12 delivery settings in plain words (the form's hints, the schedule page). */
import { describe, expect, it } from 'vitest';
import { attemptsAllowed, backoffWords, flexibleWindowWords, pauseAfterFailuresWords, retryPolicyWords, secondsWords } from '../delivery-words';

describe('delivery words', () => {
  it('§12.2 back-off: the waits before each retry, doubling and capped at 1 day, and how many fit in the event age', () => {
    expect(backoffWords(3, 3600)).toBe('Waits before each retry: 60 s, 120 s, 240 s, doubling each time, capped at 1 day. If every attempt fails at once, the last retry starts 420 s after the first attempt.');
    // 60 + 120 + 240 = 420 ≤ 600 < 900 (with the 4th wait of 480 s).
    expect(backoffWords(5, 600)).toBe('Waits before each retry: 60 s, 120 s, 240 s, 480 s …, doubling each time, capped at 1 day. Within an event age of 10 min only 3 retries fit; after that the occurrence is exhausted.');
    expect(backoffWords(1, 60)).toBe('Waits before each retry: 60 s, doubling each time, capped at 1 day. If every attempt fails at once, the last retry starts 60 s after the first attempt.');
    expect(backoffWords(185, 86_400)).toMatch(/^Waits before each retry: 60 s, 120 s, 240 s, 480 s …, capped at 1 day\. Within an event age of 1 d only 10 retries fit;/);
    expect(backoffWords(0, 3600)).toBe('No retry: the first failed attempt ends the occurrence, which goes to the dead letters.');
    expect(backoffWords(Number.NaN, 3600)).toBe('');
  });

  it('a retry policy, the attempts an occurrence may make, the window and the pause threshold', () => {
    expect(retryPolicyWords({ maximum_retry_attempts: 2, maximum_event_age_seconds: 3600 }, false)).toBe('Up to 2 retries (3 attempts), none starting later than 1 h after the scheduled time.');
    expect(retryPolicyWords(undefined, false)).toBe('Off: one attempt per occurrence.');
    expect(retryPolicyWords(undefined, true)).toBe('No retry: the first failed attempt goes to the dead letters.');
    expect(attemptsAllowed({ retry_policy: { maximum_retry_attempts: 2, maximum_event_age_seconds: 60 } })).toBe(3);
    expect(attemptsAllowed({ dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:q' } })).toBe(1);
    expect(attemptsAllowed({})).toBeNull();
    expect(flexibleWindowWords({ mode: 'flexible', maximum_window_minutes: 10 })).toBe('Flexible, 10 minutes: each occurrence fires at its own fixed offset from 0 up to 10 minutes after its scheduled time.');
    expect(flexibleWindowWords(undefined)).toBe('Off: each occurrence fires at its scheduled time.');
    expect(pauseAfterFailuresWords(3)).toBe('Disable after 3 consecutive failed occurrences.');
    expect(pauseAfterFailuresWords(undefined)).toBe('Never: failures do not disable it.');
    expect([59, 60, 599, 600, 3600, 86_400].map(secondsWords)).toEqual(['59 s', '60 s', '599 s', '10 min', '1 h', '1 d']);
  });
});
