'use client';
/**
 * A catalog form whose submit calls a server action and shows its answer in place: a refusal as its
 * SPEC error code and message, a confirmation as a status line. With `confirm`, the submit first opens
 * a modal confirmation (destructive actions such as Delete).
 */
import { useActionState, type ReactNode } from 'react';
import { useSubmitConfirm } from '@/components/submit-confirm';
import type { CatalogAnswer } from './catalog-answer';

export interface CatalogFormProps {
  action: (prev: CatalogAnswer | null, form: FormData) => Promise<CatalogAnswer>;
  /** Text of the submit button; also its accessible name. */
  submitLabel: string;
  children?: ReactNode;
  /** Accessible name of the form. */
  label?: string;
  variant?: 'primary' | 'default' | 'danger';
  /** Ask before submitting: the dialog's text. */
  confirm?: { title: string; body: ReactNode };
  /** Clear the form's fields after a successful submit. */
  resetOnSuccess?: boolean;
}

export function CatalogForm({ action, submitLabel, children, label, variant = 'default', confirm, resetOnSuccess }: CatalogFormProps) {
  const [state, formAction, pending] = useActionState(async (prev: CatalogAnswer | null, form: FormData) => {
    const answer = await action(prev, form);
    if (answer.ok && resetOnSuccess) ask.formRef.current?.reset();
    return answer;
  }, null);
  const ask = useSubmitConfirm({ confirm, formAction, confirmLabel: submitLabel, danger: variant === 'danger', pending });
  const btn = variant === 'primary' ? 'btn btn-primary' : variant === 'danger' ? 'btn btn-small btn-danger-outline' : 'btn btn-small';
  return (
    <form ref={ask.formRef} action={formAction} className="catalog-form" aria-label={label} onSubmit={ask.onSubmit}>
      {children}
      <button type="submit" className={btn} disabled={pending}>
        {submitLabel}
      </button>
      {state && !state.ok ? (
        <p role="alert" className="field-error catalog-form-answer">
          <code className="error-name">{state.error.code}</code> {state.error.message}
        </p>
      ) : null}
      {state?.ok && state.message ? (
        <p role="status" className="small catalog-form-answer">
          {state.message}
        </p>
      ) : null}
      {ask.dialog}
    </form>
  );
}
