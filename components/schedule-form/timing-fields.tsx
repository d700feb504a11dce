'use client';
/**
 * "Schedule pattern": when a schedule fires (SPEC §5.1, §7): its cadence and the field and preview
 * of that cadence (`cadence-fields.tsx`), the time zone it is evaluated in, and the start and end
 * dates that bound it. The flexible time window (SPEC §12.4) is set under "Delivery"; while it is on,
 * the preview says that each fire comes at its own offset inside it.
 */
import { useEffect, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { Repeat } from '@/lib/schedules/contract';
import { useViewerZone } from '../use-viewer-zone';
import { CadenceChoice, CadenceField, CadencePreview, type StoredRate } from './cadence-fields';
import type { FieldKit } from './field-kit';
import { LABELS, type ScheduleFormValues } from './values';

export function TimingFields({ kit, values, storedRate }: { kit: FieldKit; values: ScheduleFormValues; storedRate?: StoredRate }) {
  const repeat: Repeat = values.repeat ?? 'recurring_cron';
  const window = values.flexible_time_window;
  const windowMinutes = window?.mode === 'flexible' && /^\d+$/.test(window.maximum_window_minutes.trim()) ? Number(window.maximum_window_minutes) : null;
  return (
    <section className="container" aria-labelledby={`${kit.uid}-pattern`}>
      <h2 id={`${kit.uid}-pattern`} className="container-title">
        Schedule pattern
      </h2>
      <CadenceChoice kit={kit} />
      <div className="field-row">
        <CadenceField kit={kit} repeat={repeat} values={values} />
        <TimezoneField kit={kit} />
      </div>
      <CadencePreview kit={kit} repeat={repeat} values={values} storedRate={storedRate} />
      {windowMinutes !== null ? (
        <p className="field-hint section-note">
          Flexible time window on: each occurrence fires at its own fixed offset, from 0 up to {windowMinutes} minute{windowMinutes === 1 ? '' : 's'} after the time shown (see
          Delivery).
        </p>
      ) : null}
      <DateWindowFields kit={kit} />
    </section>
  );
}

/** The IANA time zone the cadence is evaluated in; the browser's zone names are offered as it is typed. */
function TimezoneField({ kit }: { kit: FieldKit }) {
  const { uid, id, register, a11y, hint, fieldError } = kit;
  const [zones, setZones] = useState<string[]>([]);
  // Known only in the browser: filled after hydration, so the server and the first render agree.
  useEffect(() => {
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    setZones(all.includes('UTC') ? all : ['UTC', ...all]);
  }, []);
  return (
    <div className="field">
      <label htmlFor={id('timezone')}>Timezone</label>
      <input {...register('timezone')} {...a11y('timezone', true)} list={`${uid}-zones`} autoComplete="off" spellCheck={false} />
      <datalist id={`${uid}-zones`}>
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      {hint('timezone', <>An IANA name such as Europe/Berlin or UTC; type to search.</>)}
      {fieldError('timezone')}
    </div>
  );
}

/** What each date bound means (both optional UTC instants). */
const DATE_HINTS = {
  start_date: 'No fire before this instant.',
  end_date: 'No fire after this instant; must be after the start date.',
} as const;

/** Start and end date (UTC instants, both optional): no fire before the start or after the end. */
function DateWindowFields({ kit }: { kit: FieldKit }) {
  const { id, register, a11y, hint, fieldError } = kit;
  return (
    <div className="field-row">
      {(['start_date', 'end_date'] as const).map((name) => (
        <div key={name} className="field">
          <label htmlFor={id(name)}>
            {`${LABELS[name]} `}
            <span className="optional">optional</span>
          </label>
          <input type="datetime-local" step={1} {...register(name)} {...a11y(name, true)} />
          {hint(name, <>{DATE_HINTS[name]}</>)}
          {fieldError(name)}
        </div>
      ))}
    </div>
  );
}

/** A new schedule starts in the viewer's time zone (known only in the browser), unless one was typed. */
export function useViewerZoneDefault(form: UseFormReturn<ScheduleFormValues>, mode: 'create' | 'edit'): void {
  const viewerZone = useViewerZone();
  const { setValue } = form;
  useEffect(() => {
    if (mode === 'create' && viewerZone && !form.getFieldState('timezone').isDirty) setValue('timezone', viewerZone);
  }, [mode, viewerZone, setValue, form]);
}
