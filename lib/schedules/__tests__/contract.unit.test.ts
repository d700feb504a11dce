/**
 * The pure schedule contract (SPEC §4, §5.1, §5.2, §6), at the schema level: every rule the schema
 * decides, with the exact code, path and message the API answers (`firstIssueError` is what the
 * command handlers throw). The rules that need the clock, the limits or the database are tested over
 * the API (`e2e/contract.spec.ts`) and in the integration suite.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { idOfRef, isIdShape, normalizeRef } from '../../ids';
import { parseOrRefuse } from '../../errors';
import { CreateExecutionParams, workflowRefProblem } from '../../workflows/contract';
import {
  firstIssueError,
  InputDataSchema,
  RunSchema,
  SCHEDULE_INFO_FIELDS,
  ScheduleCreateInput,
  ScheduleSchema,
  ScheduleUpdateInput,
  UpdateScheduleParams,
  type IssueError,
  type Schedule,
  type WorkflowSchedule,
  type ScheduleInfo,
} from '../contract';
import type { InvocationTarget } from '../contract';

const ID = '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e';
const TARGET = { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' };
const IT = { target: TARGET, workflow: { definition: 'triage' } };
type Body = Record<string, unknown>;
const cron = (extra: Body = {}): Body => ({ repeat: 'recurring_cron', cron_expression: '0 9 ? * MON-FRI *', timezone: 'UTC', invocation_target: IT, ...extra });
const once = (extra: Body = {}): Body => ({ repeat: 'one_time', invocation_time: '2030-01-01T10:00:00', timezone: 'Europe/Berlin', invocation_target: IT, ...extra });
const withTarget = (target: Body, workflow: Body = { definition: 'triage' }) => cron({ invocation_target: { target, workflow } });
const without = (body: Body, key: string): Body => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));

/** The error the API answers for `body`, or null when the schema accepts it. */
function refusal(body: unknown, schema: z.ZodType = ScheduleCreateInput): IssueError | null {
  const r = schema.safeParse(body);
  return r.success ? null : firstIssueError(r.error);
}

