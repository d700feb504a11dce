/**
 * The version conflict's rows (SPEC §15): only the fields that differ between what is saved now and
 * what the form holds, each marked with who changed it since the form opened.
 */
import { describe, expect, it } from 'vitest';
import type { Schedule, WorkflowSchedule } from '@/lib/schedules/contract';
import { conflictRows } from '../conflict-rows';
import { valuesFromSchedule } from '../values';

const OPENED: WorkflowSchedule = {
  id: '6f1c2e9a-4a3b-4c59-9f7e-0d3c1b2a4e5f',
  name: 'nightly-report',
  alias: 'nightly-report',
  description: 'as opened',
  repeat: 'recurring_cron',
  cron_expression: '0 6 * * ? *',
  timezone: 'UTC',
  enabled: true,
  state: 'active',
  invocation_target_type: 'workflow',
  invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] },
  next_fire_at: null,
  created_by: { type: 'user', id: 'u' },
  skipped_occurrences: 0,
  version: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('conflictRows', () => {
  it('lists the fields the other save changed and the ones this form changed, with both values', () => {
    const current: WorkflowSchedule = { ...OPENED, cron_expression: '30 7 * * ? *', description: 'theirs', version: 2 };
    const mine = { ...valuesFromSchedule(OPENED), description: 'mine', timezone: 'Europe/Berlin' };
    expect(conflictRows(OPENED, current, mine).map((r) => [r.field, r.saved, r.yours, r.changedBy])).toEqual([
      ['description', 'theirs', 'mine', 'both'],
      ['cron_expression', '30 7 * * ? *', '0 6 * * ? *', 'them'],
      ['timezone', 'UTC', 'Europe/Berlin', 'you'],
    ]);
  });

  it('leaves out a field both sides set to the same value, and names a blank one', () => {
    const current: WorkflowSchedule = { ...OPENED, description: 'same', alias: undefined, version: 2 };
    const mine = { ...valuesFromSchedule(OPENED), description: 'same' };
    expect(conflictRows(OPENED, current, mine).map((r) => [r.field, r.saved, r.yours])).toEqual([['alias', '—', 'nightly-report']]);
  });

  it('a webhook schedule: its target fields compare too, header rows as JSON (SPEC §13.1, §15)', () => {
    const hook: Schedule = {
      ...OPENED,
      invocation_target_type: 'http',
      invocation_target: { url: 'https://hooks.example.com/in', method: 'PUT', headers: { 'X-Env': 'prod' } },
    };
    const current: Schedule = { ...hook, description: 'theirs', invocation_target: { ...hook.invocation_target, headers: { 'X-Env': 'staging' } }, version: 2 };
    const mine = { ...valuesFromSchedule(hook), description: 'mine' };
    const rows = conflictRows(hook, current, mine).map((r) => [r.field, r.changedBy]);
    expect(rows).toEqual([
      ['description', 'both'],
      ['invocation_target.headers', 'them'],
    ]);
    const headers = conflictRows(hook, current, mine).find((r) => r.field === 'invocation_target.headers')!;
    expect(headers.saved).toContain('staging');
    expect(headers.yours).toContain('prod');
  });
});
