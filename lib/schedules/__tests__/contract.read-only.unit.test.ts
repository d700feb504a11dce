/**
 * SPEC §5.1: the info fields (`state`, `next_fire_at`, …) are refused in requests like unknown keys
 * (`400 invalid_request_body`), and the message says they are read-only instead of unknown.
 */
import { describe, expect, it } from 'vitest';
import { firstIssueError, SCHEDULE_INFO_FIELDS, ScheduleCreateInput, ScheduleUpdateInput } from '../contract';

function refusal(schema: typeof ScheduleUpdateInput | typeof ScheduleCreateInput, body: unknown) {
  const r = schema.safeParse(body);
  expect(r.success).toBe(false);
  return firstIssueError(r.error!, SCHEDULE_INFO_FIELDS);
}

const TARGET = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] };

describe('read-only fields in a request', () => {
  it('update_schedule with state: "state" is read-only', () => {
    expect(refusal(ScheduleUpdateInput, { state: 'completed' })).toEqual({ code: 'invalid_request_body', message: 'field "state" is read-only', path: 'state' });
  });

  it.each(['id', 'next_fire_at', 'created_by', 'created_at', 'updated_at', 'skipped_occurrences'])('update_schedule with %s: read-only', (field) => {
    expect(refusal(ScheduleUpdateInput, { description: 'x', [field]: 1 })).toEqual({ code: 'invalid_request_body', message: `field "${field}" is read-only`, path: field });
  });

  it('create_schedule with next_fire_at: read-only', () => {
    const body = { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: TARGET, next_fire_at: '2030-01-01T00:00:00Z' };
    expect(refusal(ScheduleCreateInput, body)).toEqual({ code: 'invalid_request_body', message: 'field "next_fire_at" is read-only', path: 'next_fire_at' });
  });

  it('an unknown key stays unknown, and a nested "state" is unknown, not read-only', () => {
    expect(refusal(ScheduleUpdateInput, { colour: 'red' })).toEqual({ code: 'invalid_request_body', message: 'unknown field "colour"', path: 'colour' });
    const nested = { invocation_target: { ...TARGET, target: { ...TARGET.target, state: 'open' } } };
    expect(refusal(ScheduleUpdateInput, nested)).toEqual({ code: 'invalid_request_body', message: 'unknown field "state"', path: 'invocation_target.target.state' });
  });
});
