'use client';
/**
 * The cadence of a schedule (SPEC §5.1 `repeat`, §12.1): the choice between cadences, the field that
 * says when each one fires (a one-time schedule's invocation time, a cron schedule's expression, a
 * rate schedule's rate), and its live preview. A new cadence adds its card to `CADENCES` (the compiler asks for one per `Repeat`)
 * and its case to `CadenceField` and `CadencePreview`.
 */
import { REPEATS, type Repeat } from '@/lib/schedules/contract';
import { isValidTimezone, parseRateExpression, resolveLocalTime } from '@/lib/cron';
import { cronFires, CronPreview, cronProblem, InvocationPreview, rateAnchorAt, rateFires, RatePreview, type RateAnchor } from '../cron-preview';
import type { FieldKit } from './field-kit';
import { toWallTime, utcOrNull, type ScheduleFormValues } from './values';

/** The radio card of each cadence, in the contract's order. */
const CADENCES: Record<Repeat, { title: string; detail: string }> = {
  one_time: { title: 'One-time', detail: 'Fires once, at a local date and time.' },
  recurring_cron: { title: 'Recurring (cron)', detail: 'Fires on a cron cadence, evaluated in the time zone.' },
  recurring_rate: { title: 'Recurring (rate)', detail: 'Fires every fixed interval, unaffected by daylight saving.' },
};

/** "Occurrence": one radio card a cadence. */
export function CadenceChoice({ kit }: { kit: FieldKit }) {
  return (
    <fieldset className="radio-group">
      <legend>Occurrence</legend>
      {REPEATS.map((repeat) => (
        <label key={repeat} className="radio-card">
          <input type="radio" value={repeat} {...kit.register('repeat')} />
          <span>
            <strong>{CADENCES[repeat].title}</strong>
            <span className="muted small">{CADENCES[repeat].detail}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A stored rate schedule being edited (SPEC §12.1): its anchor is kept while `rate_expression` and
 * `start_date` stay, and the form sees it only through the stored next fire, an anchor mark when the
 * schedule is enabled and has no flexible window (`nextMark` null otherwise).
 */
export interface StoredRate {
  rate_expression: string;
  /** The start date as the form's input holds it. */
  start_date: string;
  nextMark: string | null;
  /** The stored next fire (with a flexible window's offset), or null when disabled or completed. */
  nextFire: string | null;
}

interface CadenceProps {
  kit: FieldKit;
  repeat: Repeat;
  values: ScheduleFormValues;
  storedRate?: StoredRate;
}

/** The field that says when the chosen cadence fires. */
export function CadenceField({ kit, repeat, values }: CadenceProps) {
  const { id, register, a11y, hint, fieldError } = kit;
  switch (repeat) {
    case 'recurring_cron':
      return (
        <div className="field field-wide">
          <label htmlFor={id('cron_expression')}>Cron expression</label>
          <input {...register('cron_expression')} {...a11y('cron_expression', true)} className="mono" autoComplete="off" spellCheck={false} placeholder="0 9 ? * MON-FRI *" />
          {hint('cron_expression', <>Six fields: minutes hours day-of-month month day-of-week year. One of the day fields is ?. Day-of-week 1 = Sunday.</>)}
          {/* The live preview below already shows a syntax problem; repeat only what it cannot know (e.g. interval_too_short). */}
          {cronProblem(values.cron_expression ?? '') ? null : fieldError('cron_expression')}
        </div>
      );
    case 'recurring_rate':
      return (
        <div className="field field-wide">
          <label htmlFor={id('rate_expression')}>Rate</label>
          <input {...register('rate_expression')} {...a11y('rate_expression', true)} className="mono" autoComplete="off" spellCheck={false} placeholder="5 minutes" />
          {hint('rate_expression', <>A whole number and minute(s), hour(s) or day(s), such as 15 minutes. Counted from the start date, else from the next whole minute after saving.</>)}
          {fieldError('rate_expression')}
        </div>
      );
    case 'one_time':
      return (
        <div className="field field-wide">
          <label htmlFor={id('invocation_time')}>Invocation time</label>
          <input type="datetime-local" step={1} {...register('invocation_time')} {...a11y('invocation_time', true)} />
          {hint('invocation_time', <>Local wall time in the time zone below (no offset).</>)}
          {fieldError('invocation_time')}
        </div>
      );
    default:
      return repeat satisfies never;
  }
}

/** What the chosen cadence means and when it fires next, in the schedule's zone and the viewer's. */
export function CadencePreview({ kit, repeat, values, storedRate }: CadenceProps) {
  switch (repeat) {
    case 'recurring_cron':
      return (
        <CronPreview
          expression={values.cron_expression ?? ''}
          timezone={values.timezone ?? ''}
          startDate={utcOrNull(values.start_date)}
          endDate={utcOrNull(values.end_date)}
          errorId={`${kit.id('cron_expression')}-error`}
        />
      );
    case 'recurring_rate':
      return <RatePreview rate={values.rate_expression ?? ''} anchor={rateAnchor(values, storedRate)} endDate={utcOrNull(values.end_date)} timezone={values.timezone ?? ''} />;
    case 'one_time':
      return <InvocationPreview invocationTime={values.invocation_time ? toWallTime(values.invocation_time) : ''} timezone={values.timezone ?? ''} />;
    default:
      return repeat satisfies never;
  }
}

/**
 * The next nominal fire instant of the form's cadence after `now` (the one-time instant even when
 * past), as the previews compute it; null when the form does not yet say (an incomplete or invalid
 * cadence or zone, a rate whose stored anchor it cannot see, nothing left before the end date). For
 * the payload preview's `<aws.scheduler.scheduled-time>` (SPEC §13.4).
 */
export function nextFireOf(repeat: Repeat, values: ScheduleFormValues, storedRate: StoredRate | undefined, now: Date): Date | null {
  const zone = (values.timezone ?? '').trim();
  if (!isValidTimezone(zone)) return null;
  try {
    switch (repeat) {
      case 'recurring_cron':
        return cronFires((values.cron_expression ?? '').trim(), zone, { startDate: utcOrNull(values.start_date), endDate: utcOrNull(values.end_date), now, count: 1 })[0] ?? null;
      case 'recurring_rate': {
        const anchor = rateAnchorAt(rateAnchor(values, storedRate), now);
        return anchor ? (rateFires(parseRateExpression((values.rate_expression ?? '').trim()), anchor, { endDate: utcOrNull(values.end_date), now, count: 1 })[0] ?? null) : null;
      }
      case 'one_time':
        return values.invocation_time ? resolveLocalTime(toWallTime(values.invocation_time), zone) : null;
      default:
        return repeat satisfies never;
    }
  } catch {
    return null;
  }
}

/** Where the rate preview counts from: the start date, the stored anchor of an unchanged rate, or a save now. */
function rateAnchor(values: ScheduleFormValues, stored: StoredRate | undefined): RateAnchor {
  const start = utcOrNull(values.start_date);
  if (start) return { kind: 'start', at: start };
  if (stored && stored.rate_expression === (values.rate_expression ?? '').trim() && stored.start_date === values.start_date) {
    return stored.nextMark ? { kind: 'kept', mark: stored.nextMark } : { kind: 'hidden', nextFire: stored.nextFire };
  }
  return { kind: 'save' };
}