describe('§5.2 row 1: wrong type, unknown key, missing field, field of the other repeat → invalid_request_body', () => {
  it('a wrong type names the field and what was expected', () => {
    expect(refusal(cron({ repeat: 5 }))).toEqual({ code: 'invalid_request_body', path: 'repeat', message: 'repeat: Invalid option: expected one of "one_time"|"recurring_cron"|"recurring_rate"' });
    expect(refusal(cron({ enabled: 'yes' }))).toEqual({ code: 'invalid_request_body', path: 'enabled', message: 'enabled: Invalid input: expected boolean, received string' });
    expect(refusal(withTarget({ ...TARGET, session: 7 }))).toEqual({
      code: 'invalid_request_body',
      path: 'invocation_target.target.session',
      message: 'invocation_target.target.session: Invalid input: expected string, received number',
    });
  });

  it('an unknown key anywhere is refused with its own path (SPEC §5.1: "any unknown key anywhere")', () => {
    expect(refusal(cron({ colour: 'blue' }))).toEqual({ code: 'invalid_request_body', path: 'colour', message: 'unknown field "colour"' });
    expect(refusal(withTarget({ ...TARGET, region: 'eu' }))).toEqual({ code: 'invalid_request_body', path: 'invocation_target.target.region', message: 'unknown field "region"' });
    expect(refusal(withTarget(TARGET, { definition: 'triage', version: 2 }))).toEqual({ code: 'invalid_request_body', path: 'invocation_target.workflow.version', message: 'unknown field "version"' });
    expect(refusal(cron({ invocation_target: { ...IT, input_data: [{ alias: 'a', value: 1, extra: true }] } }))).toEqual({
      code: 'invalid_request_body',
      path: 'invocation_target.input_data.0.extra',
      message: 'unknown field "extra"',
    });
    expect(refusal(cron({ invocation_target: { ...IT, priority: 1 } }))).toEqual({ code: 'invalid_request_body', path: 'invocation_target.priority', message: 'unknown field "priority"' });
  });

  it('§5.1 the info fields are refused in a request, each by name; of `paused` only its note may be sent (§12.5)', () => {
    expect(SCHEDULE_INFO_FIELDS).toEqual(['id', 'name', 'state', 'next_fire_at', 'created_by', 'skipped_occurrences', 'paused', 'version', 'created_at', 'updated_at']);
    for (const field of SCHEDULE_INFO_FIELDS.filter((f) => f !== 'paused')) {
      expect(refusal(cron({ [field]: 'x' })), field).toEqual({ code: 'invalid_request_body', path: field, message: `unknown field "${field}"` });
      expect(refusal({ [field]: 'x' }, ScheduleUpdateInput), field).toEqual({ code: 'invalid_request_body', path: field, message: `unknown field "${field}"` });
    }
    for (const field of ['by', 'at', 'bulk']) {
      expect(refusal(cron({ enabled: false, paused: { note: 'n', [field]: 'x' } })), field).toEqual({ code: 'invalid_request_body', path: `paused.${field}`, message: `unknown field "${field}"` });
    }
    expect(refusal(cron({ enabled: false, paused: { note: 'maintenance window' } }))).toBeNull();
  });

  it('a missing required field names it', () => {
    expect(refusal(without(cron(), 'timezone'))).toEqual({ code: 'invalid_request_body', path: 'timezone', message: 'timezone: Invalid input: expected string, received undefined' });
    expect(refusal(without(cron(), 'invocation_target'))).toEqual({ code: 'invalid_request_body', path: 'invocation_target', message: 'invocation_target: Invalid input: expected object, received undefined' });
    expect(refusal(without(cron(), 'repeat'))?.path).toBe('repeat');
    expect(refusal(without(cron(), 'cron_expression'))).toEqual({ code: 'invalid_request_body', path: 'cron_expression', message: 'cron_expression: cron_expression is required for repeat "recurring_cron"' });
    expect(refusal(without(once(), 'invocation_time'))).toEqual({ code: 'invalid_request_body', path: 'invocation_time', message: 'invocation_time: invocation_time is required for repeat "one_time"' });
    expect(refusal(withTarget({ org: 'acme-corp', blob: 'procedures', revision: 'default' }))).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.target.session' });
    expect(refusal(withTarget(TARGET, {}))).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.workflow.definition' });
  });

  it('cron_expression with one_time and invocation_time with recurring_cron are refused', () => {
    expect(refusal(once({ cron_expression: '0 9 * * ? *' }))).toEqual({ code: 'invalid_request_body', path: 'cron_expression', message: 'cron_expression: cron_expression is only for repeat "recurring_cron"' });
    expect(refusal(cron({ invocation_time: '2030-01-01T10:00:00' }))).toEqual({ code: 'invalid_request_body', path: 'invocation_time', message: 'invocation_time: invocation_time is only for repeat "one_time"' });
  });

  it('a structural problem is answered before any coded rule of the same body', () => {
    expect(refusal(cron({ alias: 'main', colour: 'blue', timezone: 'Mars/Olympus_Mons' }))).toEqual({ code: 'invalid_request_body', path: 'colour', message: 'unknown field "colour"' });
  });
});

describe('§5.2 description over 256 → invalid_request_body', () => {
  it('256 characters are accepted, 257 refused; null clears', () => {
    expect(refusal(cron({ description: 'x'.repeat(256) }))).toBeNull();
    expect(refusal(cron({ description: 'x'.repeat(257) }))).toEqual({ code: 'invalid_request_body', path: 'description', message: 'description: description must be at most 256 characters' });
    expect(refusal(cron({ description: null }))).toBeNull();
  });
});

describe('§5.2 / §7.1 cron syntax and semantics → invalid_cron_expression, naming the field and the token', () => {
  it.each([
    ['0 9 ? * 8 *', 'day-of-week: `8` is outside 1–7 (1 = Sunday)'],
    ['0 9 * * ?', 'expression: expected 6 fields (minutes hours day-of-month month day-of-week year), got 5 in `0 9 * * ?`'],
    ['cron(0 9 * * ? *)', 'expression: `cron(0 9 * * ? *)`: write only the six inner fields (minutes hours day-of-month month day-of-week year), without a `cron(...)` wrapper'],
    ['0 12 * * 1 *', 'day-of-month: `*` must be `?` here because day-of-week is `1`; exactly one of day-of-month and day-of-week is `?`'],
  ])('%s', (expression, message) => {
    expect(refusal(cron({ cron_expression: expression }))).toEqual({ code: 'invalid_cron_expression', path: 'cron_expression', message });
  });

  it('a valid expression passes the schema (whether it can ever fire is decided at save, with the clock)', () => {
    expect(refusal(cron({ cron_expression: '0 0 30 2 ? *' }))).toBeNull();
  });
});

