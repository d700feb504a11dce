'use client';
/**
 * The New Schedule / Edit schedule form (SPEC §5, §6, §10): the shell that wires react-hook-form to
 * the contract and renders one section a concern. Where each part lives:
 * - `values.ts`: the form's values, field names and labels; a stored schedule or a new one's defaults.
 * - `request-body.ts`: values → the request body (and, in edit mode, only the fields changed).
 * - `resolver.ts`: validation, the contract's one schema `ScheduleCreateInput` (STYLE §2.3).
 * - `errors.ts`, `use-refusal.ts`: an error's `path` → its field; a server refusal's place and focus.
 * - `field-kit.tsx`: ids, aria wiring, hint and error lines every section renders its fields with.
 * - `detail-fields.tsx`, `timing-fields.tsx` (+ `cadence-fields.tsx`), `target-fields.tsx` (each
 *   target type's fields: components/targets), `input-data-field.tsx`, `delivery-fields.tsx`,
 *   `settings-fields.tsx`: the sections.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState, useTransition } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { DEFAULT_TARGET_TYPE, type ContextPreviewFacts, type Schedule, type TargetOptions } from '@/lib/schedules/contract';
import { useNow } from '../cron-preview';
import type { SaveMeta, SaveResult } from '../action-result';
import { ConflictPanel } from './conflict';
import { conflictRows } from './conflict-rows';
import { useClientToken } from './use-client-token';
import { useLeaveGuard } from '../leave-guard';
import { useHydrated } from '../use-viewer-zone';
import { nextFireOf, type StoredRate } from './cadence-fields';
import { PayloadPreviewContext } from './context-attributes';
import { DeliveryFields } from './delivery-fields';
import { DetailFields } from './detail-fields';
import { NETWORK_ERROR_MESSAGE, placeRefusal } from './errors';
import { useFieldKit } from './field-kit';
import { InputDataField } from './input-data-field';
import { changedBody, toRequestBody } from './request-body';
import { makeResolver } from './resolver';
import { SettingsFields } from './settings-fields';
import { TargetFields } from './target-fields';
import { TimingFields, useViewerZoneDefault } from './timing-fields';
import { useRefusal } from './use-refusal';
import { defaultValues, valuesFromSchedule, type ScheduleFormValues } from './values';

/** The stored rate an edit starts from (its anchor is kept while the rate and start date stay, SPEC §12.1). */
function storedRateOf(schedule: Schedule | undefined): StoredRate | undefined {
  if (!schedule || schedule.repeat !== 'recurring_rate' || !schedule.rate_expression) return undefined;
  // With a flexible window the next fire carries its offset, so it is no mark of the anchor.
  const onMarks = schedule.flexible_time_window?.mode !== 'flexible';
  return { rate_expression: schedule.rate_expression, start_date: valuesFromSchedule(schedule).start_date, nextMark: onMarks ? schedule.next_fire_at : null, nextFire: schedule.next_fire_at };
}

/** The create form saved a schedule with other values before a Back or Reload (SPEC §15 `client_token_reused`). */
const TOKEN_REUSED_MESSAGE =
  'This form already created a schedule with other values (before a Back or Reload): check the scheduler\'s schedules. Saving again creates another schedule.';

export interface ScheduleFormProps {
  mode: 'create' | 'edit';
  revisionId: string;
  /** The stored schedule (edit mode). */
  schedule?: Schedule;
  /** What the pickers offer (`targetOptions`); free entry stays allowed. */
  options: TargetOptions;
  /**
   * The bound server action: `createScheduleAction(revisionId, …)` or `updateScheduleAction(revisionId, id, …)`.
   * `meta` carries the create's `client_token` or the edit's `expected_version` (SPEC §15).
   */
  submit: (input: unknown, meta: SaveMeta) => Promise<SaveResult>;
  cancelHref: string;
  /** How the schedule names itself in context attributes (`contextPreviewFacts`), for the payload preview (SPEC §13.4). */
  contextFacts?: ContextPreviewFacts;
}

