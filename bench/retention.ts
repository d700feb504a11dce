/**
 * Retention benchmark (issue "Performance at realistic scale"; docs/performance.md "Retention"): how
 * long the worker's retention sweep holds the database per statement, how long it takes in total, and
 * whether the SQLite file gives the space back, with 1M expired runs and their 1M executions while
 * another process keeps committing fresh history.
 *
 *   npm run bench:retention                      (npx tsx bench/retention.ts; SQLite, then PostgreSQL)
 *   npm run bench:retention -- --quick           (100k pairs instead of 1M)
 *   npm run bench:retention -- --pairs 250000 --schedules 100
 *   BENCH_SKIP_POSTGRES=1 npm run bench:retention  (SQLite only; PostgreSQL needs the server of
 *                                                 TEST_POSTGRES_URL, see `bash scripts/postgres-local.sh`)
 *
 * Each dialect: lib/testing/retention-scenario.ts on a fresh database (the pairs spread over
 * `--schedules` minutely schedules, 1,000 by default: each minute of history is 1,000 fires), a real
 * in-process Worker sweeping with the real clock and firing 100 live schedules between its batches,
 * and a history writer process committing one fire's rows per transaction throughout. Printed: rows
 * swept per phase, the sweep's wall time, each phase's statements (count, limit range, hold time p50 /
 * p95 / max), the file size before and after, and the other writer's commit latency during the sweep.
 * Figures, never a pass/fail on time; the closing `goal` line says whether the 50 ms bound held.
 *
 * First, per dialect, the cost of one expired row as the history grows (lib/testing/retention-scaling.ts):
 * the same 2,000 expired pairs swept from 1,000 kept pairs and from 1,000,000 (`--quick`: 100,000;
 * `--large N`), `--rounds` rounds (3) on one database each, medians; printed: the build time, µs per
 * deleted row (runs + executions statements' hold time ÷ rows; on SQLite also this process's CPU in
 * those steps, checkpoints after them included, which the machine's other load does not inflate), the
 * ratio large ÷ small and a `goal` line (≤ 2×, on the hold time). `--scaling` runs only this part.
 */
import { loadavg } from 'node:os';
import type { Dialect } from '../lib/db';
import type { SweepPhase } from '../lib/schedules';
import { runRetentionScenario, type RetentionScenarioResult } from '../lib/testing/retention-scenario';
import { runRetentionScaling, type RetentionScalingResult } from '../lib/testing/retention-scaling';
import { Worker } from '../worker/worker';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const QUICK = process.argv.includes('--quick');
const PAIRS = Number(arg('pairs') ?? (QUICK ? 100_000 : 1_000_000));
const SCHEDULES = Number(arg('schedules') ?? 1_000);
const SKIP_PG = process.env.BENCH_SKIP_POSTGRES === '1';
const BOUND_MS = 50;
const SCALING_ONLY = process.argv.includes('--scaling');
const SMALL = 1_000;
const LARGE = Number(arg('large') ?? (QUICK ? 100_000 : 1_000_000));
const EXPIRED = 2_000;
const ROUNDS = Number(arg('rounds') ?? 3);
const RATIO_GOAL = 2;

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;
const n = (x: number) => x.toLocaleString('en-US');

