/** The manifest format (docs/cli.md): validated by the API's schema, every problem named by its line. */
import { describe, expect, it } from 'vitest';
import { ManifestError, parseManifest, type ManifestProblem } from '../manifest';
import { MANIFEST, PINNED_REVISION } from './fixtures';
import type { InvocationTarget } from '../../lib/schedules/contract';

function problemsOf(text: string): ManifestProblem[] {
  try {
    parseManifest(text, 'schedules.yaml');
  } catch (e) {
    if (e instanceof ManifestError) return e.problems;
    throw e;
  }
  throw new Error('expected a ManifestError');
}

/** MANIFEST with line `n` (1-based) replaced. */
function withLine(n: number, text: string): string {
  const lines = MANIFEST.split('\n');
  lines[n - 1] = text;
  return lines.join('\n');
}

describe('parseManifest: a valid manifest', () => {
  it('yields one entry per key, with the key as alias, defaults applied and the key line', () => {
    const m = parseManifest(MANIFEST, 'schedules.yaml');
    expect(m.scheduler).toEqual({ org: 'acme-corp', blob: 'ops-scheduler' });
    expect(m.entries.map((e) => [e.alias, e.line])).toEqual([
      ['nightly-report', 6],
      ['pinned-triage', 15],
    ]);
    expect(m.entries[0].input).toMatchObject({ alias: 'nightly-report', cron_expression: '0 2 * * ? *', start_date: '2026-01-01T00:00:00+01:00' });
    expect((m.entries[0].input.invocation_target as InvocationTarget).input_data).toEqual([]);
    expect((m.entries[1].input.invocation_target as InvocationTarget).target.revision).toBe(PINNED_REVISION);
  });

  it('accepts an empty `schedules:` (no schedules)', () => {
    expect(parseManifest('schedules:\n', 'x.yaml').entries).toEqual([]);
  });
});

describe('parseManifest: problems name their line (SPEC §5.2 codes)', () => {
  it('a bad cron expression on line 9 → invalid_cron_expression at line 9, naming the field and token', () => {
    const [p, ...rest] = problemsOf(withLine(9, '    cron_expression: "0 2 * * 8 *"'));
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ line: 9, alias: 'nightly-report', code: 'invalid_cron_expression', path: 'cron_expression' });
    expect(p.message).toMatch(/day-of-month|day-of-week/);
  });

  it('an unknown key on line 10 → invalid_request_body at line 10 naming the key', () => {
    const text = withLine(10, '    timezone: Europe/Berlin\n    colour: blue');
    const [p] = problemsOf(text);
    expect(p).toMatchObject({ line: 11, code: 'invalid_request_body', path: 'colour', message: 'unknown field "colour"' });
  });

  it('two unknown keys give two problems, each on its own line', () => {
    const text = withLine(16, '    repeat: recurring_cron\n    foo: 1\n    bar: 2');
    expect(problemsOf(text).map((p) => [p.line, p.path])).toEqual([
      [17, 'foo'],
      [18, 'bar'],
    ]);
  });

  it('a following target naming its session by id → invalid_invocation_target at the session line', () => {
    const text = withLine(13, '      target: {org: acme-corp, blob: procedures, revision: default, session: aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee}');
    expect(problemsOf(text)[0]).toMatchObject({ line: 13, code: 'invalid_invocation_target', path: 'invocation_target.target.session' });
  });

  it('an unknown key inside the target → the line of that key', () => {
    const text = withLine(24, '        session: nightly-batch\n        colour: blue');
    expect(problemsOf(text)[0]).toMatchObject({ line: 25, code: 'invalid_request_body', path: 'invocation_target.target.colour' });
  });

  it('a bad timezone and a bad alias in different entries are both reported, in line order', () => {
    const text = withLine(15, '  Pinned:').replace('timezone: Europe/Berlin', 'timezone: +02:00');
    expect(problemsOf(text).map((p) => [p.line, p.code])).toEqual([
      [10, 'invalid_timezone'],
      [15, 'invalid_alias'],
    ]);
  });

  it('a missing required field points at the entry key', () => {
    const text = withLine(10, '');
    expect(problemsOf(text)[0]).toMatchObject({ line: 6, code: 'invalid_request_body', path: 'timezone' });
  });

  it('an `alias` field inside an entry is refused: the key is the alias', () => {
    const text = withLine(7, '    alias: other-name');
    expect(problemsOf(text)[0]).toMatchObject({ line: 7, path: 'alias' });
  });

  it('a YAML syntax error or a duplicate key names its line', () => {
    expect(problemsOf(withLine(9, '    cron_expression: "0 2 * * ? *'))[0]).toMatchObject({ code: 'invalid_yaml' });
    expect(problemsOf(withLine(15, '  nightly-report:'))[0]).toMatchObject({ code: 'invalid_yaml', line: 15 });
  });

  it('an unknown top-level key and a missing `schedules:` are refused', () => {
    expect(problemsOf('scheduler: {org: a, blob: b}\nschedule: {}\n').map((p) => [p.line, p.message])).toEqual([
      [1, expect.stringMatching(/needs a top-level `schedules:`/)],
      [2, expect.stringMatching(/unknown top-level key "schedule"/)],
    ]);
  });

  it('an unquoted cron expression starting with `*` is a YAML error, not a silent alias', () => {
    expect(problemsOf(withLine(9, '    cron_expression: * * * * ? *'))[0]).toMatchObject({ code: 'invalid_yaml', line: 9 });
  });
});
