/**
 * The form's values → the request body of SPEC §5.1: a create leaves blank optional fields out, an
 * edit sends them as null (clearing them) and sends only the fields changed (SPEC §3.1).
 */
import { describe, expect, it } from 'vitest';
import { changedBody, toRequestBody } from '../request-body';
import { defaultValues, toWallTime, utcOrNull, type ScheduleFormValues } from '../values';

const defaults = defaultValues({ orgs: [], blobs: [], sessions: [], definitions: [] });
const values: ScheduleFormValues = {
  ...defaults,
  alias: ' nightly-report ',
  cron_expression: ' 0 9 ? * MON-FRI * ',
  invocation_time: '2026-05-01T09:00',
  timezone: 'Europe/Berlin',
  start_date: '2026-01-01T00:00',
  invocation_target: { ...defaults.invocation_target, input_data: '[{"alias": "ticket_window", "value": {"hours": 24}}]' },
};

describe('toRequestBody', () => {
  it('create: trims, leaves blank optional fields out, reads start and end dates as UTC', () => {
    expect(toRequestBody(values, 'create')).toEqual({
      body: {
        alias: 'nightly-report',
        repeat: 'recurring_cron',
        cron_expression: '0 9 ? * MON-FRI *',
        timezone: 'Europe/Berlin',
        start_date: '2026-01-01T00:00:00Z',
        enabled: true,
        invocation_target: {
          target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
          workflow: { definition: 'triage' },
          input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
        },
      },
      inputDataError: null,
    });
  });

  it('edit: a blank optional field is sent as null, which clears it', () => {
    const { body } = toRequestBody({ ...values, alias: '  ' }, 'edit');
    expect(body.alias).toBeNull();
    expect(body.description).toBeNull();
    expect(body.end_date).toBeNull();
  });

  it('one-time: sends the invocation time as wall time with seconds, and no cron expression', () => {
    const { body } = toRequestBody({ ...values, repeat: 'one_time' }, 'create');
    expect(body.invocation_time).toBe('2026-05-01T09:00:00');
    expect('cron_expression' in body).toBe(false);
  });

  it('input data that is not JSON is reported, and [] is sent in its place', () => {
    const r = toRequestBody({ ...values, invocation_target: { ...values.invocation_target, input_data: '[{' } }, 'create');
    expect(r.inputDataError).toMatch(/^Not valid JSON: /);
    expect((r.body.invocation_target as { input_data: unknown }).input_data).toEqual([]);
  });
});

describe('changedBody', () => {
  it('§3.1: edit sends only the fields changed; a changed cadence brings its time field', () => {
    const { body } = toRequestBody(values, 'edit');
    expect(changedBody(body, { description: true }, values)).toEqual({ description: null });
    expect(changedBody(body, { cron_expression: true }, values)).toEqual({ cron_expression: '0 9 ? * MON-FRI *' });
    const oneTime = { ...values, repeat: 'one_time' as const };
    expect(changedBody(toRequestBody(oneTime, 'edit').body, { repeat: true }, oneTime)).toEqual({ repeat: 'one_time', invocation_time: '2026-05-01T09:00:00' });
    expect(changedBody(body, {}, values)).toEqual({});
  });
});

describe('datetime inputs', () => {
  it('toWallTime adds the seconds the input drops and cuts fractions', () => {
    expect(toWallTime('2026-03-08T02:30')).toBe('2026-03-08T02:30:00');
    expect(toWallTime('2026-03-08T02:30:15.250')).toBe('2026-03-08T02:30:15');
    expect(toWallTime(' 2026-03-08T02:30:15 ')).toBe('2026-03-08T02:30:15');
  });

  it('utcOrNull reads the input as a UTC instant', () => {
    expect(utcOrNull('2026-01-01T00:00')).toBe('2026-01-01T00:00:00.000Z');
    expect(utcOrNull('')).toBeNull();
    expect(utcOrNull('not a date')).toBeNull();
  });
});
