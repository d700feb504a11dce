import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../lib/schedules/contract';
import { scheduleLabel, showDrift, showLastRun } from '../render';

const ID = '0b9f6c1e-8d5a-4c1e-9a43-2f1d7e6b5a10';
const schedule = (fields: Partial<Schedule>) => ({ id: ID, name: ID, ...fields }) as Schedule;

describe('a schedule in the CLI’s lines', () => {
  it('is its alias, else its name, else (a name that is the id) its id', () => {
    expect(scheduleLabel(schedule({ alias: 'nightly', name: 'nightly' }))).toBe('nightly');
    expect(scheduleLabel(schedule({ name: 'daily-report' }))).toBe('daily-report');
    expect(scheduleLabel(schedule({}))).toBe(ID);
  });

  it('names an alias-less schedule of the EventBridge API by its Name in a drift line', () => {
    expect(showDrift(schedule({ name: 'daily-report' }))).toBe(`! drift: schedule daily-report (${ID}) has no alias, so no manifest entry can describe it; left alone`);
    expect(showDrift(schedule({}))).toBe(`! drift: schedule ${ID} has no alias, so no manifest entry can describe it; left alone`);
    expect(showDrift(schedule({ alias: 'nightly', name: 'nightly' }))).toBe(`! drift: nightly (${ID}) is deployed but not in the manifest; left alone`);
  });
});

describe('the LAST RUN column of ls', () => {
  const at = '2026-12-04T16:41:00.000Z';
  it('shows the outcome beside the delivery status when the run has one (SPEC §16.1)', () => {
    expect(showLastRun({ status: 'success', scheduled_for: at, outcome: 'timed_out' })).toBe(`success, timed_out @ ${at}`);
    expect(showLastRun({ status: 'success', scheduled_for: at, outcome: 'failed' })).toBe(`success, failed @ ${at}`);
    expect(showLastRun({ status: 'invocation_error', scheduled_for: at })).toBe(`invocation_error @ ${at}`);
    expect(showLastRun(null)).toBe('never fired');
  });
});
