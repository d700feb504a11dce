'use client';
/**
 * SPEC §18.2 **Resume with catch-up** on a disabled schedule: enable it (it continues from now and
 * fires nothing it missed) and start a backfill (`missing`) over the interval it was paused.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { Backfill } from '@/lib/schedules/contract';
import type { ActionResult } from './action-result';
import { formatInZone } from './format';

export function ResumeWithCatchUp({ scheduleId, pausedAt, timezone, resume }: { scheduleId: string; pausedAt: string | null; timezone: string; resume: (scheduleId: string) => Promise<ActionResult<{ backfill: Backfill | null }>> }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="resume-catch-up">
      <button
        type="button"
        className="btn"
        disabled={pending}
        title={pausedAt ? `Enable, and backfill the occurrences missed since ${formatInZone(pausedAt, timezone)}` : 'Enable the schedule'}
        onClick={() =>
          startTransition(async () => {
            const r = await resume(scheduleId);
            setMessage(r.ok ? (r.backfill ? `Enabled; backfilling ${r.backfill.total} missed occurrence${r.backfill.total === 1 ? '' : 's'}.` : 'Enabled.') : r.error.message);
            router.refresh();
          })
        }
      >
        Resume with catch-up
      </button>
      <span className="muted small"> Enables the schedule and backfills what it missed while paused{pausedAt ? ` (since ${formatInZone(pausedAt, timezone)})` : ''}.</span>
      {message ? (
        <p className="small" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}
