/**
 * The CLI handles every writable field of the contract (SPEC §5.1, §12, §13): the compared and pulled
 * fields are the contract's list, walked from the zod schema here, and each field of each schedule
 * type and target type is pulled, compared, shown and sent. A field added to the contract without
 * edits in `FIELD_EDITS` fails to compile (and the key check below), so it cannot be forgotten.
 */
import { describe, expect, it } from 'vitest';
import { Document } from 'yaml';
import { CADENCE_FIELD, SCHEDULE_WRITABLE_FIELDS, ScheduleCreateInput, ScheduleTimingFieldsSchema, ScheduleUpdateInput, type Schedule } from '../../lib/schedules/contract';
import { cadence } from '../commands/ls';
import { changedFields, compareSchedule, COMPARED_FIELDS, updateBody, type DesiredFields } from '../diff';
import { clearValue, MASKED_VALUE, normalizeField, writableFields, type ComparedField } from '../fields';
import { parseManifest } from '../manifest';
import { applyPull, renderLike, toManifestEntry } from '../pull-doc';
import { showChange, showCreate } from '../render';
import { deployedFull, editsInOrder, FIELD_EDITS, FULL_SCHEDULES, type FieldEdit, type FullAlias } from './fixtures';

const ALIASES = Object.keys(FULL_SCHEDULES) as FullAlias[];
const noResolve = () => false;

/** `entry` with `edit`'s paths set (undefined removes), as a user edits the manifest. */
export function applyEdit(entry: Record<string, unknown>, edit: FieldEdit): Record<string, unknown> {
  const out = structuredClone(entry);
  for (const [path, value] of edit.set) {
    let map = out;
    for (const seg of path.slice(0, -1)) map = (map[seg] ??= {}) as Record<string, unknown>;
    const key = path[path.length - 1];
    if (value === undefined) delete map[key];
    else map[key] = structuredClone(value);
  }
  return out;
}

