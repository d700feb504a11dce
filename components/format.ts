/**
 * Display helpers shared by the grid, the schedule page and the form. Universal and pure: every
 * function takes the instant and the zone it formats; none reads the clock.
 */
import { DateTime } from 'luxon';
import type { InvocationTarget } from '@/lib/schedules/contract';

const LOCALE = 'en-US';

/** `2026-03-08 02:30:00 CET` — an instant as wall time in `zone` (seconds optional). */
export function formatInZone(instant: string | Date, zone: string, opts: { seconds?: boolean } = {}): string {
  const dt = (typeof instant === 'string' ? DateTime.fromISO(instant) : DateTime.fromJSDate(instant)).setZone(zone).setLocale(LOCALE);
  if (!dt.isValid) return String(instant);
  return `${dt.toFormat(opts.seconds === false ? 'yyyy-MM-dd HH:mm' : 'yyyy-MM-dd HH:mm:ss')} ${shortZoneName(zone, dt.toMillis())}`;
}

const zoneNameFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The zone's short name at instant `ms` (`CET`, `GMT+5:30`, `EDT`), exactly luxon's `offsetNameShort`
 * (same Intl options), but with one `Intl.DateTimeFormat` per zone kept: luxon builds a new one per
 * call (about 150 µs, which a grid of 50 rows pays twice per row). Pinned against luxon in
 * components/__tests__/format.test.ts.
 */
export function shortZoneName(zone: string, ms: number): string {
  let format = zoneNameFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE, {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: zone,
    });
    zoneNameFormats.set(zone, format);
  }
  return format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** `2026-03-08T01:30:00Z` — an instant in UTC, second precision. */
export function formatUtc(instant: string | Date): string {
  const dt = typeof instant === 'string' ? DateTime.fromISO(instant, { zone: 'utc' }) : DateTime.fromJSDate(instant, { zone: 'utc' });
  return dt.isValid ? dt.toUTC().toFormat("yyyy-MM-dd HH:mm:ss 'UTC'") : String(instant);
}

/** A local wall time `YYYY-MM-DDTHH:mm:ss` as `2026-03-08 02:30:00`. */
export function formatLocalTime(local: string): string {
  return local.replace('T', ' ');
}

/** Human duration of `ms` milliseconds: `350 ms`, `4.2 s`, `3 min 5 s`, `2 h 4 min`, `3 d 2 h`. Negative gets a `−`. */
export function formatDuration(ms: number): string {
  const sign = ms < 0 ? '−' : '';
  const a = Math.abs(ms);
  if (a < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 10_000) return `${sign}${(a / 1000).toFixed(1)} s`;
  const s = Math.round(a / 1000);
  if (s < 60) return `${sign}${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${sign}${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${sign}${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
  const d = Math.floor(h / 24);
  return `${sign}${d} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

/** `acme-corp/procedures @ default / nightly-batch` — where a fire runs (SPEC §6.1). */
export function targetLabel(t: InvocationTarget['target']): string {
  return `${t.org ? `${t.org}/` : ''}${t.blob} @ ${t.revision} / ${t.session}`;
}

/** Where the workflow comes from when it is qualified (SPEC §6.2), else null (the target's revision). */
export function workflowSourceLabel(w: InvocationTarget['workflow']): string | null {
  if (!w.blob) return null;
  return `${w.org ? `${w.org}/` : ''}${w.blob} @ ${w.revision ?? 'default'}`;
}

/** A short id for tight columns: the first 8 hex digits. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
