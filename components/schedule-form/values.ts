/**
 * The schedule form's own values (strings as the inputs hold them), its field names and labels, and
 * the values a form starts from: a stored schedule (edit) or the defaults of a new one (create).
 * `request-body.ts` turns these values into the request body of SPEC §5.1.
 */
import type { Repeat, TargetOptions, WorkflowSchedule } from '@/lib/schedules/contract';

/** The form's own values: strings as the inputs hold them. `toRequestBody` makes the API body. */
export interface ScheduleFormValues {
  alias: string;
  description: string;
  repeat: Repeat;
  cron_expression: string;
  /** `<value> <unit>` (SPEC §12.1). */
  rate_expression: string;
  /** `<input type="datetime-local">`: `YYYY-MM-DDTHH:mm[:ss]`, wall time in `timezone`. */
  invocation_time: string;
  timezone: string;
  /** `<input type="datetime-local">` read as UTC. */
  start_date: string;
  end_date: string;
  enabled: boolean;
  invocation_target: {
    target: { org: string; blob: string; revision: string; session: string };
    workflow: { org: string; blob: string; revision: string; definition: string };
    /** JSON text of the `input_data` array. */
    input_data: string;
  };
}

/** Each input's label, by its field name: the dotted path of the request body it fills. */
export const LABELS = {
  alias: 'Alias',
  description: 'Description',
  repeat: 'Occurrence',
  cron_expression: 'Cron expression',
  rate_expression: 'Rate',
  invocation_time: 'Invocation time',
  timezone: 'Timezone',
  start_date: 'Start date (UTC)',
  end_date: 'End date (UTC)',
  enabled: 'Enabled',
  'invocation_target.target.org': 'Target org',
  'invocation_target.target.blob': 'Target blob',
  'invocation_target.target.revision': 'Target revision',
  'invocation_target.target.session': 'Session',
  'invocation_target.workflow.org': 'Workflow org',
  'invocation_target.workflow.blob': 'Workflow blob',
  'invocation_target.workflow.revision': 'Workflow revision',
  'invocation_target.workflow.definition': 'Definition',
  'invocation_target.input_data': 'Input data (JSON)',
} as const;

/** A form field: the dotted request path its input fills (`invocation_target.target.session`). */
export type FieldName = keyof typeof LABELS;
export const FIELDS = Object.keys(LABELS) as FieldName[];

/** `YYYY-MM-DDTHH:mm[:ss[.SSS]]` → `YYYY-MM-DDTHH:mm:ss` (the datetime input drops `:00` seconds). */
export function toWallTime(v: string): string {
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(s)) return `${s}:00`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+$/.test(s)) return s.slice(0, 19);
  return s;
}

/** An ISO UTC instant → the `datetime-local` value that shows it in UTC. */
function isoToUtcInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 19);
}

/** A `datetime-local` value read as UTC → its ISO instant, or null when blank or not a date. */
export function utcOrNull(v: string | undefined): string | null {
  if (!v || !v.trim()) return null;
  const d = new Date(`${toWallTime(v)}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The stored schedule as form values (edit mode). */
export function valuesFromSchedule(s: WorkflowSchedule): ScheduleFormValues {
  const t = s.invocation_target;
  return {
    alias: s.alias ?? '',
    description: s.description ?? '',
    repeat: s.repeat,
    cron_expression: s.cron_expression ?? '',
    rate_expression: s.rate_expression ?? '',
    invocation_time: s.invocation_time ?? '',
    timezone: s.timezone,
    start_date: isoToUtcInput(s.start_date),
    end_date: isoToUtcInput(s.end_date),
    enabled: s.enabled,
    invocation_target: {
      target: { org: t.target.org ?? '', blob: t.target.blob, revision: t.target.revision, session: t.target.session },
      workflow: { org: t.workflow.org ?? '', blob: t.workflow.blob ?? '', revision: t.workflow.revision ?? '', definition: t.workflow.definition },
      input_data: t.input_data && t.input_data.length ? JSON.stringify(t.input_data, null, 2) : '',
    },
  };
}

/** Defaults of a new schedule: the seeded target when the catalog has it, else the first writable one. */
export function defaultValues(options: TargetOptions): ScheduleFormValues {
  const writable = options.blobs.filter((b) => b.role !== 'read');
  const blob = writable.find((b) => b.alias === 'procedures' && b.orgAlias === 'acme-corp') ?? writable[0];
  const sessions = blob ? options.sessions.filter((s) => s.revisionId === blob.defaultRevisionId && s.alias) : [];
  const session = sessions.find((s) => s.alias === 'nightly-batch') ?? sessions.find((s) => s.state === 'open') ?? sessions[0];
  const definitions = blob ? options.definitions.filter((d) => d.revisionId === blob.defaultRevisionId && d.alias) : [];
  const definition = definitions.find((d) => d.alias === 'triage') ?? definitions[0];
  return {
    alias: '',
    description: '',
    repeat: 'recurring_cron',
    cron_expression: '0 9 ? * MON-FRI *',
    rate_expression: '5 minutes',
    invocation_time: '',
    timezone: 'UTC',
    start_date: '',
    end_date: '',
    enabled: true,
    invocation_target: {
      target: {
        org: blob ? (blob.orgAlias ?? blob.orgId) : 'acme-corp',
        blob: blob ? (blob.alias ?? blob.id) : 'procedures',
        revision: 'default',
        session: session?.alias ?? 'nightly-batch',
      },
      workflow: { org: '', blob: '', revision: '', definition: definition?.alias ?? 'triage' },
      input_data: '',
    },
  };
}
