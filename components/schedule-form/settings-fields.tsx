'use client';
/** "Settings": whether the schedule fires (SPEC §5.1 `enabled`). */
import type { FieldKit } from './field-kit';

export function SettingsFields({ kit }: { kit: FieldKit }) {
  const { uid, id, register, a11y, hint } = kit;
  return (
    <section className="container" aria-labelledby={`${uid}-settings`}>
      <h2 id={`${uid}-settings`} className="container-title">
        Settings
      </h2>
      <div className="field field-checkbox">
        <input type="checkbox" {...register('enabled')} {...a11y('enabled', true)} />
        <label htmlFor={id('enabled')}>Enabled</label>
        {hint('enabled', <>A disabled schedule does not fire. Enabling it again fires from its next occurrence (no catch-up).</>)}
      </div>
    </section>
  );
}
