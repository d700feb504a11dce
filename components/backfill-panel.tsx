'use client';
/**
 * SPEC §18.1 on the schedule page: **Backfill…** (a range picked in the schedule's timezone, the dry
 * run's count and first instants before confirming) and the schedule's backfills with their progress
 * (the page refreshes itself while one runs) and Cancel.
 */
import Link from 'next/link';
import { useEffect, useId, useRef, useState, useTransition } from 'react';
import { toLocalTime } from '@/lib/cron';
import type { Backfill, BackfillDryRun, BACKFILL_ORDERS, BACKFILL_REPROCESS } from '@/lib/schedules/contract';
import type { ActionResult } from './action-result';
import { withAnswered, type Answered } from './backfills-shown';
import { formatInZone, shortId } from './format';

/**
 * A backfill's range as the Backfill… dialog sends it to its action: local wall times
 * (`YYYY-MM-DDTHH:mm`) in the schedule's zone, and the choices of `backfill_schedule` (SPEC §18.1).
 */
export interface BackfillRange {
  from: string;
  to: string;
  timezone: string;
  reprocess?: (typeof BACKFILL_REPROCESS)[number];
  maxConcurrency?: number;
  order?: (typeof BACKFILL_ORDERS)[number];
}

export interface BackfillPanelProps {
  scheduleId: string;
  timezone: string;
  backfills: Backfill[];
  canWrite: boolean;
  /** Whether the schedule can fire at all (a completed one cannot be backfilled), and this view offers Backfill…. */
  canBackfill: boolean;
  /** The schedule's backfills page: each backfill links to `<it>/<id>`, its own view. */
  backfillsHref: string;
  /** Shown under the list as "Show all backfills" when the list is not all of them (the schedule page's latest few). */
  moreHref?: string;
  /** The section's heading. Default "Backfills". */
  title?: string;
  /** The most rows the page lists (its page size), when it lists the latest few. */
  limit?: number;
  actions: {
    backfill: (scheduleId: string, req: BackfillRange, dryRun: boolean) => Promise<ActionResult<{ dryRun?: BackfillDryRun; backfill?: Backfill }>>;
    cancel: (scheduleId: string, backfillId: string) => Promise<ActionResult<{ backfill: Backfill }>>;
  };
}

/** A wall time for a datetime-local input (`YYYY-MM-DDTHH:mm`) in `zone`. */
function localInput(at: Date, zone: string): string {
  try {
    return toLocalTime(at, zone).slice(0, 16);
  } catch {
    return at.toISOString().slice(0, 16);
  }
}

const STATE_WORDS: Record<Backfill['state'], string> = { running: 'running', completed: 'completed', cancelled: 'cancelled' };

