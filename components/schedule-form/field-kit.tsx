'use client';
/**
 * What every section of the schedule form uses to render a field the same way: ids derived from the
 * field name, `register`, the aria wiring (an input is described by its hint and its error), the hint
 * and the error line. A new section takes a `FieldKit` and renders its fields with it.
 */
import { useId, type ReactNode } from 'react';
import type { Control, UseFormGetValues, UseFormRegister, UseFormReturn, UseFormSetValue } from 'react-hook-form';
import { cronProblem } from '../cron-preview';
import { getPath } from './errors';
import { LABELS, NUMBER_BOUNDS, type FieldName, type NumberField as NumberFieldName, type ScheduleFormValues } from './values';

export interface FieldKit {
  /** The form's unique id prefix: section headings and datalists are `${uid}-…`. */
  uid: string;
  /** The DOM id of a field's input (`${uid}-invocation_target-target-org`); hint and error ids add `-hint` / `-error`. */
  id: (name: string) => string;
  register: UseFormRegister<ScheduleFormValues>;
  /** For field arrays (the webhook's header rows). */
  control: Control<ScheduleFormValues>;
  getValues: UseFormGetValues<ScheduleFormValues>;
  /** To change a field from outside its input (a context attribute inserted into a payload). */
  setValue: UseFormSetValue<ScheduleFormValues>;
  /** aria props for an input: described by its hint (when `hint`) and its error. */
  a11y: (name: FieldName, hint?: boolean) => { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };
  /** The field's error line, or null. */
  fieldError: (name: FieldName) => ReactNode;
  /** The field's hint line. */
  hint: (name: FieldName, text: ReactNode) => ReactNode;
}

/** The kit for `form`; `cronExpression` is the watched expression (the live preview marks it invalid). */
export function useFieldKit(form: UseFormReturn<ScheduleFormValues>, cronExpression: string): FieldKit {
  const uid = useId();
  const { errors } = form.formState;
  const id = (name: string) => `${uid}-${name.replace(/\./g, '-')}`;
  const a11y = (name: FieldName, hint?: boolean) => {
    // The live cron preview shows a syntax problem as it is typed: the input is invalid from then on.
    const err = (name === 'cron_expression' && cronProblem(cronExpression) ? { message: 'live' } : getPath(errors, name)) as { message?: string } | undefined;
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
  return { uid, id, register: form.register, control: form.control, getValues: form.getValues, setValue: form.setValue, a11y, fieldError, hint };
}

/** A field's label (`LABELS`), marked "optional" when it is. */
export function FieldLabel({ kit, name, optional }: { kit: FieldKit; name: FieldName; optional?: boolean }) {
  return (
    <label htmlFor={kit.id(name)}>
      {LABELS[name]}
      {optional ? (
        <>
          {' '}
          <span className="optional">optional</span>
        </>
      ) : null}
    </label>
  );
}

/** A labelled whole-number input whose min and max are the contract's bounds. */
export function NumberField({ kit, name, hint, optional, placeholder }: { kit: FieldKit; name: NumberFieldName; hint: ReactNode; optional?: boolean; placeholder?: string }) {
  const [min, max] = NUMBER_BOUNDS[name];
  return (
    <div className="field">
      <FieldLabel kit={kit} name={name} optional={optional} />
      <input type="number" inputMode="numeric" min={min} max={max} step={1} placeholder={placeholder} {...kit.register(name)} {...kit.a11y(name, true)} />
      {kit.hint(name, hint)}
      {kit.fieldError(name)}
    </div>
  );
}

/** A choice of radio cards under the field's label as the legend. */
export function RadioCards({ kit, name, options }: { kit: FieldKit; name: FieldName; options: { value: string; title: string; detail: string }[] }) {
  return (
    <fieldset className="radio-group">
      <legend>{LABELS[name]}</legend>
      {options.map((o) => (
        <label key={o.value} className="radio-card">
          <input type="radio" value={o.value} {...kit.register(name)} />
          <span>
            <strong>{o.title}</strong>
            <span className="muted small">{o.detail}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** A labelled text input at `name`, with an optional hint and its error line. */
export function TextField({ kit, name, hint, optional, placeholder, wide }: { kit: FieldKit; name: FieldName; hint?: ReactNode; optional?: boolean; placeholder?: string; wide?: boolean }) {
  return (
    <div className={`field${wide ? ' field-wide' : ''}`}>
      <FieldLabel kit={kit} name={name} optional={optional} />
      <input {...kit.register(name)} {...kit.a11y(name, hint !== undefined)} className="mono" autoComplete="off" spellCheck={false} placeholder={placeholder} />
      {hint !== undefined ? kit.hint(name, hint) : null}
      {kit.fieldError(name)}
    </div>
  );
}

/** A labelled JSON or text area at `name` (optional unless told; `rows` lines tall, 5 unless told). */
export function TextAreaField({ kit, name, hint, placeholder, optional = true, rows = 5 }: { kit: FieldKit; name: FieldName; hint: ReactNode; placeholder?: string; optional?: boolean; rows?: number }) {
  return (
    <div className="field field-wide">
      <FieldLabel kit={kit} name={name} optional={optional} />
      <textarea {...kit.register(name)} {...kit.a11y(name, true)} rows={rows} className="mono" spellCheck={false} placeholder={placeholder} />
      {kit.hint(name, hint)}
      {kit.fieldError(name)}
    </div>
  );
}

/** A labelled select at `name`: a blank first choice (`blank`, the default), then `choices`. */
export function SelectField({ kit, name, blank, choices, hint }: { kit: FieldKit; name: FieldName; blank: string; choices: readonly string[]; hint: ReactNode }) {
  return (
    <div className="field">
      <FieldLabel kit={kit} name={name} optional />
      <select {...kit.register(name)} {...kit.a11y(name, true)}>
        <option value="">{blank}</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      {kit.hint(name, hint)}
      {kit.fieldError(name)}
    </div>
  );
}
