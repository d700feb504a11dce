/**
 * `scheduler cron next` and `scheduler cron explain`: the product's time engine (`lib/cron`, SPEC §7,
 * §12.1) from the terminal, offline, for cron expressions and rates (`rate(15 minutes)`). `next` prints
 * one occurrence a line: the ISO UTC instant, two spaces, the local wall time and the zone
 * (`2026-12-01T09:00:00.000Z  2026-12-01T10:00:00 Europe/Berlin`).
 */
import {
  assertTimezone,
  CronExpressionError,
  describeCron,
  describeRate,
  nextOccurrences,
  nextRateOccurrences,
  parseCronExpression,
  parseRateExpression,
  RateExpressionError,
  TimezoneError,
  toLocalTime,
} from '../../lib/cron';
import { CliError } from '../client';
import { EXIT, reportError, type Io } from '../io';

export interface CronNextOptions {
  expression: string;
  /** IANA zone; default `UTC`. */
  timezone: string;
  /** How many occurrences, 1–1000. */
  count: number;
  /** Occurrences strictly after this instant; default now. */
  after?: string;
  /** A rate's anchor instant (ISO); default the next whole minute after `after`, as a save anchors it. */
  anchor?: string;
  io: Io;
  now?: Date;
}

/** Parse `--after` as an ISO 8601 instant. @throws CliError */
export function parseAfter(value: string): Date {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw new CliError(`--after must be an ISO 8601 instant such as 2026-01-01T00:00:00Z, got "${value}"`);
  return new Date(ms);
}

/** The inside of `rate(...)` when `expression` is a rate (SPEC §12.1), else null. */
function rateOf(expression: string): string | null {
  const m = /^rate\((.*)\)$/s.exec(expression.trim());
  return m ? m[1] : null;
}

/** Report a time-engine error with its SPEC code (`invalid_cron_expression`, `invalid_rate_expression`, `invalid_timezone`). */
function reportCronError(io: Io, e: unknown): number {
  if (e instanceof CronExpressionError) {
    io.err(`error: invalid_cron_expression: ${e.message}`);
    return EXIT.error;
  }
  if (e instanceof RateExpressionError) {
    io.err(`error: invalid_rate_expression: ${e.message}`);
    return EXIT.error;
  }
  if (e instanceof TimezoneError) {
    io.err(`error: invalid_timezone: ${e.message}`);
    return EXIT.error;
  }
  return reportError(io, e);
}

/**
 * Print the next `count` occurrences strictly after `after` (SPEC §7.1: evaluated on local wall time,
 * DST gaps skipped, overlaps fire once at the first instant). Prints fewer when none are left by 2199.
 */
export function cronNext(opts: CronNextOptions): number {
  const { io } = opts;
  try {
    if (!Number.isInteger(opts.count) || opts.count < 1 || opts.count > 1000) throw new CliError('--count must be a whole number from 1 to 1000');
    const after = opts.after !== undefined ? parseAfter(opts.after) : (opts.now ?? new Date());
    const rate = rateOf(opts.expression);
    let found: Date[];
    if (rate !== null) {
      assertTimezone(opts.timezone);
      // SPEC §12.1: a rate counts from its start date, else from the next whole minute after the save.
      const anchor = opts.anchor !== undefined ? parseAfter(opts.anchor) : new Date(Math.ceil(after.getTime() / 60_000) * 60_000);
      found = nextRateOccurrences(parseRateExpression(rate), anchor, after, opts.count);
    } else {
      found = nextOccurrences(opts.expression, opts.timezone, after, opts.count);
    }
    for (const at of found) io.out(`${at.toISOString()}  ${toLocalTime(at, opts.timezone)} ${opts.timezone}`);
    if (found.length < opts.count) io.err(`(${found.length === 0 ? 'no occurrence' : `only ${found.length} occurrence${found.length === 1 ? '' : 's'}`} after ${after.toISOString()} up to the year 2199)`);
    return EXIT.ok;
  } catch (e) {
    return reportCronError(io, e);
  }
}

const FIELD_NAMES = ['minutes', 'hours', 'day-of-month', 'month', 'day-of-week', 'year'] as const;

/** Print the English description of an expression (cronstrue, SPEC §7.1) and its six fields. */
export function cronExplain(expression: string, io: Io): number {
  try {
    const rate = rateOf(expression);
    if (rate !== null) {
      const parsed = parseRateExpression(rate);
      io.out(describeRate(parsed));
      io.out(`  interval     ${parsed.intervalMs / 1000} s`);
      return EXIT.ok;
    }
    const parsed = parseCronExpression(expression);
    io.out(describeCron(expression));
    parsed.source.split(' ').forEach((token, i) => io.out(`  ${FIELD_NAMES[i].padEnd(12)} ${token}`));
    return EXIT.ok;
  } catch (e) {
    return reportCronError(io, e);
  }
}