function print(r: RetentionScenarioResult): number {
  const phases: SweepPhase[] = ['runs', 'activity', 'executions', 'vacuum'];
  console.log(`\n## ${r.dialect}: ${n(PAIRS)} expired executions + runs over ${n(SCHEDULES)} schedules`);
  console.log(`seed (set-based SQL): executions ${(r.seedMs.executions / 1000).toFixed(1)} s, runs ${(r.seedMs.runs / 1000).toFixed(1)} s`);
  console.log(`swept: runs ${n(r.totals.runs)}, activity ${n(r.totals.activity)}, executions ${n(r.totals.executions)}${r.dialect === 'sqlite' ? `, vacuum ${n(r.totals.vacuum)} pages` : ''} in ${(r.sweepMs / 1000).toFixed(1)} s (${r.batches.length} statements)`);
  console.log('| phase | statements | limit min–max | rows/statement p50 | hold p50 | hold p95 | hold max |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const p of phases) {
    const b = r.batches.filter((x) => x.phase === p);
    if (b.length === 0) continue;
    const limits = b.map((x) => x.limit);
    console.log(`| ${p} | ${b.length} | ${Math.min(...limits)}–${Math.max(...limits)} | ${pct(b.map((x) => x.deleted), 50)} | ${ms(pct(b.map((x) => x.durationMs), 50))} | ${ms(pct(b.map((x) => x.durationMs), 95))} | ${ms(Math.max(...b.map((x) => x.durationMs)))} |`);
  }
  const all = r.batches.map((x) => x.durationMs);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(`every statement: hold p50 ${ms(pct(all, 50))}, p99 ${ms(pct(all, 99))}, max ${ms(Math.max(...all))}; ${pct(all, 100) > BOUND_MS ? `${all.filter((x) => x > BOUND_MS).length} of ${all.length} over ${BOUND_MS} ms` : `none over ${BOUND_MS} ms`}`);
  console.log(`where the sweep's ${(r.sweepMs / 1000).toFixed(1)} s went: statements holding the database ${(sum(all) / 1000).toFixed(1)} s, WAL checkpoints after them (no lock) ${(sum(r.batches.map((x) => x.checkpointMs)) / 1000).toFixed(1)} s, the rest (ticks, dead-letter sends, heartbeats between statements) ${((r.sweepMs - sum(all) - sum(r.batches.map((x) => x.checkpointMs))) / 1000).toFixed(1)} s`);
  const size = r.dialect === 'sqlite' ? 'file + WAL' : 'runs + executions with indexes (pg_total_relation_size)';
  console.log(`size (${size}): before ${mb(r.before.bytes)}, when the sweep was done ${mb(r.bytesAtDone)}, after a checkpoint ${mb(r.after.bytes)}`);
  const during = r.writer.at.map((at, i) => ({ at, ms: r.writer.ms[i] })).filter((c) => c.at >= r.sweepWindow.start && c.at <= r.sweepWindow.end);
  const gaps = during.slice(1).map((c, i) => c.at - during[i].at);
  console.log(`other writer during the sweep: ${n(during.length)} commits (${(during.length / (r.sweepMs / 1000)).toFixed(0)}/s), latency p50 ${ms(pct(during.map((c) => c.ms), 50))}, p99 ${ms(pct(during.map((c) => c.ms), 99))}, max ${ms(Math.max(0, ...during.map((c) => c.ms)))}; longest gap between two commits ${Math.max(0, ...gaps)} ms`);
  console.log(`the worker fired ${n(r.liveFiredDuringSweep)} live occurrences between its sweep batches`);
  console.log(`left: expired runs ${r.left.oldRuns}, expired executions ${r.left.oldExecutions}; the old execution a kept run links ${r.left.linkedOldExecution ? 'kept' : 'GONE'}, the unlinked one ${r.left.unlinkedOldExecution ? 'KEPT' : 'gone'}; the writer's ${n(r.left.writerRuns)} runs of ${n(r.writer.commits)} commits`);
  return Math.max(...all);
}

const median = (xs: number[]) => pct(xs, 50);

/** µs per deleted row of each round: runs + executions statements' hold time ÷ the rows they deleted. */
function perRow(r: RetentionScalingResult): number[] {
  return r.rounds.map((x) => (1000 * (x.heldMs.runs + x.heldMs.executions)) / Math.max(1, x.deleted.runs + x.deleted.executions));
}

