/**
 * Where an error shows on the schedule form: an error's dotted `path` picks the form field (the
 * longest field path it starts with), a server refusal is placed at its field, above the target
 * fields (SPEC §6.3) or above the form, and a field's message loses the path its label already names.
 */
import { describe, expect, it } from 'vitest';
import { fieldForPath, fieldMessage, placeRefusal, targetMessage } from '../errors';

describe('fieldForPath', () => {
  it('maps a field path, and a path inside a field, to that field', () => {
    expect(fieldForPath('cron_expression')).toBe('cron_expression');
    expect(fieldForPath('invocation_target.target.session')).toBe('invocation_target.target.session');
    expect(fieldForPath('invocation_target.input_data.0.alias')).toBe('invocation_target.input_data');
  });

  it('owns no path that is not a field, nor a prefix of a field name', () => {
    expect(fieldForPath(undefined)).toBeNull();
    expect(fieldForPath('')).toBeNull();
    expect(fieldForPath('invocation_target')).toBeNull();
    expect(fieldForPath('invocation_target.target')).toBeNull();
    expect(fieldForPath('alias_extra')).toBeNull();
    expect(fieldForPath('created_by')).toBeNull();
  });
});

describe('fieldMessage and targetMessage', () => {
  it('drops the leading path the field label already names', () => {
    expect(fieldMessage('cron_expression: day-of-week: `8` is outside 1-7', 'cron_expression')).toBe('day-of-week: `8` is outside 1-7');
    // A target field's rule names its own field: the label already says it ("URL", not "URL: url: …").
    expect(fieldMessage('url: 169.254.169.254 is a cloud metadata address', 'invocation_target.url')).toBe('169.254.169.254 is a cloud metadata address');
    expect(fieldMessage('cron_expression "0 9 ? * MON-FRI 2020" never fires', 'cron_expression')).toBe('"0 9 ? * MON-FRI 2020" never fires');
    expect(fieldMessage('alias "nightly-report" is taken', 'alias')).toBe('"nightly-report" is taken');
    expect(fieldMessage('must be an IANA name', 'timezone')).toBe('must be an IANA name');
    expect(fieldMessage('timezone: bad', undefined)).toBe('timezone: bad');
  });

  it('speaks of a target refusal as "The target"', () => {
    expect(targetMessage('invocation_target does not resolve: session "nightly" is closed')).toBe('The target does not resolve: session "nightly" is closed');
    expect(targetMessage('session "nightly" is closed')).toBe('session "nightly" is closed');
  });
});

describe('placeRefusal', () => {
  it('puts a refusal with a field path at that field, with the label first in the summary', () => {
    expect(placeRefusal({ code: 'alias_taken', message: 'alias "nightly-report" is taken', path: 'alias' })).toEqual({
      kind: 'field',
      field: 'alias',
      code: 'alias_taken',
      message: '"nightly-report" is taken',
      summary: 'Alias: "nightly-report" is taken',
    });
    expect(placeRefusal({ code: 'invalid_request_body', message: 'invocation_target.input_data.0.alias: too long', path: 'invocation_target.input_data.0.alias' })).toMatchObject({
      kind: 'field',
      field: 'invocation_target.input_data',
      message: 'too long',
      summary: 'Input data (JSON): too long',
    });
  });

  it('§6.3: a target refusal without a field of its own goes above the target fields', () => {
    expect(placeRefusal({ code: 'invalid_invocation_target', message: 'invocation_target does not resolve', path: 'invocation_target' })).toEqual({
      kind: 'target',
      message: 'The target does not resolve',
    });
  });

  it('a refusal without a path goes above the form', () => {
    expect(placeRefusal({ code: 'not_found', message: 'scheduler not found' })).toEqual({ kind: 'form', code: 'not_found', message: 'scheduler not found' });
  });
});
