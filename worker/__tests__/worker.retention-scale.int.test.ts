/**
 * Retention at scale (issue "Performance at realistic scale", acceptance 3; docs/decisions.md 116–118, 261):
 * 100,000 expired runs and their 100,000 executions (seeded with set-based SQL over 1,000 minutely
 * schedules) are swept by a real in-process Worker with the real clock, one bounded statement between
 * two ticks, while it fires live schedules and while another process commits fresh fire history
 * (lib/testing/retention-scenario.ts). Asserted on counts only, never on time: every expired row is
 * gone; fresh runs, the writer's and the live fires' rows, and an old execution a kept run links are
 * all still there; no statement deleted more than its limit, and no limit grew more than twice the
 * last; the other writer committed throughout; on SQLite the file shrank. The statement times are
 * printed (hold p50 / p99 / max), as are the seed and sweep times. Runs on the TEST_DATABASE dialect.
 * The same scenario at 1,000,000 pairs is `npm run bench:retention`, which prints its figures; 100,000
 * already takes every batch limit to its ceiling, so the test asserts the same bounds in a tenth of the time.
 */
import { expect, it } from 'vitest';
import { SWEEP_MAX_BATCH, type SweepPhase } from '../../lib/schedules';
import { runRetentionScenario } from '../../lib/testing/retention-scenario';
import { testDialect } from '../../lib/testing/test-db';
import { Worker } from '../worker';

/** Expired execution + run pairs (the 1M runs in bench:retention; decision 261). */
const PAIRS = 100_000;
const FRESH = 10_000;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))];

it(`sweeps ${PAIRS.toLocaleString('en-US')} expired runs and their executions in bounded batches while the worker fires and another writer commits`, async () => {
  const dialect = testDialect();
  const started = Date.now();
  const r = await runRetentionScenario({ dialect, oldPairs: PAIRS, freshPairs: FRESH, schedules: 1_000, liveSchedules: 100, liveEveryMs: 500, worker: (o) => new Worker(o) });

  // Everything expired is gone, in the phases' counts and in the tables.
  expect(r.totals.runs).toBe(PAIRS);
  expect(r.totals.executions).toBe(PAIRS + 1); // + the old execution no run links
  expect(r.left).toEqual({
    oldRuns: 0, oldExecutions: 0, freshRuns: FRESH, freshExecutions: FRESH,
    linkedOldExecution: true, unlinkedOldExecution: false,
    writerRuns: r.writer.commits, writerExecutions: r.writer.commits,
  });
  // The worker fired between its sweep batches, and none of those runs was swept.
  expect(r.liveFiredDuringSweep).toBeGreaterThan(0);
  expect(r.liveRunsLeft).toBeGreaterThanOrEqual(r.liveFiredDuringSweep);

  // Bounded: no statement deleted (or, for executions, read) more than its limit; limits start at
  // 100, never exceed SWEEP_MAX_BATCH, and at most double from one statement of a phase to the next.
  const last: Partial<Record<SweepPhase, number>> = {};
  for (const b of r.batches) {
    expect(b.deleted).toBeLessThanOrEqual(b.limit);
    expect(b.scanned).toBeLessThanOrEqual(b.limit);
    expect(b.limit).toBeLessThanOrEqual(SWEEP_MAX_BATCH);
    expect(b.limit).toBeLessThanOrEqual(2 * (last[b.phase] ?? 50));
    last[b.phase] = b.limit;
  }

  // The other writer kept committing through the sweep: in each quarter of it.
  const { start, end } = r.sweepWindow;
  const quarter = (end - start) / 4;
  const perQuarter = [0, 1, 2, 3].map((q) => r.writer.at.filter((at) => at >= start + q * quarter && at < start + (q + 1) * quarter).length);
  for (const n of perQuarter) expect(n).toBeGreaterThan(0);

  // SQLite gives the space back: the file is a fraction of what it was.
  if (dialect === 'sqlite') expect(r.after.bytes).toBeLessThan(r.before.bytes / 4);

  const report = (phase: SweepPhase) => {
    const b = r.batches.filter((x) => x.phase === phase);
    if (b.length === 0) return `${phase}: none`;
    const held = b.map((x) => x.durationMs);
    return `${phase}: ${b.length} statements, ${b.reduce((n, x) => n + x.deleted, 0).toLocaleString('en-US')} ${phase === 'vacuum' ? 'pages' : 'rows'}, hold p50 ${pct(held, 50).toFixed(1)} / p99 ${pct(held, 99).toFixed(1)} / max ${Math.max(...held).toFixed(1)} ms`;
  };
  const during = r.writer.at.map((at, i) => ({ at, ms: r.writer.ms[i] })).filter((c) => c.at >= start && c.at <= end);
  console.log([
    `retention at scale (${dialect}): seed ${((r.seedMs.executions + r.seedMs.runs) / 1000).toFixed(1)} s, sweep ${(r.sweepMs / 1000).toFixed(1)} s, whole test ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ...(['runs', 'activity', 'executions', 'vacuum'] as const).map(report),
    `size: ${(r.before.bytes / 1e6).toFixed(0)} MB before, ${(r.after.bytes / 1e6).toFixed(0)} MB after`,
    `other writer: ${during.length} commits during the sweep (per quarter ${perQuarter.join(' / ')}), latency p50 ${pct(during.map((c) => c.ms), 50).toFixed(1)} / p99 ${pct(during.map((c) => c.ms), 99).toFixed(1)} / max ${Math.max(...during.map((c) => c.ms)).toFixed(1)} ms`,
    `live fires between the batches: ${r.liveFiredDuringSweep}`,
  ].join('\n  '));
}, 1_800_000);