describe('§5.2 timezone not an IANA zone → invalid_timezone', () => {
  it('an unknown zone and an offset are refused; UTC and a region zone are accepted', () => {
    expect(refusal(cron({ timezone: 'Mars/Olympus_Mons' }))).toEqual({
      code: 'invalid_timezone',
      path: 'timezone',
      message: 'timezone "Mars/Olympus_Mons" is not an IANA time zone name (such as "UTC" or "Europe/Berlin")',
    });
    expect(refusal(cron({ timezone: '+02:00' }))).toMatchObject({ code: 'invalid_timezone', path: 'timezone' });
    expect(refusal(cron({ timezone: 'UTC' }))).toBeNull();
    expect(refusal(cron({ timezone: 'Asia/Kathmandu' }))).toBeNull();
  });
});

describe('§5.2 invocation_time malformed or in a DST gap → invalid_invocation_time', () => {
  const malformed = 'invocation_time must be a local wall time YYYY-MM-DDTHH:mm:ss without offset';
  it('malformed, or with an offset', () => {
    expect(refusal(once({ invocation_time: '2030-01-01 10:00' }))).toEqual({ code: 'invalid_invocation_time', path: 'invocation_time', message: malformed });
    expect(refusal(once({ invocation_time: '2030-01-01T10:00:00Z' }))).toEqual({ code: 'invalid_invocation_time', path: 'invocation_time', message: malformed });
  });

  it('§7.2 a wall time that does not exist in the zone: 02:30 America/New_York on 2030-03-10', () => {
    expect(refusal(once({ invocation_time: '2030-03-10T02:30:00', timezone: 'America/New_York' }))).toEqual({
      code: 'invalid_invocation_time',
      path: 'invocation_time',
      message: 'invocation time: 2030-03-10T02:30:00 does not exist in America/New_York (clocks jump forward over it)',
    });
  });

  it('§7.2 an ambiguous wall time is accepted (it fires at its first instant)', () => {
    expect(refusal(once({ invocation_time: '2030-11-03T01:30:00', timezone: 'America/New_York' }))).toBeNull();
  });
});

describe('§5.2 end_date not after start_date → invalid_date_window', () => {
  it('before or equal is refused at end_date; after is accepted', () => {
    const refused = { code: 'invalid_date_window', path: 'end_date', message: 'end_date must be after start_date' };
    expect(refusal(cron({ start_date: '2031-01-02T00:00:00Z', end_date: '2031-01-01T00:00:00Z' }))).toEqual(refused);
    expect(refusal(cron({ start_date: '2031-01-01T00:00:00Z', end_date: '2031-01-01T01:00:00+01:00' }))).toEqual(refused);
    expect(refusal(cron({ start_date: '2031-01-01T00:00:00Z', end_date: '2031-01-01T00:00:01Z' }))).toBeNull();
  });

  it('§5.1 a date that is not an ISO 8601 instant is invalid_request_body', () => {
    expect(refusal(cron({ start_date: 'tomorrow' }))).toEqual({ code: 'invalid_request_body', path: 'start_date', message: 'start_date: must be an ISO 8601 instant such as 2026-01-01T00:00:00Z' });
    expect(refusal(cron({ end_date: '2031-01-01' }))).toMatchObject({ code: 'invalid_request_body', path: 'end_date' });
  });
});

describe('§4 alias grammar → invalid_alias', () => {
  it.each(['main', 'dev', 'prod', 'ci', 'Nightly-Report', 'has space', 'dot.ted', 'x'.repeat(65)])('"%s" is refused', (alias) => {
    expect(refusal(cron({ alias }))).toEqual({ code: 'invalid_alias', path: 'alias', message: `alias "${alias}" must be 6 to 64 characters from a-z, 0-9, "_" and "-"` });
  });

  it('the generated-id shape is refused, the all-zeros id included', () => {
    for (const alias of [ID, '00000000-0000-0000-0000-000000000000']) {
      expect(refusal(cron({ alias }))).toEqual({ code: 'invalid_alias', path: 'alias', message: `alias "${alias}" has the shape of a generated id, which is reserved for ids` });
    }
  });

  it.each(['primary', 'default', 'staging', 'daily_report', 'nightly-build', 'x'.repeat(64)])('"%s" is accepted', (alias) => {
    expect(refusal(cron({ alias }))).toBeNull();
  });
});

