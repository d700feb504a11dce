/**
 * The work budget of the time engine (SPEC §7.1: "computing the next occurrence always terminates
 * quickly, whatever the expression"). Every loop of `lib/cron` that is not bounded by a fixed-size
 * table calls `step()` once per turn, and every `Intl` offset read counts as `READ_STEPS` steps, so the
 * steps of one public call measure all the work it does. A public call runs between `beginWork` and
 * `endWork` with the budget of its operation and throws `CronWorkBudgetExceeded` at the first step
 * past it (`overBudget`): whatever the tz database holds, no call runs unbounded.
 *
 * Should one public call make another, only the outermost counts, and its budget covers the inner
 * one. The engine is synchronous, so one counter per process is exact.
 */
import { CronWorkBudgetExceeded } from './errors';

/**
 * Steps each public operation may take: about ten times the most that any of the 595 zones the engine
 * accepts was seen to need, cold (nothing cached), for the worst expressions known: one that only
 * matches inside DST gaps, walked to 2199 (`30 2 ? 3 1#2 *`, 50 occurrences asked, America/St_Johns:
 * ~73,000 steps; `* 2 ? 3 1L *` backwards from 2200, Arctic/Longyearbyen: ~61,000), and a two-minute
 * cadence scanned for its shortest gap from 1969 (`0/2 * * * ? *`, Asia/Hebron: ~3.0 million steps,
 * about a second). A call stuck reading offsets gives up after ~30,000 reads (~0.1 s) for an
 * occurrence, ~1.5 million (seconds) for `minIntervalSeconds`. lib/cron/__tests__/bounded-work.test.ts
 * checks every zone.
 */
export const WORK_BUDGETS = {
  /** `nextOccurrences`, `nextOccurrence`, `previousOccurrence`: per call, plus `perOccurrence` × count. */
  occurrence: 600_000,
  perOccurrence: 2_000,
  /** `minIntervalSeconds`: one scan of every matching day up to 2199, walking the days near offset changes. */
  minInterval: 30_000_000,
  /** Wall time ↔ instant (`resolveWallTime`, `resolveLocalTime`, `toLocalTime`, `wallTimeAt`): a few offset tables. */
  wallTime: 10_000,
} as const;

let steps = 0;
let budget = 0;
/** Public calls open now (0 outside the engine; 2 or more only when one calls another). */
let depth = 0;
/** Tests only: a lower budget for every call (`withCronWorkBudget`). */
let cap = Infinity;
// The latest finished call. Only small integers are stored on the hot path: no allocation per call.
let lastSteps = 0;
let lastBudget = 0;

/** Thrown by `step` past the budget; the public call turns it into `CronWorkBudgetExceeded` (`overBudget`). */
const OVER_BUDGET = Object.freeze({ overBudget: true });

/** What the latest finished public call of the time engine did: the steps it took and its budget. */
export interface CronWork {
  readonly steps: number;
  readonly budget: number;
}

/**
 * Opens a public call allowed `limit` steps. Inside another call it only nests (the outer budget
 * counts). Pair with `endWork` in a `finally`, and pass what the call throws through `overBudget`.
 */
export function beginWork(limit: number): void {
  if (depth++ > 0) return;
  steps = 0;
  budget = limit < cap ? limit : cap;
}

/** Closes the call `beginWork` opened; the outermost one's count becomes `lastCronWork()`. */
export function endWork(): void {
  if (--depth > 0) return;
  lastSteps = steps;
  lastBudget = budget;
}

/**
 * Steps one `Intl` offset read counts for: a read costs a few microseconds, a turn of a walk tens of
 * nanoseconds, so a call stuck reading offsets stops about as soon as one stuck walking.
 */
export const READ_STEPS = 20;

/** `cost` steps of work (1 for a turn of a walk, `READ_STEPS` for an offset read); past the open call's budget it throws. Outside a call it only counts. */
export function step(cost = 1): void {
  if ((steps += cost) > budget && depth > 0) throw OVER_BUDGET;
}

/**
 * What a public call rethrows for `error` caught inside it: `CronWorkBudgetExceeded` naming the call
 * (`operation` on `expression` in `timezone` from instant `at`, NaN for none) when the budget ran out,
 * else `error` itself.
 */
export function overBudget(error: unknown, operation: string, expression: string | null, timezone: string, at: number): unknown {
  if (error !== OVER_BUDGET) return error;
  return new CronWorkBudgetExceeded(operation, expression, timezone, Number.isNaN(at) ? null : new Date(at), budget);
}

/** The steps the latest finished public call took and its budget (tests assert them). */
export function lastCronWork(): CronWork {
  return { steps: lastSteps, budget: lastBudget };
}

/** Tests only: runs `run` with every public call's budget lowered to at most `limit` steps. */
export function withCronWorkBudget<T>(limit: number, run: () => T): T {
  const before = cap;
  cap = limit;
  try {
    return run();
  } finally {
    cap = before;
  }
}
