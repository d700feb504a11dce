/** `pull` edits the manifest document in place: comments and order kept, only differing leaves set. */
import { describe, expect, it } from 'vitest';
import { computePlan } from '../diff';
import { parseManifest, parseManifestSource } from '../manifest';
import { applyPull, renderLike } from '../pull-doc';
import type { Schedule } from '../../lib/schedules/contract';
import { deployed, deployedManifest, MANIFEST, resolvePinned, SESSION_ID } from './fixtures';

function pullInto(text: string, schedules: Schedule[] = deployedManifest(), resolve = resolvePinned) {
  const { doc } = parseManifestSource(text, 'schedules.yaml');
  const result = applyPull(doc, schedules, resolve);
  return { result, text: renderLike(doc, text) };
}

describe('applyPull', () => {
  it('reports nothing changed for a manifest that matches the deployment (so the command leaves the file alone)', () => {
    const { result } = pullInto(MANIFEST);
    expect(result).toMatchObject({ added: [], updated: [], removed: [], skipped: [], unchanged: ['nightly-report', 'pinned-triage'] });
  });

  it('sets only the differing leaf and keeps comments, the pinned session alias and the offset form of start_date', () => {
    const schedules = deployedManifest();
    schedules[0] = { ...schedules[0], cron_expression: '15 3 * * ? *' };
    const { result, text } = pullInto(MANIFEST, schedules);
    expect(result.updated).toEqual(['nightly-report']);
    // The YAML library re-renders the document: a trailing comment after a map key moves to its own
    // line; every other line is kept as written.
    expect(text).toBe(MANIFEST.replace('"0 2 * * ? *"', '"15 3 * * ? *"').replace(/^( +)([a-z-]+:) +# (line \d+)$/gm, '$1$2\n$1  # $3'));
  });

  it('adds new schedules in alias order with canonical keys, removes undeployed entries, skips unaliased ones', () => {
    const extra = [
      deployed({ id: '99999999-0000-4000-8000-00000000000b', alias: 'zz-weekly', cron_expression: '* 8 ? * MON *', enabled: false }),
      deployed({ id: '99999999-0000-4000-8000-00000000000a', alias: 'aa-once', repeat: 'one_time', invocation_time: '2027-01-01T09:00:00', description: 'once' }),
      deployed({ id: '99999999-0000-4000-8000-00000000000c', cron_expression: '0 1 * * ? *' }),
    ];
    const { result, text } = pullInto(MANIFEST, [deployedManifest()[1], ...extra]);
    expect(result).toMatchObject({ added: ['aa-once', 'zz-weekly'], removed: ['nightly-report'], unchanged: ['pinned-triage'] });
    expect(result.skipped.map((s) => s.id)).toEqual(['99999999-0000-4000-8000-00000000000c']);
    expect(text).not.toContain('nightly-report:');
    expect(text).toContain(
      [
        '  aa-once:',
        '    description: once',
        '    repeat: one_time',
        '    invocation_time: 2027-01-01T09:00:00',
        '    timezone: UTC',
        '    invocation_target:',
        '      target:',
        '        org: acme-corp',
        '        blob: procedures',
        '        revision: default',
        '        session: nightly-batch',
        '      workflow:',
        '        definition: daily-report',
        '  zz-weekly:',
        '    repeat: recurring_cron',
        '    cron_expression: "* 8 ? * MON *"',
        '    timezone: UTC',
        '    enabled: false',
      ].join('\n'),
    );
  });

  it('writes the stored session id when the manifest alias no longer names it', () => {
    const { text } = pullInto(MANIFEST, deployedManifest(), () => false);
    expect(text).toContain(`        session: ${SESSION_ID}\n`);
  });

  it('inserts a missing key at its canonical place and deletes keys the deployment lacks', () => {
    const schedules = deployedManifest();
    const { description: _d, start_date: _s, ...rest } = schedules[0];
    schedules[0] = { ...rest, end_date: '2027-06-01T00:00:00.000Z', enabled: false };
    const { text } = pullInto(MANIFEST, schedules);
    expect(text).toContain(
      ['  nightly-report:', '    # line 6', '    repeat: recurring_cron', '    cron_expression: "0 2 * * ? *"', '    timezone: Europe/Berlin', '    end_date: 2027-06-01T00:00:00.000Z', '    enabled: false', '    invocation_target:'].join('\n'),
    );
  });

  it('round-trips: the pulled file parses and compares equal to the deployment (into an empty file too)', () => {
    const schedules = [
      ...deployedManifest(),
      deployed({ id: '99999999-0000-4000-8000-00000000000d', alias: 'with-data', cron_expression: '*/5 * * * ? *', invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { org: 'acme-corp', blob: 'procedures', definition: 'triage' }, input_data: [{ alias: 'q', value: [1, { a: null }] }] } }),
    ];
    for (const start of [MANIFEST, '']) {
      const { text } = pullInto(start, schedules, () => false);
      const m = parseManifest(text, 'pulled.yaml');
      const plan = computePlan(m.entries, schedules, () => false);
      expect(plan.entries.map((e) => e.kind)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    }
  });

  it('a schedule the manifest cannot hold (an aws target of a service only the EventBridge API stores) is reported, not written, and its entry left as it was', () => {
    const kinesis = {
      ...deployed({ id: '99999999-0000-4000-8000-00000000000e', alias: 'kinesis-feed', cron_expression: '0 4 * * ? *' }),
      invocation_target_type: 'aws',
      invocation_target: { arn: 'arn:aws:kinesis:us-east-1:123456789012:stream/feed', role_arn: 'arn:aws:iam::123456789012:role/scheduler' },
    } as unknown as Schedule;
    const withEntry = `${MANIFEST}  kinesis-feed:\n    repeat: recurring_cron\n    cron_expression: "0 5 * * ? *"\n    timezone: UTC\n    invocation_target_type: http\n    invocation_target: {url: "https://example.com/x"}\n`;
    for (const start of ['', withEntry]) {
      const { result, text } = pullInto(start, [...deployedManifest(), kinesis]);
      expect(result.unrepresentable.map((u) => u.schedule.alias)).toEqual(['kinesis-feed']);
      expect(result.unrepresentable[0].problem).toMatch(/^invalid_invocation_target: "kinesis" ARNs are not a supported target/);
      expect(result.removed).toEqual([]);
      if (start) expect(text).toContain('  kinesis-feed:\n    repeat: recurring_cron\n    cron_expression: "0 5 * * ? *"');
      else expect(text).not.toContain('kinesis-feed');
    }
  });
});
