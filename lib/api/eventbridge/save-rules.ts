/**
 * This API's rules of time and targets at save (SPEC §14, as AWS does), handed to the domain's create
 * and update as their `rules` (lib/schedules `SaveRules`):
 * - a past `at()` is accepted: inside the catch-up window it stays due and the worker fires it at
 *   once; older, the schedule is saved completed with the missed occurrence counted in
 *   `skipped_occurrences`; `StartDate`/`EndDate` do not bound an `at()`;
 * - a recurring schedule's `StartDate` more than 5 minutes in the past is refused, then the product's
 *   rules apply;
 * - an `aws` target of any service is stored unchanged (its fires are `unsupported_target`).
 */
import { resolveLocalTime } from '../../cron';
import { DomainError } from '../../errors';
import type { SaveRules } from '../../schedules';

/** How far in the past an EventBridge recurring schedule's start_date may lie (AWS: 5 minutes), in ms. */
export const EVENTBRIDGE_START_DATE_GRACE_MS = 5 * 60_000;

export const EVENTBRIDGE_SAVE_RULES: SaveRules = {
  storedTargets: true,
  firstOccurrence(timing, now, limits, productFirstOccurrence) {
    if (timing.repeat === 'one_time') {
      // As AWS: a past at() is accepted. Inside the catch-up window it stays due and the worker fires it
      // at once; older, it is missed now.
      const at = resolveLocalTime(timing.invocationTime ?? '', timing.timezone);
      return { at, missed: at.getTime() < now.getTime() - limits.catchupWindowSeconds * 1000 };
    }
    if (timing.startDate && timing.startDate.getTime() < now.getTime() - EVENTBRIDGE_START_DATE_GRACE_MS) {
      throw new DomainError('invalid_date_window', 'start_date cannot be earlier than 5 minutes ago', { path: 'start_date' });
    }
    return { at: productFirstOccurrence(timing, now, limits), missed: false };
  },
};