/** The same expired pairs swept out of a small and a large history; returns the ratio of the medians. */
async function scaling(dialect: Dialect): Promise<number> {
  console.log(`\n## ${dialect}: ${n(EXPIRED)} expired pairs swept from ${n(SMALL)} vs ${n(LARGE)} kept pairs (${SCHEDULES} schedules, ${ROUNDS} rounds, medians)${QUICK ? ' (--quick: the full run uses 1,000,000)' : ''}`);
  console.log(`| kept pairs | build | rows deleted / round | statements | runs µs/row | executions µs/row | runs + executions µs/row (rounds) | ${dialect === 'sqlite' ? 'CPU µs/row incl. checkpoints (rounds)' : '—'} | vacuum pages, ms |`);
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const medians: number[] = [];
  const cpuMedians: number[] = [];
  for (const kept of [SMALL, LARGE]) {
    const r = await runRetentionScaling({ dialect, keptPairs: kept, expiredPairs: EXPIRED, schedules: SCHEDULES, rounds: ROUNDS });
    const rows = r.rounds.map((x) => x.deleted.runs + x.deleted.executions);
    const per = perRow(r);
    const cpu = r.rounds.map((x) => x.cpuUs / Math.max(1, x.deleted.runs + x.deleted.executions));
    medians.push(median(per));
    cpuMedians.push(median(cpu));
    const phase = (p: 'runs' | 'executions') => median(r.rounds.map((x) => (1000 * x.heldMs[p]) / Math.max(1, x.deleted[p]))).toFixed(0);
    console.log(`| ${n(kept)} | ${(r.buildMs / 1000).toFixed(1)} s | ${n(median(rows))} | ${median(r.rounds.map((x) => x.statements))} | ${phase('runs')} | ${phase('executions')} | ${median(per).toFixed(0)} (${per.map((x) => x.toFixed(0)).join(', ')}) | ${dialect === 'sqlite' ? `${median(cpu).toFixed(0)} (${cpu.map((x) => x.toFixed(0)).join(', ')})` : '—'} | ${median(r.rounds.map((x) => x.deleted.vacuum))}, ${median(r.rounds.map((x) => x.heldMs.vacuum)).toFixed(1)} ms |`);
    if (r.keptLeft !== 2 * kept) console.log(`  KEPT ROWS LOST: ${n(r.keptLeft)} of ${n(2 * kept)} left`);
  }
  const ratio = medians[1] / medians[0];
  console.log(`per-row cost ${n(LARGE)} ÷ ${n(SMALL)}: ${ratio.toFixed(2)}× (held time; on a loaded machine it includes time the process waited for a core)${dialect === 'sqlite' ? `; CPU ${(cpuMedians[1] / cpuMedians[0]).toFixed(2)}×` : ''}`);
  return ratio;
}

async function main() {
  const dialects: Dialect[] = SKIP_PG ? ['sqlite'] : ['sqlite', 'postgresql'];
  console.log(`load average at start: ${loadavg().map((x) => x.toFixed(1)).join(' ')} (2 vCPUs)`);
  const ratios: Partial<Record<Dialect, number>> = {};
  for (const dialect of dialects) ratios[dialect] = await scaling(dialect);
  const goals = dialects.map((d) => `goal ${d} retention per-row cost at ${n(LARGE)} ÷ ${n(SMALL)} kept pairs ≤ ${RATIO_GOAL}×: ${ratios[d]!.toFixed(2)}× (target ≤ ${RATIO_GOAL}×): ${ratios[d]! <= RATIO_GOAL ? 'met' : 'missed'}`);
  if (SCALING_ONLY) {
    console.log(`\nload average at end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    for (const g of goals) console.log(g);
    return;
  }
  const maxima: Partial<Record<Dialect, number>> = {};
  for (const dialect of dialects) {
    const r = await runRetentionScenario({
      dialect, oldPairs: PAIRS, freshPairs: 10_000, schedules: SCHEDULES, liveSchedules: 100, liveEveryMs: 500,
      worker: (o) => new Worker(o),
    });
    maxima[dialect] = print(r);
  }
  console.log(`\nload average at end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const sqliteMax = maxima.sqlite!;
  if (maxima.postgresql !== undefined) console.log(`postgresql sweep statement max: ${ms(maxima.postgresql)} (no database-wide lock; row locks only)`);
  for (const g of goals) console.log(g);
  console.log(`goal sqlite sweep batch lock ≤ ${BOUND_MS} ms: ${sqliteMax.toFixed(1)} ms (target ≤ ${BOUND_MS} ms): ${sqliteMax <= BOUND_MS ? 'met' : 'missed'}`);
}

await main();
