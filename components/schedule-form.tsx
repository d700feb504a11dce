'use client';
/**
 * The New Schedule / Edit schedule form (SPEC §5, §6, §10). Validation is the contract's one schema,
 * `ScheduleCreateInput`, through `zodResolver` (STYLE §2.3): the form's values are turned into the
 * request body first (datetime inputs → wall time or ISO UTC, the input-data text → JSON), and the
 * schema's issue paths are mapped back onto the form's fields. The server action answers with the
 * same paths (`invocation_target.target.session`, `cron_expression`), mapped the same way.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useMemo, useRef, useState, useTransition, type ReactNode } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { ScheduleCreateInput, type Repeat, type Schedule } from '@/lib/schedules/contract';
import type { ActionResult } from './action-result';
import { CronPreview, cronProblem, InvocationPreview } from './cron-preview';
import { useHydrated, useViewerZone } from './use-viewer-zone';

/** What the pickers offer (lib/schedules/target-options.ts `TargetOptions`); free entry stays allowed. */
export interface TargetOptionsView {
  orgs: { id: string; alias: string | null; name: string }[];
  blobs: {
    id: string;
    alias: string | null;
    name: string;
    orgId: string;
    orgAlias: string | null;
    role: 'read' | 'write' | 'admin';
    defaultRevisionId: string | null;
    revisions: { id: string; state: string; isDefault: boolean }[];
  }[];
  sessions: { revisionId: string; id: string; alias: string | null; state: string }[];
  definitions: { revisionId: string; id: string; alias: string | null; name: string }[];
}