/** The entry as the manifest parser yields it (the API's schema), or the issues. */
function parsed(alias: string, entry: Record<string, unknown>): DesiredFields {
  const r = ScheduleCreateInput.safeParse({ alias, ...entry });
  expect(r.success, `${alias}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
  return r.data as DesiredFields;
}

describe('the compared fields are the contract\'s writable fields', () => {
  it('COMPARED_FIELDS is the update schema\'s keys but alias, in schema order; every field has edits to test it', () => {
    const schemaKeys = Object.keys(ScheduleUpdateInput.shape).filter((k) => k !== 'alias');
    expect([...COMPARED_FIELDS]).toEqual(schemaKeys);
    expect(SCHEDULE_WRITABLE_FIELDS).toEqual(Object.keys(ScheduleUpdateInput.shape));
    // The create schema's own fields, plus the target pair, are the same set.
    expect(new Set([...Object.keys(ScheduleTimingFieldsSchema.shape), 'invocation_target_type', 'invocation_target'])).toEqual(new Set(SCHEDULE_WRITABLE_FIELDS));
    expect(Object.keys(FIELD_EDITS).sort()).toEqual([...COMPARED_FIELDS].sort());
    for (const [field, edits] of Object.entries(FIELD_EDITS)) expect(edits.length, field).toBeGreaterThan(0);
  });

  it('every writable field is set in some schedule of the fixture, so the round trip covers it', () => {
    const pulled = ALIASES.map((a, i) => toManifestEntry(deployedFull(a, i)));
    for (const field of COMPARED_FIELDS) expect(pulled.some((e) => e[field] !== undefined), field).toBe(true);
  });

  it('an update clears a field with null where the API takes null, else with its default; a cadence field is not sent', () => {
    expect(clearValue('description')).toBeNull();
    expect(clearValue('retry_policy')).toBeNull();
    expect(clearValue('dead_letter')).toBeNull();
    expect(clearValue('pause_after_failures')).toBeNull();
    expect(clearValue('enabled')).toBe(true);
    expect(clearValue('flexible_time_window')).toEqual({ mode: 'off' });
    expect(clearValue('action_after_completion')).toBe('none');
    expect(clearValue('paused')).toEqual({ note: null });
    for (const field of Object.values(CADENCE_FIELD)) expect(clearValue(field), field).toBeUndefined();
    // Whatever is sent to clear a field, the API's update schema takes.
    for (const field of COMPARED_FIELDS) {
      const v = clearValue(field);
      if (v !== undefined && field !== 'invocation_target_type') expect(ScheduleUpdateInput.safeParse({ [field]: v }).success, field).toBe(true);
    }
  });
});

describe('pull then diff: every cadence and target type round-trips', () => {
  it('a pulled entry holds every field the schedule sets, passes the API\'s schema and compares equal', () => {
    for (const [i, alias] of ALIASES.entries()) {
      const d = deployedFull(alias, i);
      const entry = toManifestEntry(d);
      expect(entry).toEqual(writableFields(d));
      expect(compareSchedule(parsed(alias, entry), d, noResolve), alias).toEqual([]);
    }
    // Defaults are left out; `paused` keeps only its note.
    expect(toManifestEntry(deployedFull('once-workflow')).paused).toEqual({ note: 'waiting for the migration' });
    expect(toManifestEntry(deployedFull('once-workflow')).invocation_target_type).toBeUndefined();
    expect(toManifestEntry(deployedFull('cron-webhook')).enabled).toBeUndefined();
  });

  it('through YAML: a file pulled from nothing parses as a manifest and every entry compares equal', () => {
    const schedules: Schedule[] = ALIASES.map((a, i) => deployedFull(a, i));
    const doc = new Document({});
    const result = applyPull(doc, schedules, noResolve);
    expect(result.added).toEqual([...ALIASES].sort());
    const text = renderLike(doc, '');
    const m = parseManifest(text, 'pulled.yaml');
    for (const e of m.entries) expect(compareSchedule(e.input, schedules.find((s) => s.alias === e.alias)!, noResolve), e.alias).toEqual([]);
    // Key order follows the contract, nested maps too.
    expect(text).toContain(['  cron-ecs:', '    description: Cron, ECS target', '    repeat: recurring_cron', '    cron_expression: "30 2 * * ? *"', '    timezone: Australia/Sydney'].join('\n'));
    expect(text).toMatch(/ {4}invocation_target_type: aws\n {4}invocation_target:\n {6}arn: arn:aws:ecs:us-east-1:123456789012:cluster\/main\n {6}role_arn: /);
    expect(text).toContain('    rate_expression: 10 minutes\n');
  });

  it('pull into an existing entry writes the delivery fields it lacks (a second pass brings paused in with enabled: false)', () => {
    const d = deployedFull('once-workflow');
    const bare = { repeat: 'one_time', invocation_time: '2031-03-01T09:30:00', timezone: 'Europe/Berlin', invocation_target: FULL_SCHEDULES['once-workflow'].invocation_target };
    const doc = new Document({ schedules: { 'once-workflow': bare } });
    expect(applyPull(doc, [d], noResolve).updated).toEqual(['once-workflow']);
    const m = parseManifest(renderLike(doc, ''), 'pulled.yaml');
    expect(compareSchedule(m.entries[0].input, d, noResolve)).toEqual([]);
  });
});

describe('changing each field in turn is shown by diff and sent by deploy', () => {
  it.each(editsInOrder().map(({ field, edit }, i) => [i, field, edit] as const))('edit %i: %s', (_i, field, edit) => {
    const index = ALIASES.indexOf(edit.alias);
    const d = deployedFull(edit.alias, index);
    const desired = parsed(edit.alias, applyEdit(toManifestEntry(d), edit));
    const changes = compareSchedule(desired, d, noResolve);
    const touched = changedFields(changes);
    // The field is shown, and nothing the edit did not touch.
    expect(touched).toContain(field);
    const editedTop = new Set(edit.set.map(([path]) => path[0]));
    for (const f of touched) expect(editedTop.has(f), `${f} changed by an edit of ${[...editedTop]}`).toBe(true);
    // Deploy sends each touched field whole (or what clears it), and the API's update schema takes the body.
    const body = updateBody(desired, changes) as Record<string, unknown>;
    for (const f of touched) expect(body[f], f).toEqual(desired[f] ?? clearValue(f));
    expect(ScheduleUpdateInput.safeParse(body).success, JSON.stringify(body)).toBe(true);
    // A create of the edited entry shows the edited leaf (as compared: instants in UTC, defaults left out).
    // (A write-only header value is answered "••••", but a create shows the manifest's own value.)
    const [path, value] = edit.check && edit.check[1] !== MASKED_VALUE ? edit.check : edit.set[0];
    const lines = showCreate({ alias: edit.alias, input: desired as never, line: 1 });
    const shown = path.length === 1 ? normalizeField(path[0] as ComparedField, value) : value;
    if (shown !== undefined && typeof shown !== 'object') expect(lines, path.join('.')).toContain(`${path.join('.')}: ${JSON.stringify(shown)}`);
  });
});

describe('output', () => {
  it('diff shows a field left at its default as the default, and a cleared one as (none)', () => {
    expect(showChange({ path: ['enabled'], from: false, to: undefined })).toBe('enabled: false → true');
    expect(showChange({ path: ['flexible_time_window'], from: { mode: 'flexible', maximum_window_minutes: 5 }, to: undefined })).toBe(
      'flexible_time_window: {"mode":"flexible","maximum_window_minutes":5} → {"mode":"off"}',
    );
    expect(showChange({ path: ['retry_policy'], from: { maximum_retry_attempts: 1, maximum_event_age_seconds: 60 }, to: undefined })).toBe(
      'retry_policy: {"maximum_retry_attempts":1,"maximum_event_age_seconds":60} → (none)',
    );
    expect(showChange({ path: ['invocation_target', 'timeout_seconds'], from: 20, to: undefined })).toBe('invocation_target.timeout_seconds: 20 → (none)');
  });

  it('ls names each cadence with the field that states it', () => {
    expect(cadence(deployedFull('cron-webhook'))).toBe('cron 0 9 ? * MON-FRI *');
    expect(cadence(deployedFull('rate-sqs'))).toBe('rate 10 minutes');
    expect(cadence(deployedFull('once-workflow'))).toBe('once 2031-03-01T09:30:00');
  });
});
