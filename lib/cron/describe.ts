/** SPEC §7.1: the human description of a cron expression, by cronstrue configured for AWS. */
import cronstrue from 'cronstrue';
import { parseCronExpression } from './parse';

/**
 * An English description of a six-field AWS cron expression, e.g. `0 12 ? * 2 *` →
 * "At 12:00 PM, only on Monday" (day-of-week 1 = Sunday; the year field is described too).
 * @param options.use24HourTimeFormat "At 12:00" instead of "At 12:00 PM" (default false).
 * @throws CronExpressionError when the expression is not valid (SPEC §7.1); cronstrue never sees it then.
 */
export function describeCron(expression: string, options: { use24HourTimeFormat?: boolean } = {}): string {
  const { source } = parseCronExpression(expression);
  // A zero seconds field makes seven fields, which cronstrue always reads as seconds … year.
  return cronstrue.toString(`0 ${source}`, {
    dayOfWeekStartIndexZero: false,
    use24HourTimeFormat: options.use24HourTimeFormat ?? false,
    throwExceptionOnParseError: true,
  });
}
