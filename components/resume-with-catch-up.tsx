'use client';
/**
 * SPEC §18.2 **Resume with catch-up** on a disabled schedule: enable it (it continues from now) and
 * backfill (`missing`) what it missed while paused — all or nothing (decision 350). The first click
 * asks the server what would be redone (a dry run: the count and the first instants); Confirm then
 * resumes. A catch-up too large to backfill is refused before anything changes, with what to do.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import type { Backfill, ResumeDryRun } from '@/lib/schedules/contract';
import type { ActionResult } from './action-result';
import { formatInZone } from './format';

export interface ResumeWithCatchUpProps {
  scheduleId: string;
  /** The version the page shows (SPEC §15): a schedule changed since is not resumed. */
  version: number;
  pausedAt: string | null;
  timezone: string;
  resume: (scheduleId: string, expectedVersion: number, dryRun: boolean) => Promise<ActionResult<{ dryRun?: ResumeDryRun; backfill?: Backfill | null }>>;
}

export function ResumeWithCatchUp({ scheduleId, version, pausedAt, timezone, resume }: ResumeWithCatchUpProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [preview, setPreview] = useState<ResumeDryRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // The first button is disabled while the dry run runs (focus falls to the page): once it is
  // answered and the buttons are enabled again, Confirm takes it.
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (preview && !pending) confirmRef.current?.focus();
  }, [preview, pending]);
  const ask = (dryRun: boolean) =>
    startTransition(async () => {
      setError(null);
      const r = await resume(scheduleId, version, dryRun);
      if (!r.ok) {
        setPreview(null);
        setError(r.error.message);
        return;
      }
      if (dryRun) {
        setPreview(r.dryRun ?? null);
        return;
      }
      setPreview(null);
      setMessage(r.backfill ? `Enabled; backfilling ${r.backfill.total} missed occurrence${r.backfill.total === 1 ? '' : 's'}.` : 'Enabled.');
      router.refresh();
    });
  return (
    <div className="resume-catch-up">
      <button type="button" className="btn" disabled={pending} onClick={() => ask(true)}>
        Resume with catch-up…
      </button>
      <span className="muted small"> Enables the schedule and backfills what it missed while paused{pausedAt ? ` (since ${formatInZone(pausedAt, timezone)})` : ''}.</span>
      {preview ? (
        <div className="resume-preview" role="group" aria-label="Resume with catch-up">
          <p className="small" role="status">
            {preview.total === 0
              ? 'Nothing was missed while paused: this enables the schedule only.'
              : `This enables the schedule and backfills ${preview.total} missed occurrence${preview.total === 1 ? '' : 's'}${preview.first.length ? `, from ${formatInZone(preview.first[0], timezone)}` : ''}.`}
          </p>
          <button ref={confirmRef} type="button" className="btn btn-primary" disabled={pending} onClick={() => ask(false)}>
            Confirm resume
          </button>{' '}
          <button type="button" className="btn" disabled={pending} onClick={() => setPreview(null)}>
            Cancel
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="alert alert-error small" role="alert">
          {error}
        </p>
      ) : null}
      {message ? (
        <p className="small" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}
