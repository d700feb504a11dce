/**
 * `GET /metrics`: Prometheus text exposition (prom-client), computed from the database at each scrape
 * (lib/schedules/operations/fire-metrics.ts), so one endpoint covers every worker process. Metric names:
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
 * | `scheduler_retries_recent{status}` | gauge | retries (attempt ≥ 2) recorded in the last 5 minutes, by status |
 * | `scheduler_retries_pending` | gauge | attempts waiting for their turn (SPEC §12.2) |
 * | `scheduler_dead_letters` | gauge | exhausted occurrences kept in dead-letter lists (SPEC §12.3) |
 * | `scheduler_schedules_auto_paused` | gauge | schedules disabled by `pause_after_failures` and still disabled (SPEC §12.5) |
 * | `scheduler_run_duration_seconds{scheduler}` | histogram | `duration_ms` of runs whose outcome ended in the last 5 minutes (recomputed each scrape, as the lateness) (SPEC §16.3) |
 * | `scheduler_schedule_last_success_timestamp_seconds{scheduler,schedule}` | gauge | when the last successful occurrence ended; only schedulers with `metrics_per_schedule` (SPEC §16.3) |
 * | `scheduler_schedule_next_fire_timestamp_seconds{scheduler,schedule}` | gauge | the next fire (absent when none is planned); the same opt-in |
 * | `scheduler_schedule_consecutive_failures{scheduler,schedule}` | gauge | failed occurrences in a row (SPEC §12.5); the same opt-in |
 *
 * `scheduler` is `<org alias>/<scheduler alias>` (ids where there is no alias); `schedule` its name.
 */
import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Registry } from 'prom-client';
import { collectFireMetrics, METRICS_WINDOW_SECONDS, RUN_STATUSES, type FireMetrics } from '../schedules';
import { CLIENT_ADDRESS_HEADER, plainAddress } from './edge-guard';
import { runtime, type Runtime } from './runtime';

export interface MetricsResponse {
  contentType: string;
  body: string;
}

/** The scrape at instant `now`. Throws when the database is unreachable (the route answers 503). */
export async function metricsText(now: Date, db: Runtime['db'] = runtime().db, limits: Runtime['limits'] = runtime().limits): Promise<MetricsResponse> {
  const m = await collectFireMetrics(db, now, limits.schedulesPerRevision);
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });

  const runs = gauge('scheduler_runs', 'Run records held (within retention), by status.', ['status']);
  const recent = gauge('scheduler_fires_recent', `Runs recorded in the last ${METRICS_WINDOW_SECONDS} s, by status.`, ['status']);
  const retries = gauge('scheduler_retries_recent', `Retries (attempt 2 and later) recorded in the last ${METRICS_WINDOW_SECONDS} s, by status.`, ['status']);
  for (const status of RUN_STATUSES) {
    runs.set({ status }, m.runsByStatus[status] ?? 0);
    recent.set({ status }, m.recentRunsByStatus[status] ?? 0);
    retries.set({ status }, m.recentRetriesByStatus[status] ?? 0);
  }
  gauge('scheduler_retries_pending', 'Attempts waiting for their turn (retry back-off).').set(m.retriesPending);
  gauge('scheduler_dead_letters', 'Exhausted occurrences kept in dead-letter lists.').set(m.deadLetters);
  gauge('scheduler_schedules_auto_paused', 'Schedules disabled by pause_after_failures and still disabled.').set(m.autoPaused);
  registry.registerMetric(
    dbHistogram(
      'scheduler_fire_lateness_seconds',
      `Lateness (created_at - scheduled_for) of scheduled fires in the last ${METRICS_WINDOW_SECONDS} s, recomputed at each scrape.`,
      [{ labels: {}, histogram: m.lateness }],
    ) as unknown as Gauge,
  );
  registry.registerMetric(
    dbHistogram(
      'scheduler_run_duration_seconds',
      `Durations (finished_at - started_at) of runs whose outcome ended in the last ${METRICS_WINDOW_SECONDS} s, by scheduler, recomputed at each scrape.`,
      m.durations.map((d) => ({ labels: { scheduler: d.scheduler }, histogram: d.histogram })),
    ) as unknown as Gauge,
  );
  const series = ['scheduler', 'schedule'];
  const lastSuccess = gauge('scheduler_schedule_last_success_timestamp_seconds', 'Unix time the last successful occurrence ended (schedulers with metrics_per_schedule).', series);
  const nextFire = gauge('scheduler_schedule_next_fire_timestamp_seconds', 'Unix time of the next fire (schedulers with metrics_per_schedule).', series);
  const failures = gauge('scheduler_schedule_consecutive_failures', 'Failed occurrences in a row (schedulers with metrics_per_schedule).', series);
  for (const s of m.perSchedule) {
    const labels = { scheduler: s.scheduler, schedule: s.schedule };
    if (s.lastSuccessAt) lastSuccess.set(labels, s.lastSuccessAt.getTime() / 1000);
    if (s.nextFireAt) nextFire.set(labels, s.nextFireAt.getTime() / 1000);
    failures.set(labels, s.consecutiveFailures);
  }
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
 * One labelled histogram per entry of `each`.
 */
function dbHistogram(name: string, help: string, each: { labels: Record<string, string>; histogram: FireMetrics['lateness'] }[]) {
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
      values: each.flatMap(({ labels, histogram: h }) => [
        ...h.bounds.map((le, i) => ({ labels: { ...labels, le }, value: h.buckets[i], metricName: `${name}_bucket` })),
        { labels: { ...labels, le: '+Inf' }, value: h.count, metricName: `${name}_bucket` },
        { labels, value: h.sum, metricName: `${name}_sum` },
        { labels, value: h.count, metricName: `${name}_count` },
      ]),
    }),
  };
}

/**
 * May this request read `/metrics`? The totals span every org, so: with SCHEDULER_METRICS_TOKEN set
 * (`token`, from `runtime().http` by default), only `Authorization: Bearer <that token>` (compared in
 * constant time); without it, only a client on a loopback address (a scraper on the same host). The
 * client address is the one scripts/web-server.ts resolved (`CLIENT_ADDRESS_HEADER`); a request
 * without it is refused.
 */
export function metricsAllowed(headers: Headers, token: string | undefined = runtime().http.metricsToken): boolean {
  if (token) {
    const m = /^Bearer\s+(.+)$/i.exec(headers.get('authorization')?.trim() ?? '');
    const given = Buffer.from(m ? m[1].trim() : '');
    const expected = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  const client = plainAddress(headers.get(CLIENT_ADDRESS_HEADER) ?? '');
  return client === '::1' || /^127\.\d+\.\d+\.\d+$/.test(client);
}
