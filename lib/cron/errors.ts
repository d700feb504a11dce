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
