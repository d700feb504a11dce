'use client';
/**
 * "Ask first" for a form whose submit calls a server action (destructive or far-reaching actions):
 * the submit opens the project's confirmation dialog instead of submitting, and the dialog's confirm
 * button submits the form's data. Never the browser's `confirm()`.
 */
import { startTransition, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { ConfirmDialog } from './confirm-dialog';

export interface SubmitConfirm {
  /** The form's ref (the dialog submits its data). */
  formRef: RefObject<HTMLFormElement | null>;
  /** The form's `onSubmit`: holds the submit and asks. */
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  /** Render inside the form: the confirmation (null without `confirm`). */
  dialog: ReactNode;
}

export function useSubmitConfirm(opts: {
  /** The question and what follows; without it, the form submits at once. */
  confirm?: { title: string; body?: ReactNode };
  /** The form action `useActionState` gave. */
  formAction: (form: FormData) => void;
  /** Text of the dialog's confirming button (the form's submit label). */
  confirmLabel: string;
  danger?: boolean;
  pending: boolean;
}): SubmitConfirm {
  const formRef = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState(false);
  const { confirm } = opts;
  return {
    formRef,
    onSubmit: (e) => {
      if (!confirm) return;
      e.preventDefault();
      setAsking(true);
    },
    dialog: confirm ? (
      <ConfirmDialog
        open={asking}
        title={confirm.title}
        confirmLabel={opts.confirmLabel}
        danger={opts.danger}
        pending={opts.pending}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          const form = formRef.current;
          if (form) startTransition(() => opts.formAction(new FormData(form)));
        }}
      >
        {confirm.body ?? null}
      </ConfirmDialog>
    ) : null,
  };
}