describe('§6 target fields and input_data → invalid_request_body', () => {
  it('every target field is a non-blank string of at most 64 characters', () => {
    expect(refusal(withTarget({ ...TARGET, session: '   ' }))).toEqual({ code: 'invalid_request_body', path: 'invocation_target.target.session', message: 'invocation_target.target.session: must not be blank' });
    expect(refusal(withTarget({ ...TARGET, blob: 'b'.repeat(65) }))).toEqual({ code: 'invalid_request_body', path: 'invocation_target.target.blob', message: 'invocation_target.target.blob: must be at most 64 characters' });
    expect(refusal(withTarget(TARGET, { definition: '' }))).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.workflow.definition' });
  });

  it('input_data: any JSON value, at most 64 KiB serialized (65536 bytes accepted, one more refused)', () => {
    const item = (value: unknown) => [{ alias: 'payload', value }];
    const overhead = JSON.stringify(item('')).length;
    expect(InputDataSchema.safeParse(item('x'.repeat(65_536 - overhead))).success).toBe(true);
    expect(refusal(cron({ invocation_target: { ...IT, input_data: item('x'.repeat(65_537 - overhead)) } }))).toEqual({
      code: 'invalid_request_body',
      path: 'invocation_target.input_data',
      message: 'invocation_target.input_data: must be at most 64 KiB (65536 bytes) serialized',
    });
    for (const value of [null, 0, 'text', [1, { a: [] }], { hours: 24 }]) expect(InputDataSchema.safeParse(item(value)).success).toBe(true);
  });

  it('input_data: an item needs its value and a 1–256 character alias; absent input_data stores []', () => {
    expect(refusal(cron({ invocation_target: { ...IT, input_data: [{ alias: 'a' }] } }))).toEqual({
      code: 'invalid_request_body',
      path: 'invocation_target.input_data.0.value',
      message: 'invocation_target.input_data.0.value: value is required',
    });
    expect(refusal(cron({ invocation_target: { ...IT, input_data: [{ alias: 'a'.repeat(256), value: 1 }] } }))).toBeNull();
    expect(refusal(cron({ invocation_target: { ...IT, input_data: [{ alias: 'a'.repeat(257), value: 1 }] } }))).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.input_data.0.alias' });
    expect(refusal(cron({ invocation_target: { ...IT, input_data: [{ alias: '', value: 1 }] } }))).toMatchObject({ code: 'invalid_request_body', path: 'invocation_target.input_data.0.alias' });
    const parsed = ScheduleCreateInput.parse(cron());
    expect(parsed.invocation_target_type).toBeUndefined();
    expect((parsed.invocation_target as InvocationTarget).input_data).toEqual([]);
  });
});

describe('§6.1 target rules → invalid_invocation_target', () => {
  it('a blob alias needs target.org; a blob id does not', () => {
    expect(refusal(withTarget({ blob: 'procedures', revision: 'default', session: 'nightly-batch' }))).toEqual({
      code: 'invalid_invocation_target',
      path: 'invocation_target.target.org',
      message: 'target.blob is an alias, so target.org is required',
    });
    expect(refusal(withTarget({ blob: ID, revision: 'default', session: 'nightly-batch' }))).toBeNull();
  });

  it('§3.1 an upper-case or padded id is an id (references are trimmed and lowercased before resolving)', () => {
    expect(refusal(withTarget({ blob: ` ${ID.toUpperCase()} `, revision: 'default', session: 'nightly-batch' }))).toBeNull();
    expect(refusal(withTarget({ ...TARGET, session: ID.toUpperCase() }))).toMatchObject({ code: 'invalid_invocation_target', path: 'invocation_target.target.session' });
  });

  it('revision is a revision id (pinned) or "default" (following)', () => {
    expect(refusal(withTarget({ ...TARGET, revision: 'latest' }))).toEqual({
      code: 'invalid_invocation_target',
      path: 'invocation_target.target.revision',
      message: 'target.revision must be a revision id or "default"',
    });
    expect(refusal(withTarget({ ...TARGET, revision: ID }))).toBeNull();
  });

  it('a following target names its session by alias; a pinned one may use an id', () => {
    expect(refusal(withTarget({ ...TARGET, session: ID }))).toEqual({
      code: 'invalid_invocation_target',
      path: 'invocation_target.target.session',
      message: 'a following target (revision "default") names its session by alias, not by id',
    });
    expect(refusal(withTarget({ ...TARGET, revision: ID, session: ID }))).toBeNull();
  });
});

