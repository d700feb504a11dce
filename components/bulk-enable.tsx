'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import type { ActionResult } from './action-result';
import { ConfirmDialog } from './confirm-dialog';

export interface BulkEnableProps {
  /**
   * Active schedules that are enabled (what "Pause all" would change), disabled, and disabled by a
   * Pause all (what "Resume all" would change: one disabled on its own stays disabled, SPEC §12.5).
   */
  counts: { enabled: number; disabled: number; bulkPaused: number };
  setAllEnabled: (enabled: boolean) => Promise<ActionResult<{ updated: number }>>;
  canWrite: boolean;
}

const plural = (n: number) => `${n} schedule${n === 1 ? '' : 's'}`;

/** "Pause all" / "Resume all" (`set_all_enabled`), each behind a confirmation that says how many. */
export function BulkEnable({ counts, setAllEnabled, canWrite }: BulkEnableProps) {
  const router = useRouter();
  const [asking, setAsking] = useState<null | boolean>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [, startTransition] = useTransition();
  // Disabled schedules a Resume all leaves alone (SPEC §12.5): disabled one by one, or paused after failures.
  const others = counts.disabled - counts.bulkPaused;
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
      <button type="button" className="btn" disabled={!canWrite || counts.bulkPaused === 0} onClick={() => setAsking(true)}>
        Resume all
      </button>
      {message ? (
        <span role="status" tabIndex={-1} ref={messageRef} className={`notice notice-${message.tone} notice-compact`}>
          {message.text}
        </span>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? `Resume ${plural(counts.bulkPaused)}?` : `Pause ${plural(counts.enabled)}?`}
        confirmLabel={asking ? 'Resume all' : 'Pause all'}
        pending={busy}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      >
        {asking ? (
          <p>
            {plural(counts.bulkPaused)} of this scheduler {counts.bulkPaused === 1 ? 'was' : 'were'} disabled by Pause all and will be enabled. Each fires from its next
            occurrence after now; occurrences missed while paused are not fired.
            {others > 0 ? ` ${plural(others)} disabled otherwise (one by one, or by the scheduler after failed occurrences) ${others === 1 ? 'stays' : 'stay'} disabled.` : ''}
          </p>
        ) : (
          <p>
            {plural(counts.enabled)} of this scheduler {counts.enabled === 1 ? 'is' : 'are'} enabled and will be disabled. They stop firing, and their pending
            retries are cancelled, until resumed. Completed schedules are not affected.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
