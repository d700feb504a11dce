'use client';
/**
 * Live previews for the schedule form: what a cron expression or a rate means (cronstrue, SPEC §7.1,
 * §12.1) and when it fires next, or when a one-time schedule fires; each instant in the schedule's
 * time zone and in the viewer's. The clock is read here (the browser's), never in lib/cron.
 */
import { useEffect, useId, useState } from 'react';
import { CronExpressionError, describeCron, describeRate, isValidTimezone, nextOccurrences, nextRateOccurrences, parseRateExpression, resolveLocalTime, type RateExpression } from '@/lib/cron';
import { formatDuration, formatInZone, formatUtc } from './format';
import { useViewerZone } from './use-viewer-zone';

/** The browser's clock, ticking every `everyMs` after hydration; null on the server. */
export function useNow(everyMs = 15_000): Date | null {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const t = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The syntax problem of a cron expression as the preview shows it, or null (blank counts as none). */
export function cronProblem(expression: string): string | null {
  const expr = expression.trim();
  if (!expr) return null;
  try {
    describeCron(expr);
    return null;
  } catch (e) {
    return e instanceof CronExpressionError ? e.message : messageOf(e);
  }
}

export interface CronPreviewProps {
  expression: string;
  timezone: string;
  /** The schedule's inclusive window (ISO UTC), when set. */
  startDate?: string | null;
  endDate?: string | null;
  count?: number;
  /** Id of the element that shows a syntax problem (the input's aria-describedby points at it). */
  errorId?: string;
}

/**
 * The next `count` fire times of a valid cron `expression` in `timezone` after `now`, inside the
 * window (ISO UTC bounds, inclusive). Throws what lib/cron throws (a bad expression or zone).
 */
export function cronFires(expression: string, timezone: string, w: { startDate?: string | null; endDate?: string | null; now: Date; count: number }): Date[] {
  const start = w.startDate ? new Date(w.startDate) : null;
  const end = w.endDate ? new Date(w.endDate) : null;
  const after = start && start.getTime() - 1 > w.now.getTime() ? new Date(start.getTime() - 1) : w.now;
  return nextOccurrences(expression, timezone, after, w.count).filter((d) => !end || d <= end);
}

/** The description of `expression` and its next `count` fire times inside the window. */
export function CronPreview({ expression, timezone, startDate, endDate, count = 5, errorId }: CronPreviewProps) {
  const now = useNow();
  const expr = expression.trim();
  if (!expr) return <div className="preview muted">Enter a cron expression to see what it means and when it fires.</div>;

  let description = '';
  let error: string | null = null;
  try {
    description = describeCron(expr);
  } catch (e) {
    error = e instanceof CronExpressionError ? e.message : messageOf(e);
  }
  const zoneOk = isValidTimezone(timezone.trim());
  let fires: Date[] = [];
  let fireError: string | null = null;
  if (!error && zoneOk && now) {
    try {
      fires = cronFires(expr, timezone.trim(), { startDate, endDate, now, count });
    } catch (e) {
      fireError = messageOf(e);
    }
  }

  return (
    <div className="preview">
      <p className={error ? 'preview-error' : 'preview-description'} aria-live="polite" id={error ? errorId : undefined}>
        {error ? (
          <>
            <span className="visually-hidden">Cron expression problem: </span>
            {error}
          </>
        ) : (
          description
        )}
      </p>
      {error ? null : !zoneOk ? (
        <p className="muted small">Enter a valid time zone to see the next fire times.</p>
      ) : fireError ? (
        <p className="preview-error">{fireError}</p>
      ) : !now ? null : fires.length === 0 ? (
        <p className="muted small">No fire time is left{endDate ? ' before the end date' : ''}: this schedule would never fire.</p>
      ) : (
        <FireTimes fires={fires} timezone={timezone.trim()} />
      )}
    </div>
  );
}

/** When a one-time schedule fires: its local time resolved in `timezone` (SPEC §7.2). */
export function InvocationPreview({ invocationTime, timezone }: { invocationTime: string; timezone: string }) {
  const now = useNow(1000);
  const viewer = useViewerZone();
  if (!invocationTime) return <div className="preview muted">Pick the local date and time at which the schedule fires once.</div>;
  const zone = timezone.trim();
  if (!isValidTimezone(zone)) return <div className="preview muted">Enter a valid time zone to see when this fires.</div>;
  let at: Date;
  try {
    at = resolveLocalTime(invocationTime, zone);
  } catch (e) {
    return <PreviewError error={e} />;
  }
  const inMs = now ? at.getTime() - now.getTime() : null;
  return (
    <div className="preview">
      <p className="preview-description">
        Fires once at <span className="mono">{formatInZone(at, zone)}</span> ({zone})
      </p>
      <p className="small">
        Your time{viewer ? ` (${viewer})` : ''}: <span className="mono">{viewer ? formatInZone(at, viewer) : '…'}</span>
        {inMs === null ? null : inMs > 0 ? <span className="muted"> · in {formatDuration(inMs)}</span> : <strong className="text-error"> · this time is in the past</strong>}
      </p>
    </div>
  );
}

/** The next fire times of a preview, in the schedule's zone and the viewer's. */
function FireTimes({ fires, timezone }: { fires: Date[]; timezone: string }) {
  const viewer = useViewerZone();
  const captionId = useId();
  return (
    // On a narrow screen the table scrolls sideways in this box; it holds nothing focusable, so the
    // box itself takes focus for keyboard scrolling (WCAG 2.1.1, axe scrollable-region-focusable).
    <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="table table-compact preview-table" aria-labelledby={captionId}>
        <caption id={captionId}>Next {fires.length} fire times</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">In {timezone}</th>
            <th scope="col">Your time{viewer ? ` (${viewer})` : ''}</th>
          </tr>
        </thead>
        <tbody>
          {fires.map((d, i) => (
            <tr key={d.getTime()}>
              <td>{i + 1}</td>
              <td className="mono">{formatInZone(d, timezone)}</td>
              <td className="mono">{viewer ? formatInZone(d, viewer) : '…'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Where a rate preview counts from (SPEC §12.1 anchor), as the form knows it. */
export type RateAnchor =
  /** `start_date` is set: the anchor. */
  | { kind: 'start'; at: string }
  /** A new rate (or a changed one): a save now anchors at the next whole minute. */
  | { kind: 'save' }
  /** An edit that keeps the stored anchor, with an occurrence on its marks (the stored next fire). */
  | { kind: 'kept'; mark: string }
  /** An edit that keeps the stored anchor, which the form cannot see (disabled, or offset by a flexible window). */
  | { kind: 'hidden'; nextFire: string | null };

export interface RatePreviewProps {
  rate: string;
  timezone: string;
  anchor: RateAnchor;
  /** The schedule's end date (ISO UTC), when set: no fire after it. */
  endDate?: string | null;
  count?: number;
}

/** The anchor instant of a rate preview (SPEC §12.1), or null when the form cannot see it (`hidden`). */
export function rateAnchorAt(anchor: RateAnchor, now: Date): Date | null {
  if (anchor.kind === 'hidden') return null;
  return anchor.kind === 'start' ? new Date(anchor.at) : anchor.kind === 'kept' ? new Date(anchor.mark) : new Date(Math.ceil(now.getTime() / 60_000) * 60_000);
}

/** The next `count` fire times of `rate` from `anchor` after `now`, none after `endDate` (ISO UTC). */
export function rateFires(rate: RateExpression, anchor: Date, w: { endDate?: string | null; now: Date; count: number }): Date[] {
  const end = w.endDate ? Date.parse(w.endDate) : null;
  return nextRateOccurrences(rate, anchor, w.now, w.count).filter((d) => end === null || d.getTime() <= end);
}

/**
 * What a rate means ("Every 5 minutes") and its next `count` fire times (SPEC §12.1): fixed durations
 * from the anchor — the start date, else the next whole minute after now (where a save now anchors
 * it), else (an edit keeping the rate and start date) the stored anchor — in the schedule's zone and
 * the viewer's.
 */
export function RatePreview({ rate, timezone, anchor, endDate, count = 5 }: RatePreviewProps) {
  const now = useNow();
  if (!rate.trim()) return <div className="preview muted">Enter a rate such as 5 minutes to see when it fires.</div>;
  let description: string;
  let fires: Date[] = [];
  let anchorAt: Date | null = null;
  try {
    const parsed = parseRateExpression(rate.trim());
    description = describeRate(parsed);
    if (now && anchor.kind !== 'hidden') {
      anchorAt = rateAnchorAt(anchor, now);
      fires = anchorAt ? rateFires(parsed, anchorAt, { endDate, now, count }) : [];
    }
  } catch (e) {
    return <PreviewError error={e} />;
  }
  const zone = timezone.trim();
  const zoneOk = isValidTimezone(zone);
  return (
    <div className="preview">
      <p className="preview-description" aria-live="polite">
        {description}
      </p>
      <p className="small">
        {anchor.kind === 'start' ? (
          <>
            Counted from the start date, <span className="mono">{zoneOk ? formatInZone(anchor.at, zone) : formatUtc(anchor.at)}</span>; unaffected by daylight saving.
          </>
        ) : anchor.kind === 'save' ? (
          <>Counted from the next whole minute after saving{anchorAt ? <> (saved now: <span className="mono">{zoneOk ? formatInZone(anchorAt, zone) : formatUtc(anchorAt)}</span>)</> : null}; unaffected by daylight saving.</>
        ) : (
          <>
            Counted from the instant it was saved with this rate; the anchor is kept while the rate and start date stay as they are.
            {anchor.kind === 'hidden' && anchor.nextFire ? (
              <>
                {' '}
                Next fire, with its flexible-window offset: <span className="mono">{zoneOk ? formatInZone(anchor.nextFire, zone) : formatUtc(anchor.nextFire)}</span>.
              </>
            ) : null}
          </>
        )}
      </p>
      {anchor.kind === 'hidden' ? null : !zoneOk ? (
        <p className="muted small">Enter a valid time zone to see the next fire times.</p>
      ) : !now ? null : fires.length === 0 ? (
        <p className="muted small">No fire time is left before the end date: this schedule would never fire.</p>
      ) : (
        <FireTimes fires={fires} timezone={zone} />
      )}
    </div>
  );
}

/** A preview that cannot be drawn: what is wrong with the input, announced politely. */
function PreviewError({ error }: { error: unknown }) {
  return (
    <div className="preview">
      <p className="preview-error" aria-live="polite">
        {messageOf(error)}
      </p>
    </div>
  );
}
