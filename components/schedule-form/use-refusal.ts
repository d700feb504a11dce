'use client';
/**
 * A refused save on the schedule form, shown where `placeRefusal` (errors.ts) puts it, and the focus
 * that follows: the field at fault, the target alert, or the form's alert. Focus moves once the form
 * is enabled again (a disabled input cannot take focus).
 */
import { useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { Refusal } from './errors';
import type { FieldName, ScheduleFormValues } from './values';

export function useRefusal(form: UseFormReturn<ScheduleFormValues>, pending: boolean, targetKey: string) {
  const [focusTarget, setFocusTarget] = useState<FieldName | 'alert' | 'target-alert' | null>(null);
  const [targetProblem, setTargetProblem] = useState<string | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const targetAlertRef = useRef<HTMLDivElement>(null);

  // A target refusal speaks of the target as it was sent: editing the target (or a new attempt the
  // browser refuses first) takes it away, so it never stands beside a newer, unrelated error.
  useEffect(() => setTargetProblem(null), [targetKey]);
  useEffect(() => {
    if (pending || !focusTarget) return;
    if (focusTarget === 'alert') alertRef.current?.focus();
    else if (focusTarget === 'target-alert') targetAlertRef.current?.focus();
    else form.setFocus(focusTarget);
    setFocusTarget(null);
  }, [pending, focusTarget, form]);

  function show(refusal: Refusal): void {
    switch (refusal.kind) {
      case 'field':
        form.setError(refusal.field, { type: refusal.code, message: refusal.message });
        form.setError('root.server', { type: 'field', message: refusal.summary });
        setFocusTarget(refusal.field);
        return;
      case 'target':
        setTargetProblem(refusal.message);
        setFocusTarget('target-alert');
        return;
      case 'form':
        form.setError('root.server', { type: refusal.code, message: refusal.message });
        setFocusTarget('alert');
        return;
      default:
        refusal satisfies never;
    }
  }

  return { targetProblem, clearTargetProblem: () => setTargetProblem(null), show, alertRef, targetAlertRef };
}
