'use client';
/**
 * A form whose submit calls a server action and shows its answer in place: the refusal's message, a
 * confirmation, or a value shown ONCE (a new API key, a generated password), which is never stored in
 * clear and cannot be shown again.
 */
import { useActionState, type ReactNode } from 'react';
import type { ActionResult } from '@/components/action-result';
import { useSubmitConfirm } from '@/components/submit-confirm';

export type FormAnswer = ActionResult<{ message?: string; shownOnce?: { label: string; value: string } }>;

export function ActionForm({
  action,
  children,
  submitLabel,
  danger = false,
  confirm,
  label,
}: {
  action: (prev: FormAnswer | null, form: FormData) => Promise<FormAnswer>;
  children?: ReactNode;
  submitLabel: string;
  danger?: boolean;
  /** Ask before submitting (destructive actions): the confirmation's question and, optionally, what follows. */
  confirm?: { title: string; body?: ReactNode };
  /** Accessible name of the form. */
  label?: string;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  // The project's own dialog, never the browser's confirm(): it names the consequences and is styled and accessible.
  const ask = useSubmitConfirm({ confirm, formAction, confirmLabel: submitLabel, danger, pending });
  return (
    <form ref={ask.formRef} action={formAction} className="inline-form" aria-label={label} onSubmit={ask.onSubmit}>
      {children}
      <button type="submit" className={danger ? 'btn btn-small btn-danger-outline' : 'btn btn-primary'} disabled={pending}>
        {submitLabel}
      </button>
      {state && !state.ok ? (
        <p role="alert" className="field-error">
          {state.error.message}
        </p>
      ) : null}
      {state?.ok && state.message ? (
        <p role="status" className="small">
          {state.message}
        </p>
      ) : null}
      {state?.ok && state.shownOnce ? (
        <div role="status" className="alert alert-info" style={{ flexBasis: '100%' }}>
          <strong>{state.shownOnce.label}</strong> It is shown only now and cannot be shown again.
          <code className="secret" data-testid="shown-once">
            {state.shownOnce.value}
          </code>
        </div>
      ) : null}
      {ask.dialog}
    </form>
  );
}
