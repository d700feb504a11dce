/**
 * `GET /metrics`: Prometheus text exposition (prom-client), computed from the database at each scrape
 * (lib/schedules/fire-metrics.ts), so one endpoint covers every worker process. Metric names:
 *
 * | metric | type | meaning |
 * |---|---|---|
 * | `scheduler_runs{status}` | gauge | run records held (within retention) by status |
 * | `scheduler_fires_recent{status}` | gauge | runs recorded in the last 5 minutes, by status |
 * | `scheduler_fire_lateness_seconds` | histogram | created_at − scheduled_for of scheduled fires in the last 5 minutes (recomputed each scrape: use `histogram_quantile` on it directly, without `rate()`) |
 * | `scheduler_due_backlog` | gauge | schedules with next_fire_at ≤ now |
 * | `scheduler_oldest_due_age_seconds` | gauge | how long the oldest due occurrence has waited |
 * | `scheduler_skipped_occurrences_total` | counter | occurrences skipped beyond the catch-up window (sum over schedules) |
 * | `scheduler_schedules{state,enabled}` | gauge | schedules by state and enabled flag |
 * | `scheduler_workers_live` | gauge | workers alive: not stopped, a heartbeat within 3 × their interval (the health rule) |
 * | `scheduler_worker_heartbeat_age_seconds` | gauge | seconds since a worker was last seen (absent if none ever reported) |
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { getDb, LATENESS_BUCKETS_SECONDS, type Db } from '../db';
import { collectFireMetrics, METRICS_WINDOW_SECONDS } from '../schedules';

export interface MetricsResponse {
  contentType: string;
  body: string;
}

/** The scrape at instant `now`. Throws when the database is unreachable (the route answers 503). */
export async function metricsText(now: Date, db: Db = getDb()): Promise<MetricsResponse> {
  const m = await collectFireMetrics(db, now);
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });

  const runs = gauge('scheduler_runs', 'Run records held (within retention), by status.', ['status']);
  const recent = gauge('scheduler_fires_recent', `Runs recorded in the last ${METRICS_WINDOW_SECONDS} s, by status.`, ['status']);
  for (const status of ['success', 'limit_exceeded', 'invocation_error']) {
    runs.set({ status }, m.runsByStatus[status] ?? 0);
    recent.set({ status }, m.recentRunsByStatus[status] ?? 0);
  }
  registry.registerMetric(
    latenessHistogram(
      'scheduler_fire_lateness_seconds',
      `Lateness (created_at - scheduled_for) of scheduled fires in the last ${METRICS_WINDOW_SECONDS} s, recomputed at each scrape.`,
      m.lateness,
    ) as unknown as Gauge,
  );
  gauge('scheduler_due_backlog', 'Schedules whose next_fire_at is at or before now.').set(m.dueBacklog);
  gauge('scheduler_oldest_due_age_seconds', 'Seconds the oldest due occurrence has waited (0 when none is due).').set(m.oldestDueAgeSeconds);
  const skipped = new Counter({ name: 'scheduler_skipped_occurrences_total', help: 'Occurrences skipped beyond the catch-up window, summed over schedules.', registers: [registry] });
  skipped.inc(m.skippedOccurrences);
  const schedules = gauge('scheduler_schedules', 'Schedules by state and enabled flag.', ['state', 'enabled']);
  for (const s of m.schedules) schedules.set({ state: s.state, enabled: String(s.enabled) }, s.count);
  gauge('scheduler_workers_live', 'Workers alive: not stopped, a heartbeat within 3 x their interval.').set(m.liveWorkers);
  if (m.heartbeatAgeSeconds !== null) gauge('scheduler_worker_heartbeat_age_seconds', 'Seconds since a worker was last seen (its freshest heartbeat or its stop).').set(m.heartbeatAgeSeconds);

  return { contentType: registry.contentType, body: await registry.metrics() };
}

/**
 * A histogram whose buckets come from the database rather than from `observe()` calls: prom-client's
 * registry formats any metric that answers `get()` with the values below (as its own Histogram does).
 */
function latenessHistogram(name: string, help: string, h: { buckets: number[]; count: number; sum: number }) {
  return {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: () => ({
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: [
        ...LATENESS_BUCKETS_SECONDS.map((le, i) => ({ labels: { le }, value: h.buckets[i], metricName: `${name}_bucket` })),
        { labels: { le: '+Inf' }, value: h.count, metricName: `${name}_bucket` },
        { labels: {}, value: h.sum, metricName: `${name}_sum` },
        { labels: {}, value: h.count, metricName: `${name}_count` },
      ],
    }),
  };
}
