/**
 * The failed-login counters' one statement (lib/auth/login-rate-limit.ts): add one failure to the
 * counter `key`, in its current window, or start a new window at `now` when the counter is missing or
 * its window (started before `windowFloor`) has ended. Returns the counter's failures after the add.
 *
 * One atomic upsert (`INSERT … ON CONFLICT DO UPDATE`), so parallel failures from any number of web
 * processes each count once: a read-then-write would let N simultaneous guesses count as one.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';

/** Params: SQLite key, now, windowFloor, windowFloor, now (positional); PostgreSQL $1 key, $2 now, $3 windowFloor. */
export const COUNT_LOGIN_FAILURE_SQL = {
  sqlite: `INSERT INTO login_throttles (key, failures, window_start) VALUES (?, 1, ?)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttles.window_start > ? THEN login_throttles.failures + 1 ELSE 1 END,
        window_start = CASE WHEN login_throttles.window_start > ? THEN login_throttles.window_start ELSE ? END
      RETURNING failures`,
  postgresql: `INSERT INTO login_throttles (key, failures, window_start) VALUES ($1, 1, $2::timestamp(3))
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN login_throttles.window_start > $3::timestamp(3) THEN login_throttles.failures + 1 ELSE 1 END,
        window_start = CASE WHEN login_throttles.window_start > $3::timestamp(3) THEN login_throttles.window_start ELSE $2::timestamp(3) END
      RETURNING failures`,
} as const;

/** Count one failure for `key` at `now`; a window that started at or before `windowFloor` is over. */
export async function countLoginFailure(tx: Tx, key: string, now: Date, windowFloor: Date): Promise<number> {
  const dialect = dialectOfDb(tx);
  const [at, floor] = [sqlInstant(dialect, now), sqlInstant(dialect, windowFloor)];
  const args = dialect === 'sqlite' ? [key, at, floor, floor, at] : [key, at, floor];
  const rows = await tx.$queryRawUnsafe<{ failures: number | bigint }[]>(COUNT_LOGIN_FAILURE_SQL[dialect], ...args);
  return Number(rows[0].failures);
}
