/**
 * The fire-lateness histogram of GET /metrics, computed in the database from recent run records:
 * lateness = created_at − scheduled_for (SPEC §8.1: when the fire was recorded minus the occurrence),
 * for first attempts (`trigger = 'schedule'`, `attempt = 1`) created after `since` (the `runs(created_at)` index
 * bounds the read). A flexible time window's offset (SPEC §12.4) counts as lateness here.
 * Computing it from the runs (not from one process's memory) makes it cover every worker.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';

/** Upper bounds of the lateness buckets, in seconds (Prometheus `le`, inclusive). */
export const LATENESS_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] as const;

export interface LatenessHistogram {
  /** The buckets' upper bounds, in seconds (LATENESS_BUCKETS_SECONDS; Prometheus `le`, inclusive). */
  bounds: readonly number[];
  /** Cumulative count of fires with lateness ≤ each bound, in order. */
  buckets: number[];
  /** All fires in the window (the `+Inf` bucket). */
  count: number;
  /** Sum of their lateness, in seconds. */
  sum: number;
}

const LATENESS = {
  // Prisma's stored TEXT instants (instant.ts) are read by julianday(): fractional days → seconds.
  sqlite: `(julianday(created_at) - julianday(scheduled_for)) * 86400.0`,
  postgresql: `EXTRACT(EPOCH FROM (created_at - scheduled_for))::float8`,
} as const;

/** Param: since. One row: n, total, b0 … b11 (cumulative bucket counts). */
export const FIRE_LATENESS_SQL = Object.fromEntries(
  (['sqlite', 'postgresql'] as const).map((d) => [
    d,
    `SELECT COUNT(*) AS n, COALESCE(SUM(l), 0) AS total, ${LATENESS_BUCKETS_SECONDS.map((b, i) => `COALESCE(SUM(CASE WHEN l <= ${b} THEN 1 ELSE 0 END), 0) AS b${i}`).join(', ')}
     FROM (SELECT ${LATENESS[d]} AS l FROM runs WHERE trigger = 'schedule' AND attempt = 1 AND created_at > ${d === 'sqlite' ? '?' : '$1::timestamp(3)'}) AS recent`,
  ]),
) as Record<'sqlite' | 'postgresql', string>;

/** The lateness histogram of scheduled fires recorded after `since`. */
export async function fireLateness(tx: Tx, since: Date): Promise<LatenessHistogram> {
  const dialect = dialectOfDb(tx);
  const [row] = await tx.$queryRawUnsafe<Record<string, number | bigint | string | null>[]>(FIRE_LATENESS_SQL[dialect], sqlInstant(dialect, since));
  const num = (v: unknown) => Number(v ?? 0);
  return { bounds: LATENESS_BUCKETS_SECONDS, buckets: LATENESS_BUCKETS_SECONDS.map((_, i) => num(row[`b${i}`])), count: num(row.n), sum: num(row.total) };
}
