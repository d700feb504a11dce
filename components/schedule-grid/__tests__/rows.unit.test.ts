/**
 * The grid's rows: the Next fire column shows seconds wherever the Cadence column does (a one-time
 * schedule's invocation time) or the instant is off the whole minute, so no second is hidden.
 */
import { describe, expect, it } from 'vitest';
import { toRow, type GridSchedule } from '../rows';

const base: GridSchedule = {
  id: '6f1c2e9a-4a3b-4c59-9f7e-0d3c1b2a4e5f',
  repeat: 'recurring_cron',
  cron_expression: '0 9 * * ? *',
  timezone: 'Europe/Berlin',
  state: 'active',
  enabled: true,
  next_fire_at: '2030-01-01T08:00:00.000Z',
  invocation_target: { kind: 'http', label: 'Webhook POST https://example.com/', detail: 'default event', address: 'https://example.com/' },
};
const row = (s: Partial<GridSchedule>) => toRow({ schedule: { ...base, ...s }, lastRun: null, retry: null });

describe('toRow', () => {
  it('a one-time schedule shows the seconds of its next fire, as its Cadence shows them', () => {
    const r = row({ repeat: 'one_time', cron_expression: undefined, invocation_time: '2030-01-01T09:00:30', next_fire_at: '2030-01-01T08:00:30.000Z' });
    expect(r.cadence).toBe('2030-01-01 09:00:30');
    expect(r.nextFireSeconds).toBe(true);
    // Even on a whole minute: the two columns read alike (09:00:00 beside 09:00:00).
    expect(row({ repeat: 'one_time', cron_expression: undefined, invocation_time: '2030-01-01T09:00:00' }).nextFireSeconds).toBe(true);
  });

  it('a cron or rate next fire on the whole minute shows none; one off it (a flexible window) shows them', () => {
    expect(row({}).nextFireSeconds).toBe(false);
    expect(row({ repeat: 'recurring_rate', cron_expression: undefined, rate_expression: '5 minutes' }).nextFireSeconds).toBe(false);
    expect(row({ next_fire_at: '2030-01-01T08:03:17.000Z' }).nextFireSeconds).toBe(true);
    expect(row({ next_fire_at: null, enabled: false }).nextFireSeconds).toBe(false);
  });
});
