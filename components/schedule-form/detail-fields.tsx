'use client';
/** "Schedule detail": the schedule's alias and description (SPEC §5.1). */
import { ALIAS_MAX_LENGTH, ALIAS_MIN_LENGTH } from '@/lib/schedules/contract';
import { DESCRIPTION_MAX } from '@/lib/workflows/contract';
import type { FieldKit } from './field-kit';

const ALIAS_HINT = `${ALIAS_MIN_LENGTH}–${ALIAS_MAX_LENGTH} characters from a–z, 0–9, _ and -. Unique in this scheduler; the id is used when there is none.`;

/** Alias and description; the description counts its characters against the execution description's limit. */
export function DetailFields({ kit, description }: { kit: FieldKit; description: string }) {
  const { uid, id, register, a11y, hint, fieldError } = kit;
  return (
    <section className="container" aria-labelledby={`${uid}-detail`}>
      <h2 id={`${uid}-detail`} className="container-title">
        Schedule detail
      </h2>
      <div className="field">
        <label htmlFor={id('alias')}>
          Alias <span className="optional">optional</span>
        </label>
        <input {...register('alias')} {...a11y('alias', true)} autoComplete="off" spellCheck={false} className="mono" />
        {hint('alias', <>{ALIAS_HINT}</>)}
        {fieldError('alias')}
      </div>
      <div className="field">
        <label htmlFor={id('description')}>
          Description <span className="optional">optional</span>
        </label>
        <textarea {...register('description')} {...a11y('description', true)} rows={2} />
        {hint(
          'description',
          <>
            Sent as the description of every workflow execution this schedule starts.{' '}
            <span className={description.length > DESCRIPTION_MAX ? 'text-error' : undefined}>
              {description.length}/{DESCRIPTION_MAX}
            </span>
          </>,
        )}
        {fieldError('description')}
      </div>
    </section>
  );
}
