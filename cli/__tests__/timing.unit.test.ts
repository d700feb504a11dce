/** The clock rules `deploy` checks before writing (SPEC §5.2), with an injected `now`. */
import { describe, expect, it } from 'vitest';
import type { ScheduleCreateInput } from '../../lib/schedules/contract';
import { checkTiming } from '../timing';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const base = {
  alias: 'timing-test',
  timezone: 'Europe/Berlin',
  invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] },
} satisfies Partial<ScheduleCreateInput>;

describe('checkTiming', () => {
  it('§5.2 a one-time invocation_time in the past is invalid_invocation_time', () => {
    // 2026-11-30T12:00:00 Berlin = 11:00Z, before NOW
    expect(checkTiming({ ...base, repeat: 'one_time', invocation_time: '2026-11-30T12:00:00' }, NOW)).toMatchObject({ code: 'invalid_invocation_time', path: 'invocation_time' });
    expect(checkTiming({ ...base, repeat: 'one_time', invocation_time: '2026-11-30T14:00:00' }, NOW)).toBeNull();
  });

  it('§5.2 an end_date already passed is invalid_date_window; no occurrence inside the window is invalid_cron_expression', () => {
    expect(checkTiming({ ...base, repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', end_date: '2026-11-01T00:00:00Z' }, NOW)).toMatchObject({ code: 'invalid_date_window' });
    expect(checkTiming({ ...base, repeat: 'recurring_cron', cron_expression: '0 9 * * ? 2026', start_date: '2026-12-31T09:00:01Z' }, NOW)).toMatchObject({ code: 'invalid_cron_expression' });
    expect(checkTiming({ ...base, repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', start_date: '2027-01-01T00:00:00Z' }, NOW)).toBeNull();
  });
});
