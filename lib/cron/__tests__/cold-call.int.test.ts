/**
 * SPEC §7.1 "computing the next occurrence always terminates quickly", for the worst cold case: an
 * expression that only ever matches inside a DST gap walks every year to 2199 and needs the zone's
 * offsets in each of them. Measured in a fresh process (nothing cached, nothing compiled yet).
 * The `Intl` read count is exact and pins the cost. The time asserted is the CPU time the fresh,
 * single-threaded process spent in the call (the fastest of up to five fresh processes): on an idle
 * machine that is the call's wall-clock time, and unlike wall-clock time it does not grow when other
 * processes compete for the cores (CI machines are shared). The wall-clock figure is printed beside it. In the
 * integration project, which runs one file at a time.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'cold-call.ts');

function coldCall(expression: string, zone: string, after: string): { ms: number; cpuMs: number; reads: number; next: string | null } {
  // --single-threaded: V8 compiles and collects on the main thread, so the process's CPU time is the
  // call's own work (background compiler threads would otherwise add to it).
  const out = execFileSync(process.execPath, ['--single-threaded', '--import', 'tsx', FIXTURE, expression, zone, after], { encoding: 'utf8' });
  return JSON.parse(out);
}

describe('SPEC §7.1 cold first call of an expression that only matches inside a DST gap', () => {
  it.each([
    // 02:30 on the second Sunday of March: the US spring-forward gap every year since 2007.
    ['30 2 ? 3 1#2 *', 'America/New_York'],
    // Every minute of 02:xx on the last Sunday of March: the EU spring-forward gap every year.
    ['* 2 ? 3 1L *', 'Europe/Berlin'],
  ])('`%s` in %s: never fires, under 50 ms and ~2,500 Intl reads cold', (expression, zone) => {
    const runs = [];
    for (let i = 0; i < 5; i++) {
      const run = coldCall(expression, zone, '2026-12-01T00:00:00Z');
      runs.push(run);
      if (run.cpuMs < 50) break;
    }
    const fastest = Math.min(...runs.map((r) => r.cpuMs));
    const wall = Math.min(...runs.map((r) => r.ms));
    console.log(`${expression} ${zone}: fastest cold call ${fastest.toFixed(1)} ms CPU (${wall.toFixed(1)} ms wall) of ${runs.length} fresh process(es), ${runs[0].reads} Intl reads`);
    expect(runs[0].next).toBeNull();
    // 174 years × one 15-day span (6 reads) + one change (~8 reads); whole-year tables took ~45,000.
    expect(runs[0].reads).toBeLessThan(3_000);
    expect(fastest).toBeLessThan(50);
  }, 60_000);
});