describe('§6.2 workflow reference rules → invalid_workflow_reference / invalid_invocation_target', () => {
  it('a workflow.blob alias needs workflow.org', () => {
    expect(refusal(withTarget(TARGET, { blob: 'procedures', definition: 'triage' }))).toEqual({
      code: 'invalid_workflow_reference',
      path: 'invocation_target.workflow.org',
      message: 'workflow.blob is an alias, so workflow.org is required',
    });
    expect(refusal(withTarget(TARGET, { blob: ID, definition: 'triage' }))).toBeNull();
  });

  it('workflow.org and workflow.revision qualify a workflow.blob and are refused without one', () => {
    expect(refusal(withTarget(TARGET, { org: 'acme-corp', definition: 'triage' }))).toEqual({
      code: 'invalid_workflow_reference',
      path: 'invocation_target.workflow.blob',
      message: 'workflow.org qualifies workflow.blob, which is missing',
    });
    expect(refusal(withTarget(TARGET, { org: 'acme-corp', revision: 'default', definition: 'triage' }))).toEqual({
      code: 'invalid_workflow_reference',
      path: 'invocation_target.workflow.blob',
      message: 'workflow.org and workflow.revision qualify workflow.blob, which is missing',
    });
  });

  it('workflow.revision is a revision id or "default"', () => {
    expect(refusal(withTarget(TARGET, { org: 'acme-corp', blob: 'procedures', revision: 'latest', definition: 'triage' }))).toEqual({
      code: 'invalid_workflow_reference',
      path: 'invocation_target.workflow.revision',
      message: 'workflow.revision must be a revision id or "default"',
    });
  });

  it('a definition that follows a default revision must be an alias', () => {
    const mustBeAlias = {
      code: 'invalid_invocation_target',
      path: 'invocation_target.workflow.definition',
      message: 'workflow.definition follows a default revision, so it must be an alias (a branch gives definitions new ids)',
    };
    expect(refusal(withTarget(TARGET, { definition: ID }))).toEqual(mustBeAlias); // bare, target follows
    expect(refusal(withTarget(TARGET, { org: 'acme-corp', blob: 'procedures', definition: ID }))).toEqual(mustBeAlias); // qualified, revision defaults to default
    expect(refusal(withTarget({ ...TARGET, revision: ID }, { definition: ID }))).toBeNull(); // bare in a pinned revision
    expect(refusal(withTarget(TARGET, { org: 'acme-corp', blob: 'procedures', revision: ID, definition: ID }))).toBeNull(); // pinned source
  });

  it('create_execution shares the qualification rule (one function)', () => {
    expect(workflowRefProblem({ blob: 'procedures', definition: 'triage' })).toEqual({ path: 'workflow.org', message: 'workflow.blob is an alias, so workflow.org is required' });
    expect(workflowRefProblem({ revision: 'default', definition: 'triage' })).toEqual({ path: 'workflow.blob', message: 'workflow.revision qualifies workflow.blob, which is missing' });
    expect(workflowRefProblem({ definition: 'triage' })).toBeNull();
  });
});

describe('§3.1 update_schedule: any subset of the writable fields, strict', () => {
  it('a subset passes; cross-field rules wait for the merge with the stored schedule', () => {
    expect(refusal({ description: 'new words' }, ScheduleUpdateInput)).toBeNull();
    expect(refusal({ repeat: 'one_time' }, ScheduleUpdateInput)).toBeNull();
    expect(refusal({ enabled: 'no' }, ScheduleUpdateInput)).toMatchObject({ code: 'invalid_request_body', path: 'enabled' });
  });

  it('the command body adds schedule_id and dry_run', () => {
    expect(UpdateScheduleParams.safeParse({ schedule_id: 'nightly-report', dry_run: true, enabled: false }).success).toBe(true);
    expect(refusal({ schedule_id: 'nightly-report', dry_run: 'yes' }, UpdateScheduleParams)).toMatchObject({ code: 'invalid_request_body', path: 'dry_run' });
  });
});

