/**
 * Failed-login throttling. In memory, per web process: counters reset when the process restarts and
 * are not shared between several web processes (each allows its own budget). Recorded in
 * docs/decisions.md. Two windows of 15 minutes:
 * - 5 failures for one email from one client address, then that pair is refused (`429 rate_limited`);
 * - 50 failures for one email from any addresses (bounds guessing through forged client addresses).
 * A successful login clears the pair's counter.
 */

/** Length of the counting window, in ms (15 minutes). */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per email + client address in one window. */
export const LOGIN_FAILURES_PER_CLIENT = 5;
/** Failures allowed per email from all addresses in one window. */
export const LOGIN_FAILURES_PER_EMAIL = 50;
/** Most counters kept; beyond it the oldest windows are dropped first. */
const MAX_KEYS = 50_000;

interface Window {
  start: number;
  failures: number;
}

export class LoginRateLimiter {
  private readonly windows = new Map<string, Window>();

  /** Ms until `email` may try again from `client`, or 0 when it may try now. */
  retryAfterMs(email: string, client: string, now: number): number {
    const pair = this.live(`c:${email}|${client}`, now);
    const all = this.live(`e:${email}`, now);
    let wait = 0;
    if (pair && pair.failures >= LOGIN_FAILURES_PER_CLIENT) wait = Math.max(wait, pair.start + LOGIN_WINDOW_MS - now);
    if (all && all.failures >= LOGIN_FAILURES_PER_EMAIL) wait = Math.max(wait, all.start + LOGIN_WINDOW_MS - now);
    return wait;
  }

  recordFailure(email: string, client: string, now: number): void {
    for (const key of [`c:${email}|${client}`, `e:${email}`]) {
      const w = this.live(key, now);
      if (w) w.failures++;
      else this.windows.set(key, { start: now, failures: 1 });
    }
    if (this.windows.size > MAX_KEYS) this.prune(now);
  }

  recordSuccess(email: string, client: string): void {
    this.windows.delete(`c:${email}|${client}`);
  }

  /** Forget every counter (tests). */
  clear(): void {
    this.windows.clear();
  }

  private live(key: string, now: number): Window | undefined {
    const w = this.windows.get(key);
    if (w && now - w.start >= LOGIN_WINDOW_MS) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= LOGIN_WINDOW_MS) this.windows.delete(key);
    // Still too many: drop the oldest (Map keeps insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size <= MAX_KEYS) break;
      this.windows.delete(key);
    }
  }
}

/** The process's limiter (one per web process; see the file comment). */
export const loginRateLimiter = new LoginRateLimiter();
