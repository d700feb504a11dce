/**
 * Display helpers shared by the grid, the schedule page and the form. Universal and pure: every
 * function takes the instant and the zone it formats; none reads the clock.
 */

const LOCALE = 'en-US';

/**
 * An instant's epoch ms: ISO 8601 text (one without an offset is read as UTC, as luxon's
 * `fromISO(…, { zone: 'utc' })` does) or a Date. NaN when it is not an instant.
 */
function instantMs(instant: string | Date): number {
  if (typeof instant !== 'string') return instant.getTime();
  return Date.parse(/(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/.test(instant) || !instant.includes('T') ? instant : `${instant}Z`);
}

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

/**
 * One `Intl.DateTimeFormat` per zone, kept: wall-clock fields on a 24-hour clock and the zone's
 * short name, exactly as luxon asks Intl for `offsetNameShort`. null for a zone Intl does not know.
 * (luxon builds a new formatter for each zone name it prints, about 150 µs a call, which a grid of 50
 * rows paid several times per row.)
 */
function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(LOCALE, {
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'short',
        timeZone: zone,
      });
    } catch {
      format = null;
    }
    zoneFormats.set(zone, format);
  }
  return format;
}

/**
 * `2026-03-08 02:30:00 CET` — an instant as wall time in `zone` (seconds optional), with the zone's
 * short name at that instant. The text luxon's `toFormat('yyyy-MM-dd HH:mm:ss')` + `offsetNameShort`
 * gives (pinned against luxon by a property test in components/__tests__/format.unit.test.ts); an
 * invalid instant or zone gives the input back as text.
 */
export function formatInZone(instant: string | Date, zone: string, opts: { seconds?: boolean } = {}): string {
  const ms = instantMs(instant);
  const format = zoneFormat(zone);
  if (Number.isNaN(ms) || !format) return String(instant);
  const f: Record<string, string> = {};
  for (const p of format.formatToParts(ms)) f[p.type] = p.value;
  const wall = `${f.year.padStart(4, '0')}-${f.month}-${f.day} ${f.hour}:${f.minute}${opts.seconds === false ? '' : `:${f.second}`}`;
  return `${wall} ${f.timeZoneName}`;
}

/** `2026-03-08 01:30:00 UTC` — an instant in UTC, second precision. */
export function formatUtc(instant: string | Date): string {
  const ms = instantMs(instant);
  return Number.isNaN(ms) ? String(instant) : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
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

/** A short id for tight columns: the first 8 hex digits. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
