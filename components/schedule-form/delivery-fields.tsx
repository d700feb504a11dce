'use client';
/**
 * "Delivery" (SPEC §12): what happens when an attempt fails and around each fire: the retry policy
 * with its back-off in words, the dead-letter queue, the flexible time window, what follows completion,
 * and the automatic pause after consecutive failed occurrences. Every bound comes from the contract
 * (`NUMBER_BOUNDS` in values.ts); the words from components/delivery-words.ts.
 */
import { backoffWords } from '../delivery-words';
import { NumberField, RadioCards, type FieldKit } from './field-kit';
import { LABELS, NUMBER_BOUNDS, type NumberField as NumberFieldName, type ScheduleFormValues } from './values';

const range = (field: NumberFieldName) => `${NUMBER_BOUNDS[field][0].toLocaleString('en-US')}–${NUMBER_BOUNDS[field][1].toLocaleString('en-US')}`;

export function DeliveryFields({ kit, values }: { kit: FieldKit; values: ScheduleFormValues }) {
  const retry = values.retry_policy ?? { mode: 'off', maximum_retry_attempts: '', maximum_event_age_seconds: '' };
  const window = values.flexible_time_window ?? { mode: 'off', maximum_window_minutes: '' };
  const retries = Number(retry.maximum_retry_attempts.trim() || NaN);
  const age = Number(retry.maximum_event_age_seconds.trim() || NaN);
  const minutes = window.maximum_window_minutes.trim();
  const expectsCompletion = (values.completion?.expect_within_seconds ?? '').trim() !== '';
  const catchUp = values.catch_up ?? { mode: 'default', window_seconds: '', max_burst: '' };
  return (
    <section className="container" aria-labelledby={`${kit.uid}-delivery`}>
      <h2 id={`${kit.uid}-delivery`} className="container-title">
        Delivery
      </h2>

      <RadioCards
        kit={kit}
        name="retry_policy.mode"
        options={[
          { value: 'off', title: 'No retry', detail: 'One attempt per occurrence: a failed attempt is recorded and the schedule moves on.' },
          { value: 'retry', title: 'Retry failed attempts', detail: 'Back-off 60 s, 120 s, 240 s … capped at 1 day; each attempt is its own run.' },
        ]}
      />
      {retry.mode === 'retry' ? (
        <>
          <div className="field-grid">
            <NumberField kit={kit} name="retry_policy.maximum_retry_attempts" hint={<>{range('retry_policy.maximum_retry_attempts')} retries after the first attempt.</>} />
            <NumberField kit={kit} name="retry_policy.maximum_event_age_seconds" hint={<>{range('retry_policy.maximum_event_age_seconds')} s after the scheduled time; no retry starts later.</>} />
          </div>
          <p className="field-hint section-note" aria-live="polite">
            {backoffWords(retries, age)}
          </p>
        </>
      ) : null}

      <div className="field field-wide">
        <label htmlFor={kit.id('dead_letter.arn')}>
          {`${LABELS['dead_letter.arn']} `}
          <span className="optional">optional</span>
        </label>
        <input {...kit.register('dead_letter.arn')} {...kit.a11y('dead_letter.arn', true)} className="mono" autoComplete="off" spellCheck={false} placeholder="arn:aws:sqs:us-east-1:123456789012:my-queue" />
        {kit.hint(
          'dead_letter.arn',
          <>
            An SQS queue where an occurrence whose attempts are exhausted is also sent. With or without one, such an occurrence is kept in this scheduler’s dead letters,
            where it can be replayed.{retry.mode === 'off' && values.dead_letter?.arn.trim() ? ' Without retries, the first failed attempt goes there.' : ''}
          </>,
        )}
        {kit.fieldError('dead_letter.arn')}
      </div>

      <RadioCards
        kit={kit}
        name="flexible_time_window.mode"
        options={[
          { value: 'off', title: 'Off', detail: 'Each occurrence fires at its scheduled time.' },
          { value: 'flexible', title: 'Flexible', detail: 'Each occurrence fires somewhere inside a window after its scheduled time, to spread the load.' },
        ]}
      />
      {window.mode === 'flexible' ? (
        <div className="field-grid">
          <NumberField
            kit={kit}
            name="flexible_time_window.maximum_window_minutes"
            hint={
              <>
                {range('flexible_time_window.maximum_window_minutes')} minutes. Each occurrence fires at a fixed offset inside the window: from 0 up to {/^\d+$/.test(minutes) ? minutes : 'the window’s'} minutes
                after its scheduled time, always the same offset for the same occurrence, spread evenly over the occurrences. The next fire shown is the offset time.
              </>
            }
          />
        </div>
      ) : null}

      <RadioCards
        kit={kit}
        name="action_after_completion"
        options={[
          { value: 'none', title: 'Keep the schedule', detail: 'Once it can fire no more it stays, completed and read-only.' },
          { value: 'delete', title: 'Delete the schedule', detail: 'Once it completes (a one-time schedule: once its occurrence succeeded or was exhausted) it is deleted with its history; its dead letters stay.' },
        ]}
      />

      <div className="field-grid">
        <NumberField
          kit={kit}
          name="pause_after_failures"
          optional
          hint={<>Disable the schedule after this many occurrences in a row fail ({range('pause_after_failures')}; an occurrence counts as failed once its last attempt fails, or its outcome is failed or timed out). Blank: never.</>}
        />
      </div>

      <div className="field-grid">
        <NumberField
          kit={kit}
          name="completion.expect_within_seconds"
          optional
          hint={
            <>
              {range('completion.expect_within_seconds')} s. The target checks in at its check-in URL (the <code>scheduler-checkin-url</code> header, or{' '}
              <code>&lt;scheduler.checkin-url&gt;</code> in its payload): <code>/start</code>, then the bare URL or <code>/0</code> when done, <code>/fail</code> or an exit code when not. A run
              with no final check-in this long after its delivery (or its start) is timed out. Blank: no outcome is expected.
            </>
          }
        />
      </div>
      {expectsCompletion ? (
        <RadioCards
          kit={kit}
          name="overlap_policy"
          options={[
            { value: 'allow_all', title: 'Fire anyway', detail: 'Every occurrence is delivered, even while an earlier run has not finished.' },
            { value: 'skip', title: 'Skip', detail: 'An occurrence due while a run is in progress is recorded as skipped and not delivered.' },
            { value: 'buffer_one', title: 'Buffer one', detail: 'The first occurrence due meanwhile waits and is delivered as soon as the run ends; any further one is skipped.' },
          ]}
        />
      ) : (
        <p className="field-hint section-note">Overlap policy: with no completion expected, a run is never in progress, so every occurrence fires. Set a completion time to choose what happens to an occurrence due while a run is in progress.</p>
      )}

      <RadioCards
        kit={kit}
        name="catch_up.mode"
        options={[
          { value: 'default', title: 'Scheduler default', detail: 'Occurrences up to the scheduler’s catch-up window late (300 s unless configured) fire late, oldest first; older ones are skipped.' },
          { value: 'all', title: 'All', detail: 'Every missed occurrence inside the window fires, oldest first (at most the number below, the most recent ones).' },
          { value: 'latest', title: 'Latest only', detail: 'Only the most recent missed occurrence fires; the others are skipped.' },
          { value: 'none', title: 'None', detail: 'Missed occurrences are skipped; the schedule continues from its next occurrence.' },
        ]}
      />
      {catchUp.mode !== 'default' ? (
        <div className="field-grid">
          <NumberField
            kit={kit}
            name="catch_up.window_seconds"
            hint={<>{range('catch_up.window_seconds')} s. An occurrence later than this is skipped whatever the choice above (a tick up to 10 s late is on time, not missed).</>}
          />
          {catchUp.mode === 'all' ? (
            <NumberField kit={kit} name="catch_up.max_burst" optional hint={<>{range('catch_up.max_burst')}. Blank: no cap. The rest are skipped and counted.</>} />
          ) : null}
        </div>
      ) : null}
      <p className="field-hint section-note">Skipped occurrences are counted on the schedule. A schedule never stops because of a backlog; to fire a past range on purpose, use Backfill… on its page.</p>
    </section>
  );
}
