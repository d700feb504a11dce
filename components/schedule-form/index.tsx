'use client';
/**
 * The New Schedule / Edit schedule form (SPEC §5, §6, §10): the shell that wires react-hook-form to
 * the contract and renders one section a concern. Where each part lives:
 * - `values.ts`: the form's values, field names and labels; a stored schedule or a new one's defaults.
 * - `request-body.ts`: values → the request body (and, in edit mode, only the fields changed).
 * - `resolver.ts`: validation, the contract's one schema `ScheduleCreateInput` (STYLE §2.3).
 * - `errors.ts`, `use-refusal.ts`: an error's `path` → its field; a server refusal's place and focus.
 * - `field-kit.tsx`: ids, aria wiring, hint and error lines every section renders its fields with.
 * - `detail-fields.tsx`, `timing-fields.tsx` (+ `cadence-fields.tsx`), `target-fields.tsx`
 *   (+ `picker-options.ts`), `input-data-field.tsx`, `delivery-fields.tsx`, `settings-fields.tsx`:
 *   the sections.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useTransition } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { Schedule, TargetOptions } from '@/lib/schedules/contract';
import type { ActionResult } from '../action-result';
import { useLeaveGuard } from '../leave-guard';
import { useHydrated } from '../use-viewer-zone';
import type { StoredRate } from './cadence-fields';
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

export interface ScheduleFormProps {
  mode: 'create' | 'edit';
  revisionId: string;
  /** The stored schedule (edit mode). */
  schedule?: Schedule;
  /** What the pickers offer (`targetOptions`); free entry stays allowed. */
  options: TargetOptions;
  /** The bound server action: `createScheduleAction(revisionId, …)` or `updateScheduleAction(revisionId, id, …)`. */
  submit: (input: unknown) => Promise<ActionResult<{ id: string }>>;
  cancelHref: string;
}

export function ScheduleForm({ mode, revisionId, schedule, options, submit, cancelHref }: ScheduleFormProps) {
  const router = useRouter();
  const hydrated = useHydrated();
  const [navigating, startNavigation] = useTransition();
  const resolver = useMemo(() => makeResolver(), []);
  const storedRate = useMemo(() => storedRateOf(schedule), [schedule]);
  const form = useForm<ScheduleFormValues>({
    resolver,
    defaultValues: schedule ? valuesFromSchedule(schedule) : defaultValues(options),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  // Read while rendering, so react-hook-form keeps them current (edit sends only the dirty fields).
  const { errors, isSubmitting, isSubmitted, dirtyFields, isDirty } = form.formState;
  useViewerZoneDefault(form, mode);
  // Leaving with unsaved edits asks first: Cancel and every in-app link, reload and closing the tab.
  const leaveGuard = useLeaveGuard(
    isDirty,
    mode === 'create' ? 'This new schedule is not saved: leaving discards what you entered.' : 'Your changes to this schedule are not saved: leaving discards them.',
  );

  const w = useWatch({ control: form.control }) as ScheduleFormValues;
  const kit = useFieldKit(form, w.cron_expression ?? '');
  const target = w.invocation_target?.target ?? { org: '', blob: '', revision: '', session: '' };
  const workflow = w.invocation_target?.workflow ?? { org: '', blob: '', revision: '', definition: '' };
  const pending = isSubmitting || navigating;
  const refusal = useRefusal(form, pending, JSON.stringify([target, workflow]));

  async function onValid(values: ScheduleFormValues) {
    refusal.clearTargetProblem();
    const { body } = toRequestBody(values, mode);
    const input = mode === 'edit' ? changedBody(body, dirtyFields as Partial<Record<keyof ScheduleFormValues, unknown>>, values) : body;
    let r: ActionResult<{ id: string }>;
    try {
      r = await submit(input);
    } catch {
      form.setError('root.server', { type: 'network', message: NETWORK_ERROR_MESSAGE });
      return;
    }
    if (r.ok) {
      leaveGuard.release();
      const href = `/schedulers/${revisionId}/schedules/${r.id}`;
      startNavigation(() => router.push(href));
      return;
    }
    refusal.show(placeRefusal(r.error));
  }

  const rootMessage = errors.root?.server?.message ?? errors.root?.message;
  const fieldsAtFault = errors.root?.server?.type === 'field' || (Object.keys(errors).some((k) => k !== 'root') && isSubmitted);
  const footerNote = refusal.targetProblem ? 'Check the target.' : fieldsAtFault ? 'Check the highlighted fields.' : null;

  return (
    <form className="schedule-form" onSubmit={form.handleSubmit(onValid, refusal.clearTargetProblem)} noValidate aria-busy={pending} data-ready={hydrated ? 'true' : undefined}>
      {rootMessage ? (
        <div role="alert" className="alert alert-error" ref={refusal.alertRef} tabIndex={-1}>
          <strong>The schedule was not saved.</strong> {rootMessage}
        </div>
      ) : null}

      <fieldset className="form-body" disabled={!hydrated || pending}>
        <DetailFields kit={kit} description={w.description ?? ''} />
        <TimingFields kit={kit} values={w} storedRate={storedRate} />
        <TargetFields
          kit={kit}
          options={options}
          target={target}
          workflow={workflow}
          targetType={w.invocation_target_type ?? 'workflow'}
          values={w.invocation_target}
          problem={refusal.targetProblem}
          alertRef={refusal.targetAlertRef}
        >
          <InputDataField kit={kit} />
        </TargetFields>
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
        <button type="submit" className="btn btn-primary" disabled={!hydrated || pending}>
          {pending ? 'Saving…' : mode === 'create' ? 'Create schedule' : 'Save changes'}
        </button>
      </div>
      {leaveGuard.dialog}
    </form>
  );
}
