import type { CronField } from './types';

/**
 * A cron expression broken against SPEC §7.1 (`400 invalid_cron_expression`, SPEC §5.2).
 * `field` names the field at fault (`expression` for whole-expression problems such as the field
 * count), `token` the offending text, and `message` reads e.g.
 * "day-of-week: `8` is outside 1–7 (1 = Sunday)".
 */
export class CronExpressionError extends Error {
  readonly field: CronField | 'expression';
  readonly token: string;

  constructor(field: CronField | 'expression', token: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'CronExpressionError';
    this.field = field;
    this.token = token;
  }
}

/** A timezone that is not an IANA zone name (`400 invalid_timezone`, SPEC §5.1–5.2). */
export class TimezoneError extends Error {
  readonly timezone: string;

  constructor(timezone: string) {
    super(
      `timezone: \`${timezone}\` is not an IANA time zone name (such as Europe/Berlin or UTC); offsets are not accepted`,
    );
    this.name = 'TimezoneError';
    this.timezone = timezone;
  }
}

/**
 * A local wall time that cannot be used (`400 invalid_invocation_time`, SPEC §5.2, §7.2):
 * `malformed` (not `YYYY-MM-DDTHH:mm:ss`, or not a real calendar date/time) or `gap` (the wall time
 * does not exist in the timezone because clocks jump forward).
 */
export class LocalTimeError extends Error {
  readonly reason: 'malformed' | 'gap';
  readonly input: string;

  constructor(reason: 'malformed' | 'gap', input: string, message: string) {
    super(message);
    this.name = 'LocalTimeError';
    this.reason = reason;
    this.input = input;
  }
}

/** A `rate(...)`, `at(...)` or `cron(...)` schedule expression with a broken wrapper or rate. */
export class ScheduleExpressionError extends Error {
  readonly token: string;

  constructor(token: string, problem: string, opts: { cause?: unknown } = {}) {
    super(`expression: ${problem}`, opts);
    this.name = 'ScheduleExpressionError';
    this.token = token;
  }
}

/**
 * A `rate_expression` broken against SPEC §12.1 (`400 invalid_rate_expression`). `token` is the text
 * at fault; the message reads e.g. "rate_expression: unit `weeks` is not minute(s), hour(s) or day(s)".
 */
export class RateExpressionError extends Error {
  readonly token: string;

  constructor(token: string, problem: string) {
    super(`rate_expression: ${problem}`);
    this.name = 'RateExpressionError';
    this.token = token;
  }
}

/**
 * A time-engine call that ran past its work budget (`code` `cron_work_budget_exceeded`): the engine
 * gives up rather than run unbounded (SPEC §7.1: computing occurrences always terminates quickly).
 * Every public call of `lib/cron` counts its steps (a turn of a calendar or occurrence walk, an `Intl`
 * offset read) against a fixed budget per operation (`WORK_BUDGETS`, lib/cron/work.ts), about ten times
 * what any zone of the tz database needs, so this is never expected: it stands guard against a tz
 * database the engine does not understand (an offset that lasts under 3 days, say) and against a defect.
 *
 * It concerns one call (`operation`, `expression`, `timezone`, `at`) and comes back on every retry of
 * it: a caller planning many schedules records it against the one schedule and goes on with the
 * others. No SPEC §5.2 code maps to it (an API meeting it answers 500 `internal_error`).
 */
export class CronWorkBudgetExceeded extends Error {
  readonly code = 'cron_work_budget_exceeded';
  /** The public function that gave up, such as `nextOccurrences`. */
  readonly operation: string;
  /** The cron expression's text, or null when the call had none (wall-time resolution). */
  readonly expression: string | null;
  readonly timezone: string;
  /** The call's reference instant (`after`, `before`, `from`, or the instant shown), or null for a wall time. */
  readonly at: Date | null;
  /** Steps the call was allowed. */
  readonly budget: number;

  constructor(operation: string, expression: string | null, timezone: string, at: Date | null, budget: number) {
    const about = `${expression === null ? '' : `\`${expression}\` `}in ${timezone}${at === null || Number.isNaN(at.getTime()) ? '' : ` from ${at.toISOString()}`}`;
    super(`time engine: ${operation} ${about} gave up after ${budget.toLocaleString('en-US')} steps (its work budget)`);
    this.name = 'CronWorkBudgetExceeded';
    this.operation = operation;
    this.expression = expression;
    this.timezone = timezone;
    this.at = at;
    this.budget = budget;
  }
}
