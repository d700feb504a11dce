'use client';
/**
 * A form whose submit calls a server action and shows its answer in place: the refusal's message, a
 * confirmation, or a value shown ONCE (a new API key, a generated password), which is never stored in
 * clear and cannot be shown again.
 */
import { useActionState, type ReactNode } from 'react';
import type { ActionResult } from '@/components/action-result';

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
  /** Ask before submitting (destructive actions). */
  confirm?: string;
  /** Accessible name of the form. */
  label?: string;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form
      action={formAction}
      className="inline-form"
      aria-label={label}
      onSubmit={(e) => {
        if (confirm && !window.confirm(confirm)) e.preventDefault();
      }}
    >
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
    </form>
  );
}