export function ScheduleForm({ mode, revisionId, schedule, options, submit, cancelHref, contextFacts }: ScheduleFormProps) {
  const router = useRouter();
  const hydrated = useHydrated();
  const [navigating, startNavigation] = useTransition();
  const resolver = useMemo(() => makeResolver(), []);
  // SPEC §15: the schedule this form edits on top of (its `version` goes with every save), replaced by
  // the saved one when the operator reloads after a conflict; the conflict itself, while one is shown.
  const [base, setBase] = useState(schedule);
  const [conflict, setConflict] = useState<Schedule | null>(null);
  const clientToken = useClientToken(mode === 'create');
  const storedRate = useMemo(() => storedRateOf(base), [base]);
  const form = useForm<ScheduleFormValues>({
    resolver,
    defaultValues: schedule ? valuesFromSchedule(schedule) : defaultValues(options),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  // Read while rendering, so react-hook-form keeps them current (edit sends only the dirty fields).
  const { errors, isSubmitting, isSubmitted, dirtyFields, isDirty } = form.formState;
  useViewerZoneDefault(form, mode);
  // Leaving with unsaved edits asks first: Cancel and every in-app link, Back, reload and closing the tab.
  const leaveGuard = useLeaveGuard(
    isDirty,
    mode === 'create' ? 'This new schedule is not saved: leaving discards what you entered.' : 'Your changes to this schedule are not saved: leaving discards them.',
  );

  const w = useWatch({ control: form.control }) as ScheduleFormValues;
  const kit = useFieldKit(form, w.cron_expression ?? '');
  // SPEC §13.4: the payload preview substitutes the next fire's attributes.
  const now = useNow(30_000);
  const nextFire = now ? nextFireOf(w.repeat, w, storedRate, now) : null;
  const preview = { facts: contextFacts ?? null, nextFire, alias: w.alias ?? '', timezone: (w.timezone ?? '').trim() || 'UTC' };
  const pending = isSubmitting || navigating;
  // A target refusal is cleared once the target changes.
  const refusal = useRefusal(form, pending, JSON.stringify([w.invocation_target_type, w.invocation_target]));

  async function save(input: Record<string, unknown>, expectedVersion: number | undefined) {
    setConflict(null);
    let r: SaveResult;
    try {
      r = await submit(input, mode === 'edit' ? { expectedVersion } : { clientToken: clientToken.current() });
    } catch {
      form.setError('root.server', { type: 'network', message: NETWORK_ERROR_MESSAGE });
      return;
    }
    if (r.ok) {
      const href = `/schedulers/${revisionId}/schedules/${r.id}`;
      startNavigation(() => leaveGuard.leave(href));
      return;
    }
    if ('current' in r) {
      // SPEC §15: nothing was saved; the operator chooses between Reload and Overwrite.
      setConflict(r.current);
      return;
    }
    // The token went with other values (a create saved before a Back or Reload): the next save is a new schedule.
    if (r.error.code === 'client_token_reused') {
      clientToken.renew();
      refusal.show({ kind: 'form', code: r.error.code, message: TOKEN_REUSED_MESSAGE });
      return;
    }
    refusal.show(placeRefusal(r.error));
  }

  /** The request of these values (edit: only the fields changed), saved against `expectedVersion`. */
  async function saveValues(values: ScheduleFormValues, expectedVersion: number | undefined) {
    refusal.clearTargetProblem();
    const { body } = toRequestBody(values, mode);
    const input = mode === 'edit' ? changedBody(body, dirtyFields as Partial<Record<keyof ScheduleFormValues, unknown>>, values) : body;
    await save(input, expectedVersion);
  }
  const onValid = (values: ScheduleFormValues) => saveValues(values, base?.version);

  const [resolving, startResolving] = useTransition();
  /** After a conflict: take the saved schedule as the form's base and values, discarding this form's edits. */
  function reloadSaved() {
    if (!conflict) return;
    setBase(conflict);
    form.reset(valuesFromSchedule(conflict));
    setConflict(null);
    router.refresh();
  }
  /** After a conflict: save this form's changes over the saved schedule (against its current version). */
  function overwrite() {
    if (!conflict) return;
    const { version } = conflict;
    startResolving(async () => {
      await form.handleSubmit((values) => saveValues(values, version))();
    });
  }

  const rootMessage = errors.root?.server?.message ?? errors.root?.message;
  const fieldsAtFault = errors.root?.server?.type === 'field' || (Object.keys(errors).some((k) => k !== 'root') && isSubmitted);
  const footerNote = refusal.targetProblem ? 'Check the target.' : fieldsAtFault ? 'Check the highlighted fields.' : null;

  return (
    <form className="schedule-form" onSubmit={form.handleSubmit(onValid, refusal.clearTargetProblem)} noValidate aria-busy={pending} data-ready={hydrated ? 'true' : undefined}>
      {conflict && base ? (
        <ConflictPanel rows={conflictRows(base, conflict, w)} current={conflict} busy={pending || resolving} onReload={reloadSaved} onOverwrite={overwrite} />
      ) : null}
      {rootMessage ? (
        <div role="alert" className="alert alert-error" ref={refusal.alertRef} tabIndex={-1}>
          <strong>{errors.root?.server?.type === 'network' ? 'No answer came from the server.' : 'The schedule was not saved.'}</strong> {rootMessage}
        </div>
      ) : null}

      <fieldset className="form-body" disabled={!hydrated || pending}>
        <DetailFields kit={kit} description={w.description ?? ''} />
        <TimingFields kit={kit} values={w} storedRate={storedRate} />
        <PayloadPreviewContext.Provider value={preview}>
        <TargetFields
          kit={kit}
          options={options}
          targetType={w.invocation_target_type ?? DEFAULT_TARGET_TYPE}
          values={w.invocation_target}
          problem={refusal.targetProblem}
          alertRef={refusal.targetAlertRef}
        >
          <InputDataField kit={kit} />
        </TargetFields>
        </PayloadPreviewContext.Provider>
        <DeliveryFields kit={kit} values={w} />
        <SettingsFields kit={kit} enabled={w.enabled ?? true} note={w.paused?.note ?? ''} />
      </fieldset>

      <div className="form-footer">
        {footerNote ? (
          <p className="text-error small" role="status">
            {footerNote}
          </p>
        ) : null}
        <Link href={cancelHref} className="btn btn-link">
          Cancel
        </Link>
        <button type="submit" className="btn btn-primary" disabled={!hydrated || pending || conflict !== null}>
          {pending ? 'Saving…' : mode === 'create' ? 'Create schedule' : 'Save changes'}
        </button>
      </div>
      {leaveGuard.dialog}
    </form>
  );
}
