/** Shared fixtures for the CLI unit tests: a manifest text and deployed schedules as the API returns them. */
import type { WorkflowSchedule } from '../../lib/schedules/contract';

export const PINNED_REVISION = '11111111-2222-4333-8444-555555555555';
export const SESSION_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

/** Line numbers matter: tests name them. */
export const MANIFEST = `# ops schedules
scheduler:
  org: acme-corp
  blob: ops-scheduler
schedules:
  nightly-report:            # line 6
    description: Nightly report
    repeat: recurring_cron
    cron_expression: "0 2 * * ? *"
    timezone: Europe/Berlin
    start_date: 2026-01-01T00:00:00+01:00
    invocation_target:
      target: {org: acme-corp, blob: procedures, revision: default, session: nightly-batch}
      workflow: {definition: daily-report}
  pinned-triage:             # line 15
    repeat: recurring_cron
    cron_expression: "30 6 ? * MON-FRI *"
    timezone: UTC
    invocation_target:
      target:
        org: acme-corp
        blob: procedures
        revision: ${PINNED_REVISION}
        session: nightly-batch
      workflow: {definition: triage}
      input_data:
        - alias: ticket_window
          value: {hours: 24, scope: all}
`;

/** A deployed schedule with the given writable fields (defaults: a following daily-report target). */
export function deployed(fields: Partial<WorkflowSchedule> & { alias?: string }): WorkflowSchedule {
  const id = fields.id ?? '99999999-0000-4000-8000-000000000001';
  return {
    id,
    name: fields.alias ?? id,
    repeat: 'recurring_cron',
    timezone: 'UTC',
    enabled: true,
    state: 'active',
    invocation_target_type: 'workflow',
    invocation_target: {
      target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
      workflow: { definition: 'daily-report' },
      input_data: [],
    },
    next_fire_at: '2026-12-01T01:00:00.000Z',
    created_by: { type: 'org', id: 'org-1' },
    skipped_occurrences: 0,
    version: 1,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...fields,
  };
}

/** The two MANIFEST entries as the server would store them (pinned session rewritten to its id). */
export function deployedManifest(): WorkflowSchedule[] {
  return [
    deployed({
      id: '99999999-0000-4000-8000-000000000001',
      alias: 'nightly-report',
      description: 'Nightly report',
      cron_expression: '0 2 * * ? *',
      timezone: 'Europe/Berlin',
      start_date: '2025-12-31T23:00:00.000Z',
    }),
    deployed({
      id: '99999999-0000-4000-8000-000000000002',
      alias: 'pinned-triage',
      cron_expression: '30 6 ? * MON-FRI *',
      invocation_target: {
        target: { org: 'acme-corp', blob: 'procedures', revision: PINNED_REVISION, session: SESSION_ID },
        workflow: { definition: 'triage' },
        input_data: [{ alias: 'ticket_window', value: { scope: 'all', hours: 24 } }],
      },
    }),
  ];
}

/** Resolves `nightly-batch` in the pinned revision to SESSION_ID, as the target check would. */
export const resolvePinned = (revision: string, ref: string, storedId: string) => revision === PINNED_REVISION && ref === 'nightly-batch' && storedId === SESSION_ID;
