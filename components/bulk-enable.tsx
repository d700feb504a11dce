'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import type { ActionResult } from './action-result';
import { ConfirmDialog } from './confirm-dialog';
import { usePageNotice } from './use-page-notice';

export interface BulkEnableProps {
  /** Active schedules that are enabled / disabled: what "Pause all" / "Resume all" would change. */
  counts: { enabled: number; disabled: number };
  setAllEnabled: (enabled: boolean) => Promise<ActionResult<{ updated: number }>>;
  canWrite: boolean;
}

const plural = (n: number) => `${n} schedule${n === 1 ? '' : 's'}`;

/** "Pause all" / "Resume all" (`set_all_enabled`), each behind a confirmation that says how many. */
export function BulkEnable({ counts, setAllEnabled, canWrite }: BulkEnableProps) {
  const router = useRouter();
  const [asking, setAsking] = useState<null | boolean>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = usePageNotice<{ tone: 'ok' | 'error'; text: string }>();
  const [, startTransition] = useTransition();
  // The button that opened the dialog is often disabled afterwards (nothing left to pause): focus moves
  // to the outcome instead of falling to the page.
  const messageRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (message) messageRef.current?.focus();
  }, [message]);

  async function confirm() {
    if (asking === null) return;
    const enabled = asking;
    setBusy(true);
    try {
      const r = await setAllEnabled(enabled);
      if (r.ok) {
        setMessage({ tone: 'ok', text: `${enabled ? 'Resumed' : 'Paused'} ${plural(r.updated)}.` });
        startTransition(() => router.refresh());
      } else setMessage({ tone: 'error', text: r.error.message });
    } catch {
      setMessage({ tone: 'error', text: 'The server could not be reached; try again.' });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  }

  return (
    <div className="bulk-enable">
      <button type="button" className="btn" disabled={!canWrite || counts.enabled === 0} onClick={() => setAsking(false)}>
        Pause all
      </button>
      <button type="button" className="btn" disabled={!canWrite || counts.disabled === 0} onClick={() => setAsking(true)}>
        Resume all
      </button>
      {message ? (
        <span role="status" tabIndex={-1} ref={messageRef} className={`notice notice-${message.tone} notice-compact`}>
          {message.text}
        </span>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? `Resume ${plural(counts.disabled)}?` : `Pause ${plural(counts.enabled)}?`}
        confirmLabel={asking ? 'Resume all' : 'Pause all'}
        pending={busy}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      >
        {asking ? (
          <p>
            {plural(counts.disabled)} of this scheduler {counts.disabled === 1 ? 'is' : 'are'} disabled and will be enabled. Each fires from its next occurrence after now;
            occurrences missed while paused are not fired.
          </p>
        ) : (
          <p>
            {plural(counts.enabled)} of this scheduler {counts.enabled === 1 ? 'is' : 'are'} enabled and will be disabled. They stop firing until resumed. Completed
            schedules are not affected.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