export function BackfillPanel({ scheduleId, timezone, backfills, canWrite, canBackfill, backfillsHref, moreHref, title = 'Backfills', limit, actions }: BackfillPanelProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<BackfillRange>(() => {
    const now = new Date();
    return { from: localInput(new Date(now.getTime() - 86_400_000), timezone), to: localInput(now, timezone), timezone, reprocess: 'missing', maxConcurrency: 1, order: 'oldest_first' };
  });
  const [preview, setPreview] = useState<BackfillDryRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const [answered, setAnswered] = useState<Answered>({ started: {}, cancelled: {} });
  const answer = (kind: keyof Answered, b: Backfill | undefined) => {
    if (b) setAnswered((a) => ({ ...a, [kind]: { ...a[kind], [b.id]: b } }));
  };
  const shown = withAnswered(backfills, answered, limit);
  // Preview is disabled while the dry run runs (focus falls to the page): once it is answered and
  // the buttons are enabled again, Start takes it — or the preview itself when there is nothing to start.
  const startRef = useRef<HTMLButtonElement>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!preview || pending) return;
    (preview.total > 0 ? startRef.current : previewRef.current)?.focus();
  }, [preview, pending]);

  const change = (patch: Partial<BackfillRange>) => {
    setRange((r) => ({ ...r, ...patch }));
    setPreview(null);
  };
  const run = (dryRun: boolean) =>
    startTransition(async () => {
      setError(null);
      const r = await actions.backfill(scheduleId, range, dryRun);
      if (!r.ok) {
        setError(r.error.message);
        return;
      }
      if (dryRun) {
        setPreview(r.dryRun ?? null);
        return;
      }
      setOpen(false);
      setPreview(null);
      setNotice(`Backfill ${shortId(r.backfill?.id ?? '')} started: ${r.backfill?.total ?? 0} occurrence${r.backfill?.total === 1 ? '' : 's'}.`);
      // No router.refresh(): the action revalidated this page, and its answer carries the page.
      answer('started', r.backfill);
    });
  const cancel = (backfillId: string) =>
    startTransition(async () => {
      const r = await actions.cancel(scheduleId, backfillId);
      setNotice(r.ok ? `Backfill ${shortId(backfillId)} cancelled.` : r.error.message);
      if (r.ok) answer('cancelled', r.backfill);
    });

  return (
    <section className="container" aria-labelledby={`${id}-title`} data-testid="backfills">
      <div className="container-header backfill-header">
        <h2 id={`${id}-title`} className="container-title">
          {title}
        </h2>
        {canWrite && canBackfill ? (
          <button type="button" className="btn" aria-expanded={open} aria-controls={`${id}-form`} onClick={() => setOpen((o) => !o)}>
            Backfill…
          </button>
        ) : null}
      </div>
      {notice ? (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      ) : null}
      {open ? (
        <form
          id={`${id}-form`}
          className="backfill-form"
          onSubmit={(e) => {
            e.preventDefault();
            run(preview === null);
          }}
        >
          <p className="muted small">
            Fires this schedule’s past occurrences after <em>From</em> and up to <em>To</em> (times in {timezone}), with trigger “backfill” and each occurrence’s own scheduled time.
          </p>
          <div className="form-row">
            <label>
              From (after) <input type="datetime-local" name="from" required value={range.from} onChange={(e) => change({ from: e.target.value })} />
            </label>
            <label>
              To (up to) <input type="datetime-local" name="to" required value={range.to} onChange={(e) => change({ to: e.target.value })} />
            </label>
            <span className="muted small">{timezone}</span>
          </div>
          <div className="form-row">
            <label>
              Reprocess{' '}
              <select name="reprocess" value={range.reprocess} onChange={(e) => change({ reprocess: e.target.value as BackfillRange['reprocess'] })}>
                <option value="missing">Missing: occurrences with no run</option>
                <option value="failed">Failed: missing ones and those that failed</option>
                <option value="all">All occurrences</option>
              </select>
            </label>
            <label>
              At most in flight <input type="number" name="max_concurrency" min={1} max={100} value={range.maxConcurrency} onChange={(e) => change({ maxConcurrency: Number(e.target.value) })} />
            </label>
            <label>
              Order{' '}
              <select name="order" value={range.order} onChange={(e) => change({ order: e.target.value as BackfillRange['order'] })}>
                <option value="oldest_first">Oldest first</option>
                <option value="newest_first">Newest first</option>
              </select>
            </label>
          </div>
          {error ? (
            <p className="alert alert-error" role="alert">
              {error}
            </p>
          ) : null}
          {preview ? (
            <div ref={previewRef} tabIndex={-1} className="backfill-preview" data-testid="backfill-preview" role="status">
              <p>
                <strong data-testid="backfill-count">{preview.total.toLocaleString('en-US')}</strong> occurrence{preview.total === 1 ? '' : 's'} will fire
                {preview.total > preview.first.length ? `; the first ${preview.first.length}:` : preview.total ? ':' : '.'}
              </p>
              {preview.first.length ? (
                <ol className="small mono">
                  {preview.first.map((at) => (
                    <li key={at}>{formatInZone(at, timezone)}</li>
                  ))}
                </ol>
              ) : null}
            </div>
          ) : null}
          <div className="form-actions">
            {preview === null ? (
              <button type="submit" className="btn" disabled={pending}>
                Preview
              </button>
            ) : (
              <button ref={startRef} type="submit" className="btn btn-primary" disabled={pending || preview.total === 0}>
                Start backfill of {preview.total.toLocaleString('en-US')}
              </button>
            )}
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
        </form>
      ) : null}
      {shown.length === 0 ? (
        <p className="muted small empty-inline">No backfills yet.</p>
      ) : (
        <ul className="backfill-list">
          {shown.map((b) => {
            const ended = b.succeeded + b.failed;
            return (
              <li key={b.id} id={`backfill-${b.id}`} data-testid="backfill" data-state={b.state}>
                <div>
                  <Link className="mono small" href={`${backfillsHref}/${b.id}`} title={b.id} data-testid="backfill-link">
                    {shortId(b.id)}
                  </Link>{' '}
                  <span className={`badge ${b.state === 'running' ? 'badge-info' : b.state === 'completed' ? 'badge-ok' : 'badge-muted'}`}>{STATE_WORDS[b.state]}</span>{' '}
                  <span className="small">
                    {formatInZone(b.from, timezone)} → {formatInZone(b.to, timezone)} · {b.reprocess} · at most {b.max_concurrency} in flight
                  </span>
                </div>
                <progress max={Math.max(1, b.total)} value={b.total ? ended : 1} aria-label={`Backfill ${shortId(b.id)} progress`} />
                <div className="small" data-testid="backfill-progress">
                  {ended} of {b.total} done · {b.fired} fired · {b.succeeded} succeeded · {b.failed} failed · {b.in_flight} in flight
                </div>
                {b.state === 'running' && canWrite ? (
                  <button type="button" className="btn btn-small" disabled={pending} onClick={() => cancel(b.id)}>
                    Cancel backfill
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {moreHref ? (
        <p className="small">
          <Link href={moreHref} data-testid="backfills-show-all">
            Show all backfills
          </Link>
        </p>
      ) : null}
    </section>
  );
}
