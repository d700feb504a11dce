/** SPEC §17 messages: every rendering names the schedule (with its link), the scheduler, the event, the occurrence in the schedule's zone and in UTC, the error, attempts and consecutive failures. */
import { describe, expect, it } from 'vitest';
import { renderAlert, zonedAndUtc, type AlertFacts } from '..';

const FACTS: AlertFacts = {
  schedule: { id: '11111111-1111-4111-8111-111111111111', name: 'nightly-<report>', alias: 'nightly-<report>', description: 'the nightly & weekly', timezone: 'America/New_York' },
  scheduler: { id: '22222222-2222-4222-8222-222222222222', name: 'ops', revision_id: '33333333-3333-4333-8333-333333333333' },
  scheduled_for: '2026-03-08T07:30:00.000Z',
  status: 'invocation_error',
  error: 'http_error',
  message: 'HTTP 500 Internal Server Error: not a 2xx answer',
  attempts: 3,
  consecutive_failures: 4,
  failure_tolerance: 3,
};
const LINK = 'https://scheduler.example.com/schedulers/33333333-3333-4333-8333-333333333333/schedules/11111111-1111-4111-8111-111111111111';

describe('§17 alert messages', () => {
  it('the occurrence in the schedule\'s zone and in UTC (across a DST change)', () => {
    expect(zonedAndUtc('2026-03-08T07:30:00.000Z', 'America/New_York')).toBe('2026-03-08 03:30:00 America/New_York (2026-03-08 07:30:00 UTC)');
    expect(zonedAndUtc('2026-03-08T06:30:00.000Z', 'America/New_York')).toBe('2026-03-08 01:30:00 America/New_York (2026-03-08 06:30:00 UTC)');
    expect(zonedAndUtc('2026-03-08T06:30:00.000Z', 'UTC')).toBe('2026-03-08 06:30:00 UTC');
  });

  it('plain text, HTML (escaped), Slack {text, blocks} and the webhook JSON say the same facts', () => {
    const m = renderAlert({ id: 'a1', incidentId: 'i1', event: 'failure', round: 2, facts: FACTS, publicUrl: 'https://scheduler.example.com', at: new Date('2026-03-08T07:31:00Z') });
    expect(m.title).toBe('[ops] nightly-<report> is failing (reminder 2)');
    for (const line of [
      'Schedule: nightly-<report> (the nightly & weekly)',
      'Scheduler: ops',
      'Event: failure',
      'Occurrence: 2026-03-08 03:30:00 America/New_York (2026-03-08 07:30:00 UTC)',
      'Error: http_error: HTTP 500 Internal Server Error: not a 2xx answer',
      'Attempts: 3',
      'Consecutive failures: 4 (tolerance 3)',
      `Open the schedule: ${LINK}`,
    ]) expect(m.text).toContain(line);
    expect(m.html).toContain('nightly-&lt;report&gt; (the nightly &amp; weekly)');
    expect(m.html).not.toContain('<report>');
    expect(m.html).toContain(`<a href="${LINK}">`);
    expect(m.slack.text).toBe(`[ops] nightly-&lt;report&gt; is failing (reminder 2): <${LINK}|nightly-&lt;report&gt;>`);
    expect(JSON.stringify(m.slack.blocks)).toContain('*Consecutive failures*\\n4 (tolerance 3)');
    expect(m.json).toMatchObject({ type: 'scheduler.alert', id: 'a1', incident_id: 'i1', event: 'failure', round: 2, schedule: { url: LINK }, details: { attempts: 3, consecutive_failures: 4, error: 'http_error' } });
  });

  it('a reminder names the first alert\'s occurrence and count as such, and the count now on its own line (decision 273)', () => {
    const m = renderAlert({ id: 'a2', event: 'failure', round: 1, facts: { ...FACTS, consecutive_failures_now: 9 }, publicUrl: 'https://scheduler.example.com', at: new Date('2026-03-08T09:31:00Z') });
    expect(m.text).toContain('First alerted occurrence: 2026-03-08 03:30:00 America/New_York (2026-03-08 07:30:00 UTC)');
    expect(m.text).toContain('Consecutive failures then: 4 (tolerance 3)');
    expect(m.text).toContain('Consecutive failures now: 9');
    expect(m.text).not.toMatch(/^Occurrence:/m);
  });
});
