'use client';
/**
 * "Settings": whether the schedule fires (SPEC §5.1 `enabled`) and, while it is disabled, the note that
 * says why (SPEC §12.5 `paused.note`, shown on the schedule page with who disabled it and when).
 */
import { PAUSE_NOTE_MAX } from '@/lib/schedules/contract';
import type { FieldKit } from './field-kit';
import { LABELS } from './values';

export function SettingsFields({ kit, enabled, note }: { kit: FieldKit; enabled: boolean; note: string }) {
  const { uid, id, register, a11y, hint, fieldError } = kit;
  return (
    <section className="container" aria-labelledby={`${uid}-settings`}>
      <h2 id={`${uid}-settings`} className="container-title">
        Settings
      </h2>
      <div className="field field-checkbox">
        <input type="checkbox" {...register('enabled')} {...a11y('enabled', true)} />
        <label htmlFor={id('enabled')}>Enabled</label>
        {hint('enabled', <>A disabled schedule does not fire, and its pending retries are cancelled. Enabling it again fires from its next occurrence (no catch-up).</>)}
      </div>
      {enabled ? null : (
        <div className="field field-wide">
          <label htmlFor={id('paused.note')}>
            {`${LABELS['paused.note']} `}
            <span className="optional">optional</span>
          </label>
          <textarea {...register('paused.note')} {...a11y('paused.note', true)} rows={2} />
          {hint(
            'paused.note',
            <>
              Why it is disabled; shown on the schedule page with who disabled it and when.{' '}
              <span className={note.length > PAUSE_NOTE_MAX ? 'text-error' : undefined}>
                {note.length}/{PAUSE_NOTE_MAX}
              </span>
            </>,
          )}
          {fieldError('paused.note')}
        </div>
      )}
    </section>
  );
}