/** The form's own values: strings as the inputs hold them. `toRequestBody` makes the API body. */
export interface ScheduleFormValues {
  alias: string;
  description: string;
  repeat: Repeat;
  cron_expression: string;
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

type FieldName =
  | 'alias'
  | 'description'
  | 'repeat'
  | 'cron_expression'
  | 'invocation_time'
  | 'timezone'
  | 'start_date'
  | 'end_date'
  | 'enabled'
  | 'invocation_target.target.org'
  | 'invocation_target.target.blob'
  | 'invocation_target.target.revision'
  | 'invocation_target.target.session'
  | 'invocation_target.workflow.org'
  | 'invocation_target.workflow.blob'
  | 'invocation_target.workflow.revision'
  | 'invocation_target.workflow.definition'
  | 'invocation_target.input_data';

const LABELS: Record<FieldName, string> = {
  alias: 'Alias',
  description: 'Description',
  repeat: 'Occurrence',
  cron_expression: 'Cron expression',
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
};
const FIELDS = Object.keys(LABELS) as FieldName[];

/** The form field an error path (`invocation_target.input_data.0.alias`) belongs to, or null. */
export function fieldForPath(path: string | undefined): FieldName | null {
  if (!path) return null;
  let best: FieldName | null = null;
  for (const f of FIELDS) if ((path === f || path.startsWith(`${f}.`)) && (!best || f.length > best.length)) best = f;
  return best;
}

const DESCRIPTION_MAX = 256;

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

/**
 * The request body of SPEC §5.1 for these values. In `create` mode empty optional fields are left
 * out; in `edit` mode they are sent as `null`, which clears them. `inputDataError` is set when the
 * input-data text is not JSON (the body then carries `[]` in its place).
 */
export function toRequestBody(v: ScheduleFormValues, mode: 'create' | 'edit'): { body: Record<string, unknown>; inputDataError: string | null } {
  const cleared = mode === 'edit' ? null : undefined;
  const opt = (s: string) => (s.trim() === '' ? undefined : s.trim());
  const t = v.invocation_target;
  let inputData: unknown = [];
  let inputDataError: string | null = null;
  if (t.input_data.trim() !== '') {
    try {
      inputData = JSON.parse(t.input_data);
    } catch (e) {
      inputDataError = `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  const body: Record<string, unknown> = {
    alias: v.alias.trim() === '' ? cleared : v.alias.trim(),
    description: v.description === '' ? cleared : v.description,
    repeat: v.repeat,
    ...(v.repeat === 'one_time' ? { invocation_time: toWallTime(v.invocation_time) } : { cron_expression: v.cron_expression.trim() }),
    timezone: v.timezone.trim(),
    start_date: v.start_date.trim() === '' ? cleared : `${toWallTime(v.start_date)}Z`,
    end_date: v.end_date.trim() === '' ? cleared : `${toWallTime(v.end_date)}Z`,
    enabled: v.enabled,
    invocation_target: {
      target: { org: opt(t.target.org), blob: t.target.blob.trim(), revision: t.target.revision.trim(), session: t.target.session.trim() },
      workflow: { org: opt(t.workflow.org), blob: opt(t.workflow.blob), revision: opt(t.workflow.revision), definition: t.workflow.definition.trim() },
      input_data: inputData,
    },
  };
  return { body: stripUndefined(body) as Record<string, unknown>, inputDataError };
}

function stripUndefined(v: unknown): unknown {
  if (Array.isArray(v) || v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = stripUndefined(x);
  return out;
}

/** The stored schedule as form values (edit mode). */
function valuesFromSchedule(s: Schedule): ScheduleFormValues {
  const t = s.invocation_target;
  return {
    alias: s.alias ?? '',
    description: s.description ?? '',
    repeat: s.repeat,
    cron_expression: s.cron_expression ?? '',
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
function defaultValues(options: TargetOptionsView): ScheduleFormValues {
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

/** Every `{message}` in a nested FieldErrors object, by dotted path. */
function flattenErrors(errors: FieldErrors, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, node] of Object.entries(errors as Record<string, unknown>)) {
    if (!node || typeof node !== 'object' || key === 'ref') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const n = node as { message?: unknown };
    if (typeof n.message === 'string') out.push([path, n.message]);
    for (const [k, child] of Object.entries(node as Record<string, unknown>)) {
      if (['ref', 'message', 'type', 'types', 'root'].includes(k) || !child || typeof child !== 'object') continue;
      out.push(...flattenErrors({ [k]: child } as FieldErrors, path));
    }
  }
  return out;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

function getPath(source: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined), source);
}

/** Required text fields (for the current repeat): a blank one says so in plain words. */
function isBlankRequired(field: FieldName, v: ScheduleFormValues): boolean {
  const required: FieldName[] = [
    'timezone',
    'invocation_target.target.blob',
    'invocation_target.target.revision',
    'invocation_target.target.session',
    'invocation_target.workflow.definition',
    v.repeat === 'one_time' ? 'invocation_time' : 'cron_expression',
  ];
  return required.includes(field) && String(getPath(v, field) ?? '').trim() === '';
}

/** Strip the `path: ` prefix that API messages carry (the field already shows where). */
/**
 * A server message as shown at its field, whose label already names it: a leading `path: ` or
 * `path ` is dropped (`cron_expression "0 9 …" never fires…` → `"0 9 …" never fires…`).
 */
function fieldMessage(message: string, path: string | undefined): string {
  if (!path) return message;
  if (message.startsWith(`${path}: `)) return message.slice(path.length + 2);
  if (message.startsWith(`${path} `)) return message.slice(path.length + 1);
  return message;
}

/** A target refusal (SPEC §6.3) in operator words: the API field name becomes "The target". */
function targetMessage(message: string): string {
  return message.startsWith('invocation_target ') ? `The target ${message.slice('invocation_target '.length)}` : message;
}

const contractResolver = zodResolver(ScheduleCreateInput);

/** `zodResolver(ScheduleCreateInput)` applied to the request body the values make, errors mapped back. */
function makeResolver(): Resolver<ScheduleFormValues> {
  return async (values, context, options) => {
    // Validation sees empty optional fields as absent; `edit` only differs in sending them as null.
    const { body, inputDataError } = toRequestBody(values, 'create');
    const result = await contractResolver(body as never, context, options as never);
    const errors: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (const [path, message] of flattenErrors(result.errors as FieldErrors)) {
      const field = fieldForPath(path);
      const key = field ?? 'root';
      if (seen.has(key)) continue;
      seen.add(key);
      const text = field && isBlankRequired(field, values) ? `${LABELS[field]} is required.` : message;
      setPath(errors, key, { type: 'validate', message: field ? text : `${path}: ${text}` });
    }
    if (inputDataError) setPath(errors, 'invocation_target.input_data', { type: 'json', message: inputDataError });
    return Object.keys(errors).length ? { values: {}, errors: errors as FieldErrors<ScheduleFormValues> } : { values, errors: {} };
  };
}

/** Which top-level request fields the user changed (edit sends only those: SPEC §3.1 "only fields sent change"). */
function changedBody(body: Record<string, unknown>, dirty: Partial<Record<keyof ScheduleFormValues, unknown>>, values: ScheduleFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const isDirty = (k: keyof ScheduleFormValues) => Boolean(dirty[k]);
  for (const k of ['alias', 'description', 'timezone', 'start_date', 'end_date', 'enabled', 'invocation_target'] as const) {
    if (isDirty(k) && k in body) out[k] = body[k];
  }
  if (isDirty('repeat')) out.repeat = body.repeat;
  const timeField = values.repeat === 'one_time' ? 'invocation_time' : 'cron_expression';
  if (isDirty('repeat') || isDirty(timeField)) out[timeField] = body[timeField];
  return out;
}

export interface ScheduleFormProps {
  mode: 'create' | 'edit';
  revisionId: string;
  /** The stored schedule (edit mode). */
  schedule?: Schedule;
  options: TargetOptionsView;
  /** The bound server action: `createScheduleAction(revisionId, …)` or `updateScheduleAction(revisionId, id, …)`. */
  submit: (input: unknown) => Promise<ActionResult<{ id: string }>>;
  cancelHref: string;
}

export function ScheduleForm({ mode, revisionId, schedule, options, submit, cancelHref }: ScheduleFormProps) {
  const router = useRouter();
  const hydrated = useHydrated();
  const viewerZone = useViewerZone();
  const [navigating, startNavigation] = useTransition();
  const [zones, setZones] = useState<string[]>([]);
  const uid = useId();
  const id = (name: string) => `${uid}-${name.replace(/\./g, '-')}`;
  const resolver = useMemo(() => makeResolver(), []);

  const form = useForm<ScheduleFormValues>({
    resolver,
    defaultValues: schedule ? valuesFromSchedule(schedule) : defaultValues(options),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, setError, setValue, control, formState } = form;
  const { errors, isSubmitting, dirtyFields } = formState;

  // A new schedule starts in the viewer's time zone (known only in the browser).
  useEffect(() => {
    if (mode === 'create' && viewerZone && !form.getFieldState('timezone').isDirty) setValue('timezone', viewerZone);
  }, [mode, viewerZone, setValue, form]);
  useEffect(() => {
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    setZones(all.includes('UTC') ? all : ['UTC', ...all]);
  }, []);

  // Where focus goes after a refused save; applied once the form is enabled again (a disabled input cannot take focus).
  const [focusTarget, setFocusTarget] = useState<FieldName | 'alert' | 'target-alert' | null>(null);
  const [targetProblem, setTargetProblem] = useState<string | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const targetAlertRef = useRef<HTMLDivElement>(null);

  const w = useWatch({ control }) as ScheduleFormValues;
  const repeat = w.repeat ?? 'recurring_cron';
  const target = w.invocation_target?.target ?? { org: '', blob: '', revision: '', session: '' };
  const workflow = w.invocation_target?.workflow ?? { org: '', blob: '', revision: '', definition: '' };
  const descriptionLength = (w.description ?? '').length;

  const [inputDataRows] = useState(() => Math.min(12, Math.max(4, (form.getValues('invocation_target.input_data') ?? '').split('\n').length)));
  const pickers = useMemo(() => pickerOptions(options, target, workflow), [options, target, workflow]);
  // A target refusal speaks of the target as it was sent: editing the target (or a new attempt the
  // browser refuses first) takes it away, so it never stands beside a newer, unrelated error.
  const targetKey = JSON.stringify([target, workflow]);
  useEffect(() => setTargetProblem(null), [targetKey]);

  async function onValid(values: ScheduleFormValues) {
    setTargetProblem(null);
    const { body } = toRequestBody(values, mode);
    const input = mode === 'edit' ? changedBody(body, dirtyFields as Partial<Record<keyof ScheduleFormValues, unknown>>, values) : body;
    let r: ActionResult<{ id: string }>;
    try {
      r = await submit(input);
    } catch {
      setError('root.server', { type: 'network', message: 'The server could not be reached; nothing was saved. Try again.' });
      return;
    }
    if (r.ok) {
      const href = `/schedulers/${revisionId}/schedules/${r.id}`;
      startNavigation(() => router.push(href));
      return;
    }
    const field = fieldForPath(r.error.path);
    if (field) {
      setError(field, { type: r.error.code, message: fieldMessage(r.error.message, r.error.path) });
      setError('root.server', { type: 'field', message: `${LABELS[field]}: ${fieldMessage(r.error.message, r.error.path)}` });
      setFocusTarget(field);
    } else if (r.error.path?.startsWith('invocation_target')) {
      // SPEC §6.3: one message for every target refusal, so it names no single field.
      setTargetProblem(targetMessage(r.error.message));
      setFocusTarget('target-alert');
    } else {
      setError('root.server', { type: r.error.code, message: r.error.message });
      setFocusTarget('alert');
    }
  }

  const pending = isSubmitting || navigating;
  useEffect(() => {
    if (pending || !focusTarget) return;
    if (focusTarget === 'alert') alertRef.current?.focus();
    else if (focusTarget === 'target-alert') targetAlertRef.current?.focus();
    else form.setFocus(focusTarget);
    setFocusTarget(null);
  }, [pending, focusTarget, form]);
  const rootMessage = errors.root?.server?.message ?? errors.root?.message;

  /** aria props for an input: described by its hint and its error. */
  const a11y = (name: FieldName, hint?: boolean) => {
    const err = (name === 'cron_expression' && cronProblem(w.cron_expression ?? '') ? { message: 'live' } : getPath(errors, name)) as { message?: string } | undefined;
    const describedBy = [hint ? `${id(name)}-hint` : null, err?.message ? `${id(name)}-error` : null].filter(Boolean).join(' ');
    return { id: id(name), 'aria-invalid': err?.message ? true : undefined, 'aria-describedby': describedBy || undefined } as const;
  };
  const fieldError = (name: FieldName) => {
    const err = getPath(errors, name) as { message?: string } | undefined;
    return err?.message ? (
      <p className="field-error" id={`${id(name)}-error`}>
        {err.message}
      </p>
    ) : null;
  };
  const hint = (name: FieldName, text: ReactNode) => (
    <p className="field-hint" id={`${id(name)}-hint`}>
      {text}
    </p>
  );

  return (
    <form className="schedule-form" onSubmit={handleSubmit(onValid, () => setTargetProblem(null))} noValidate aria-busy={pending} data-ready={hydrated ? 'true' : undefined}>
      {rootMessage ? (
        <div role="alert" className="alert alert-error" ref={alertRef} tabIndex={-1}>
          <strong>The schedule was not saved.</strong> {rootMessage}
        </div>
      ) : null}

      <fieldset className="form-body" disabled={!hydrated || pending}>
        <section className="container" aria-labelledby={`${uid}-detail`}>
          <h2 id={`${uid}-detail`} className="container-title">
            Schedule detail
          </h2>
          <div className="field">
            <label htmlFor={id('alias')}>
              Alias <span className="optional">optional</span>
            </label>
            <input {...register('alias')} {...a11y('alias', true)} autoComplete="off" spellCheck={false} className="mono" />
            {hint('alias', <>6–64 characters from a–z, 0–9, _ and -. Unique in this scheduler; the id is used when there is none.</>)}
            {fieldError('alias')}
          </div>
          <div className="field">
            <label htmlFor={id('description')}>
              Description <span className="optional">optional</span>
            </label>
            <textarea {...register('description')} {...a11y('description', true)} rows={2} />
            {hint(
              'description',
              <>
                Sent as the description of every workflow execution this schedule starts.{' '}
                <span className={descriptionLength > DESCRIPTION_MAX ? 'text-error' : undefined}>
                  {descriptionLength}/{DESCRIPTION_MAX}
                </span>
              </>,
            )}
            {fieldError('description')}
          </div>
        </section>

        <section className="container" aria-labelledby={`${uid}-pattern`}>
          <h2 id={`${uid}-pattern`} className="container-title">
            Schedule pattern
          </h2>
          <fieldset className="radio-group">
            <legend>Occurrence</legend>
            <label className="radio-card">
              <input type="radio" value="one_time" {...register('repeat')} />
              <span>
                <strong>One-time</strong>
                <span className="muted small">Fires once, at a local date and time.</span>
              </span>
            </label>
            <label className="radio-card">
              <input type="radio" value="recurring_cron" {...register('repeat')} />
              <span>
                <strong>Recurring (cron)</strong>
                <span className="muted small">Fires on a cron cadence, evaluated in the time zone.</span>
              </span>
            </label>
          </fieldset>

          <div className="field-row">
            {repeat === 'recurring_cron' ? (
              <div className="field field-wide">
                <label htmlFor={id('cron_expression')}>Cron expression</label>
                <input {...register('cron_expression')} {...a11y('cron_expression', true)} className="mono" autoComplete="off" spellCheck={false} placeholder="0 9 ? * MON-FRI *" />
                {hint('cron_expression', <>Six fields: minutes hours day-of-month month day-of-week year. One of the day fields is ?. Day-of-week 1 = Sunday.</>)}
                {/* The live preview below already shows a syntax problem; repeat only what it cannot know (e.g. interval_too_short). */}
                {cronProblem(w.cron_expression ?? '') ? null : fieldError('cron_expression')}
              </div>
            ) : (
              <div className="field field-wide">
                <label htmlFor={id('invocation_time')}>Invocation time</label>
                <input type="datetime-local" step={1} {...register('invocation_time')} {...a11y('invocation_time', true)} />
                {hint('invocation_time', <>Local wall time in the time zone below (no offset).</>)}
                {fieldError('invocation_time')}
              </div>
            )}
            <div className="field">
              <label htmlFor={id('timezone')}>Timezone</label>
              <input {...register('timezone')} {...a11y('timezone', true)} list={`${uid}-zones`} autoComplete="off" spellCheck={false} />
              <datalist id={`${uid}-zones`}>
                {zones.map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
              {hint('timezone', <>An IANA name such as Europe/Berlin or UTC; type to search.</>)}
              {fieldError('timezone')}
            </div>
          </div>

          {repeat === 'recurring_cron' ? (
            <CronPreview expression={w.cron_expression ?? ''} timezone={w.timezone ?? ''} startDate={utcOrNull(w.start_date)} endDate={utcOrNull(w.end_date)} errorId={`${id('cron_expression')}-error`} />
          ) : (
            <InvocationPreview invocationTime={w.invocation_time ? toWallTime(w.invocation_time) : ''} timezone={w.timezone ?? ''} />
          )}

          <div className="field-row">
            <div className="field">
              <label htmlFor={id('start_date')}>
                Start date (UTC) <span className="optional">optional</span>
              </label>
              <input type="datetime-local" step={1} {...register('start_date')} {...a11y('start_date', true)} />
              {hint('start_date', <>No fire before this instant.</>)}
              {fieldError('start_date')}
            </div>
            <div className="field">
              <label htmlFor={id('end_date')}>
                End date (UTC) <span className="optional">optional</span>
              </label>
              <input type="datetime-local" step={1} {...register('end_date')} {...a11y('end_date', true)} />
              {hint('end_date', <>No fire after this instant; must be after the start date.</>)}
              {fieldError('end_date')}
            </div>
          </div>
        </section>

        <section className="container" aria-labelledby={`${uid}-target`}>
          <h2 id={`${uid}-target`} className="container-title">
            Target
          </h2>
          <p className="container-intro">Where each fire starts its workflow execution: a session of a workflow blob’s revision.</p>
          {targetProblem ? (
            <div role="alert" className="alert alert-error alert-inline" ref={targetAlertRef} tabIndex={-1}>
              <strong>The schedule was not saved.</strong> {targetProblem}
            </div>
          ) : null}
          <div className="field-grid">
            <div className="field">
              <label htmlFor={id('invocation_target.target.org')}>Target org</label>
              <input {...register('invocation_target.target.org')} {...a11y('invocation_target.target.org', true)} list={`${uid}-orgs`} autoComplete="off" className="mono" />
              {hint('invocation_target.target.org', <>Needed when the blob is named by alias.</>)}
              {fieldError('invocation_target.target.org')}
            </div>
            <div className="field">
              <label htmlFor={id('invocation_target.target.blob')}>Target blob</label>
              <input {...register('invocation_target.target.blob')} {...a11y('invocation_target.target.blob', true)} list={`${uid}-target-blobs`} autoComplete="off" className="mono" />
              {hint('invocation_target.target.blob', <>A workflow blob you can write to, by alias or id.</>)}
              {fieldError('invocation_target.target.blob')}
            </div>
            <div className="field">
              <label htmlFor={id('invocation_target.target.revision')}>Target revision</label>
              <input {...register('invocation_target.target.revision')} {...a11y('invocation_target.target.revision', true)} list={`${uid}-target-revisions`} autoComplete="off" className="mono" />
              {hint('invocation_target.target.revision', <>“default” follows the blob’s default revision at every fire; a revision id pins one draft.</>)}
              {fieldError('invocation_target.target.revision')}
            </div>
            <div className="field">
              <label htmlFor={id('invocation_target.target.session')}>Session</label>
              <input {...register('invocation_target.target.session')} {...a11y('invocation_target.target.session', true)} list={`${uid}-sessions`} autoComplete="off" className="mono" />
              {hint('invocation_target.target.session', (target.revision ?? '').trim() === 'default' ? <>By alias: it is looked up afresh in the default revision at every fire.</> : <>By alias or id; saved as the session’s id.</>)}
              {fieldError('invocation_target.target.session')}
            </div>
          </div>

          <h3 className="subsection-title">Workflow</h3>
          <div className="field-grid">
            <div className="field">
              <label htmlFor={id('invocation_target.workflow.definition')}>Definition</label>
              <input {...register('invocation_target.workflow.definition')} {...a11y('invocation_target.workflow.definition', true)} list={`${uid}-definitions`} autoComplete="off" className="mono" />
              {hint('invocation_target.workflow.definition', <>By alias (an id only when the definition’s revision is pinned).</>)}
              {fieldError('invocation_target.workflow.definition')}
            </div>
          </div>
          <fieldset className="subfieldset">
            <legend>
              Workflow source <span className="optional">optional</span>
            </legend>
            <p className="field-hint">Leave blank to run a definition of the target’s own revision; name a blob to take it from there.</p>
            <div className="field-grid field-grid-3">
              <div className="field">
                <label htmlFor={id('invocation_target.workflow.org')}>Workflow org</label>
                <input {...register('invocation_target.workflow.org')} {...a11y('invocation_target.workflow.org')} list={`${uid}-orgs`} autoComplete="off" className="mono" />
                {fieldError('invocation_target.workflow.org')}
              </div>
              <div className="field">
                <label htmlFor={id('invocation_target.workflow.blob')}>Workflow blob</label>
                <input {...register('invocation_target.workflow.blob')} {...a11y('invocation_target.workflow.blob')} list={`${uid}-workflow-blobs`} autoComplete="off" className="mono" />
                {fieldError('invocation_target.workflow.blob')}
              </div>
              <div className="field">
                <label htmlFor={id('invocation_target.workflow.revision')}>Workflow revision</label>
                <input {...register('invocation_target.workflow.revision')} {...a11y('invocation_target.workflow.revision')} list={`${uid}-workflow-revisions`} autoComplete="off" className="mono" placeholder="default" />
                {fieldError('invocation_target.workflow.revision')}
              </div>
            </div>
          </fieldset>

          <div className="field">
            <label htmlFor={id('invocation_target.input_data')}>
              Input data (JSON) <span className="optional">optional</span>
            </label>
            <textarea {...register('invocation_target.input_data')} {...a11y('invocation_target.input_data', true)} rows={inputDataRows} className="mono" spellCheck={false} placeholder='[{"alias": "ticket_window", "value": {"hours": 24}}]' />
            {hint('invocation_target.input_data', <>An array of {'{"alias": …, "value": …}'} objects, at most 64 KiB; passed to every execution.</>)}
            {fieldError('invocation_target.input_data')}
          </div>

          <datalist id={`${uid}-orgs`}>
            {options.orgs.map((o) => (
              <option key={o.id} value={o.alias ?? o.id}>
                {o.name}
              </option>
            ))}
          </datalist>
          <datalist id={`${uid}-target-blobs`}>
            {pickers.targetBlobs.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </datalist>
          <datalist id={`${uid}-target-revisions`}>
            {pickers.targetRevisions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </datalist>
          <datalist id={`${uid}-sessions`}>
            {pickers.sessions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </datalist>
          <datalist id={`${uid}-workflow-blobs`}>
            {pickers.workflowBlobs.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </datalist>
          <datalist id={`${uid}-workflow-revisions`}>
            {pickers.workflowRevisions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </datalist>
          <datalist id={`${uid}-definitions`}>
            {pickers.definitions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </datalist>
        </section>

        <section className="container" aria-labelledby={`${uid}-settings`}>
          <h2 id={`${uid}-settings`} className="container-title">
            Settings
          </h2>
          <div className="field field-checkbox">
            <input type="checkbox" {...register('enabled')} {...a11y('enabled', true)} />
            <label htmlFor={id('enabled')}>Enabled</label>
            {hint('enabled', <>A disabled schedule does not fire. Enabling it again fires from its next occurrence (no catch-up).</>)}
          </div>
        </section>
      </fieldset>

      <div className="form-footer">
        {targetProblem || errors.root?.server?.type === 'field' || (Object.keys(errors).some((k) => k !== 'root') && formState.isSubmitted) ? (
          <p className="text-error small" role="status">
            {targetProblem ? 'Check the target.' : 'Check the highlighted fields.'}
          </p>
        ) : null}
        <Link href={cancelHref} className="btn btn-link">
          Cancel
        </Link>
        <button type="submit" className="btn btn-primary" disabled={!hydrated || pending}>
          {pending ? 'Saving…' : mode === 'create' ? 'Create schedule' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

function utcOrNull(v: string | undefined): string | null {
  if (!v || !v.trim()) return null;
  const d = new Date(`${toWallTime(v)}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

interface Option {
  value: string;
  label: string;
}

/** The datalist options that fit what is typed so far (blob → its revisions → their sessions and definitions). */
function pickerOptions(
  options: TargetOptionsView,
  target: ScheduleFormValues['invocation_target']['target'],
  workflow: ScheduleFormValues['invocation_target']['workflow'],
): { targetBlobs: Option[]; targetRevisions: Option[]; sessions: Option[]; workflowBlobs: Option[]; workflowRevisions: Option[]; definitions: Option[] } {
  const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  const inOrg = (b: TargetOptionsView['blobs'][number], org: string) => !org || b.orgAlias === org || b.orgId === org;
  const findBlob = (org: string, ref: string) => (ref ? options.blobs.find((b) => (b.id === ref || (b.alias === ref && inOrg(b, org))) && (b.id === ref ? true : inOrg(b, org))) : undefined);
  const revisionOf = (b: TargetOptionsView['blobs'][number] | undefined, rev: string) => (!b ? null : !rev || rev === 'default' ? b.defaultRevisionId : (b.revisions.find((r) => r.id === rev)?.id ?? null));
  const blobOption = (b: TargetOptionsView['blobs'][number]): Option => ({ value: b.alias ?? b.id, label: `${b.name} (${b.orgAlias ?? b.orgId})` });
  const revisionOptions = (b: TargetOptionsView['blobs'][number] | undefined, draftsOnly: boolean): Option[] => [
    { value: 'default', label: 'Follow the default revision' },
    ...(b?.revisions ?? []).filter((r) => !draftsOnly || r.state === 'draft').map((r) => ({ value: r.id, label: `${r.state}${r.isDefault ? ', default' : ''}` })),
  ];

  const tOrg = norm(target.org);
  const tBlob = findBlob(tOrg, norm(target.blob));
  const tRevision = norm(target.revision);
  const tRevisionId = revisionOf(tBlob, tRevision);
  const following = tRevision === 'default';
  const sessions = options.sessions
    .filter((s) => s.revisionId === tRevisionId)
    .flatMap((s) => {
      const label = `${s.state}${s.alias ? '' : ' (no alias)'}`;
      const out: Option[] = [];
      if (s.alias) out.push({ value: s.alias, label });
      if (!following) out.push({ value: s.id, label: `${s.alias ?? 'session'} · ${s.state}` });
      return out;
    });

  const wOrg = norm(workflow.org);
  const wBlobRef = norm(workflow.blob);
  const wBlob = wBlobRef ? findBlob(wOrg, wBlobRef) : undefined;
  const wRevision = norm(workflow.revision);
  const definitionRevisionId = wBlobRef ? revisionOf(wBlob, wRevision) : tRevisionId;
  const definitionFollows = wBlobRef ? !wRevision || wRevision === 'default' : following;
  const definitions = options.definitions
    .filter((d) => d.revisionId === definitionRevisionId)
    .flatMap((d) => {
      const out: Option[] = [];
      if (d.alias) out.push({ value: d.alias, label: d.name });
      if (!definitionFollows) out.push({ value: d.id, label: `${d.name} (id)` });
      return out;
    });

  return {
    targetBlobs: options.blobs.filter((b) => b.role !== 'read' && inOrg(b, tOrg)).map(blobOption),
    targetRevisions: revisionOptions(tBlob, true),
    sessions,
    workflowBlobs: options.blobs.filter((b) => inOrg(b, wOrg)).map(blobOption),
    workflowRevisions: revisionOptions(wBlob, false),
    definitions,
  };
}