describe('one parse → error rule for every command (lib/errors parseOrRefuse)', () => {
  it('a catalog command refuses like a scheduler command: code, path, message', () => {
    const body = { target: { session: 'nightly-batch', revision: 'x' }, workflow: { definition: 'triage' }, input_data: [] };
    expect(() => parseOrRefuse(CreateExecutionParams, body)).toThrow(expect.objectContaining({ code: 'invalid_request_body', path: 'target.revision', message: 'unknown field "revision"' }));
    expect(() => parseOrRefuse(CreateExecutionParams, { ...body, target: { session: '' } })).toThrow(expect.objectContaining({ code: 'invalid_request_body', path: 'target.session', message: 'target.session: must not be blank' }));
    expect(parseOrRefuse(CreateExecutionParams, { ...body, target: { session: 'nightly-batch' } }).input_data).toEqual([]);
  });
});

describe('§3.1 id shape: one predicate, on the lookup form', () => {
  it('lowercase, upper-case and padded UUIDs are ids; aliases and near-misses are not', () => {
    expect([ID, ID.toUpperCase(), `  ${ID}\t`, '00000000-0000-0000-0000-000000000000'].map(isIdShape)).toEqual([true, true, true, true]);
    expect(['nightly-batch', `${ID}0`, ID.replaceAll('-', ''), 'g'.repeat(8) + ID.slice(8)].map(isIdShape)).toEqual([false, false, false, false]);
    expect(normalizeRef(' Nightly-Batch ')).toBe('nightly-batch');
  });
  it('idOfRef: the lookup form of an id, null for an alias or a near-miss', () => {
    expect([` ${ID.toUpperCase()} `, ID, 'nightly-batch', `${ID}0`, ''].map(idOfRef)).toEqual([ID, ID, null, null, null]);
  });
});

/** A schedule as the API answers one (SPEC §5.1). */
const STORED: WorkflowSchedule = {
  alias: 'nightly-report',
  description: 'Triage the last day of tickets',
  repeat: 'recurring_cron',
  cron_expression: '0 2 * * ? *',
  timezone: 'Europe/Berlin',
  start_date: '2027-01-01T00:00:00.000Z',
  end_date: '2028-01-01T00:00:00.000Z',
  enabled: false,
  invocation_target_type: 'workflow',
  invocation_target: { target: { ...TARGET, revision: ID, session: ID }, workflow: { definition: 'triage' }, input_data: [{ alias: 'ticket_window', value: { hours: 24 } }] },
  id: ID,
  name: 'nightly-report',
  state: 'active',
  next_fire_at: null,
  created_by: { type: 'org', id: ID },
  skipped_occurrences: 0,
  version: 3,
  created_at: '2026-03-08T12:00:00.000Z',
  updated_at: '2026-03-08T12:00:00.000Z',
};

describe('STYLE §3.5 invariant: a workflow Schedule without its info fields is a valid ScheduleCreateInput (pull then deploy)', () => {
  it('holds for the types', () => {
    expectTypeOf<Omit<WorkflowSchedule, keyof ScheduleInfo>>().toExtend<z.input<typeof ScheduleCreateInput>>();
    expectTypeOf<keyof ScheduleInfo>().toEqualTypeOf<(typeof SCHEDULE_INFO_FIELDS)[number]>();
  });

  it('holds for a stored schedule, one-time and recurring', () => {
    expect(ScheduleSchema.parse(STORED)).toEqual(STORED);
    const writable = (s: Schedule) => Object.fromEntries(Object.entries(s).filter(([k]) => !(SCHEDULE_INFO_FIELDS as readonly string[]).includes(k)));
    expect(refusal(writable(STORED))).toBeNull();
    const oneTime: WorkflowSchedule = { ...STORED, repeat: 'one_time', cron_expression: undefined, invocation_time: '2027-06-01T09:00:00' };
    delete oneTime.cron_expression;
    expect(refusal(writable(ScheduleSchema.parse(oneTime)))).toBeNull();
  });

  it('the answer schemas are strict: a field the contract does not declare fails', () => {
    expect(ScheduleSchema.safeParse({ ...STORED, revision_id: ID }).success).toBe(false);
    expect(ScheduleSchema.safeParse({ ...STORED, alias: null }).success).toBe(false); // omitted, never null (SPEC §4)
    const run = { id: ID, schedule_id: ID, scheduled_for: STORED.created_at, trigger: 'manual', created_at: STORED.created_at, invocation_target_type: 'workflow', invocation_target: STORED.invocation_target, attempt: 1, status: 'invocation_error', result: { error: 'session_not_open', message: 'session nightly-batch is closed' } };
    expect(RunSchema.safeParse(run).success).toBe(true);
    expect(RunSchema.safeParse({ ...run, result: { error: 'no_such_error' } }).success).toBe(false);
  });
});
