'use client';
/**
 * A scheduler's dead letters (SPEC §12.3) as a table, newest first, one page of 10: each exhausted
 * occurrence with its schedule (linked while it exists), when it was scheduled, its attempts, why they
 * stopped, the last error, the dead-letter queue and the last replay; Replay (fire it again now as a
 * manual run linked to it) and Dismiss (behind a confirmation that names what is lost). The server
 * actions call the domain; this component only shows their outcome.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition, type ReactNode } from 'react';
import type { DeadLetter, RunStatus } from '@/lib/schedules/contract';
import type { ActionResult } from './action-result';
import { RunStatusBadge } from './badges';
import { ConfirmDialog } from './confirm-dialog';
import { EXHAUSTED_WORDS } from './delivery-words';
import { shortId } from './format';
import { LocalTime } from './local-time';
import { RunResultCell } from './run-history';

export interface DeadLetterRow {
  letter: DeadLetter;
  /** The schedule as it is now: its page, or null when it has been deleted (`letter.schedule_label` names it). */
  schedule: { label: string; href: string } | null;
}

export interface DeadLetterActions {
  replay: (deadLetterId: string) => Promise<ActionResult<{ runId: string; status: RunStatus; scheduleId: string }>>;
  dismiss: (deadLetterId: string) => Promise<ActionResult>;
}

export interface DeadLetterListProps {
  rows: DeadLetterRow[];
  actions: DeadLetterActions;
  canWrite: boolean;
  /** `/schedulers/{rev}`: schedule pages are under it. */
  base: string;
  /** Shown instead of the table when the page holds none (also right after the last one is dismissed). */
  empty: ReactNode;
}

interface Notice {
  tone: 'ok' | 'error';
  text: ReactNode;
}

const attemptsWords = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;

export function DeadLetterList({ rows, actions, canWrite, base, empty }: DeadLetterListProps) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [dismissing, setDismissing] = useState<DeadLetterRow | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // The outcome takes focus: after a dismiss the row (and its buttons) are gone.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const labelOf = (r: DeadLetterRow) => r.schedule?.label ?? r.letter.schedule_label;

  async function replay(r: DeadLetterRow) {
    setBusy(r.letter.id);
    try {
      const out = await actions.replay(r.letter.id);
      if (!out.ok) setNotice({ tone: 'error', text: `${labelOf(r)}: ${out.error.message}` });
      else {
        setNotice({
          tone: out.status === 'success' ? 'ok' : 'error',
          text: (
            <>
              Replayed the occurrence of {labelOf(r)}: a manual run, <RunStatusBadge status={out.status} />.{' '}
              <Link href={`${base}/schedules/${out.scheduleId}`}>See its executions</Link>
            </>
          ),
        });
        startTransition(() => router.refresh());
      }
    } catch {
      setNotice({ tone: 'error', text: `${labelOf(r)}: the server could not be reached; try again.` });
    } finally {
      setBusy(null);
    }
  }

  async function dismiss() {
    const r = dismissing;
    if (!r) return;
    setBusy(r.letter.id);
    try {
      const out = await actions.dismiss(r.letter.id);
      if (!out.ok) setNotice({ tone: 'error', text: `${labelOf(r)}: ${out.error.message}` });
      else {
        setNotice({ tone: 'ok', text: `The dead letter of ${labelOf(r)} was dismissed.` });
        startTransition(() => router.refresh());
      }
    } catch {
      setNotice({ tone: 'error', text: `${labelOf(r)}: the server could not be reached; try again.` });
    } finally {
      setBusy(null);
      setDismissing(null);
    }
  }

  const readOnly = canWrite ? undefined : 'You need write access to this scheduler';
  return (
    <>
      <div className="notice-slot">
        {notice ? (
          <p role="status" tabIndex={-1} ref={noticeRef} className={`notice notice-${notice.tone}`}>
            {notice.text}
          </p>
        ) : null}
      </div>
      {rows.length === 0 ? empty : (
        // Scrolls sideways on a narrow screen; it holds links and buttons, so it needs no tabindex.
        <div className="table-scroll">
          <table className="table table-cards table-dead-letters" aria-label="Dead letters">
            <thead>
              <tr>
                <th scope="col">Schedule</th>
                <th scope="col">Occurrence</th>
                <th scope="col">Attempts</th>
                <th scope="col">Exhausted</th>
                <th scope="col">Last error</th>
                <th scope="col">Dead-letter queue</th>
                <th scope="col">Last replay</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const l = r.letter;
                return (
                  <tr key={l.id} id={`dead-letter-${l.id}`} data-dead-letter-id={l.id}>
                    <td data-label="Schedule">
                      <div className="cell-stack">
                        {r.schedule ? (
                          <Link href={r.schedule.href} className="strong-link">
                            {r.schedule.label}
                          </Link>
                        ) : (
                          <span>
                            {l.schedule_label} <span className="muted small">(deleted)</span>
                          </span>
                        )}
                        <span className="mono muted small" title={l.id}>
                          dead letter {shortId(l.id)}
                        </span>
                      </div>
                    </td>
                    <td data-label="Occurrence">
                      <div className="cell-stack">
                        <LocalTime instant={l.scheduled_for} />
                        <span className="muted small">
                          recorded <LocalTime instant={l.created_at} />
                        </span>
                      </div>
                    </td>
                    <td data-label="Attempts">{attemptsWords(l.attempts)}</td>
                    <td data-label="Exhausted">{EXHAUSTED_WORDS[l.exhausted]}</td>
                    <td data-label="Last error">
                      <div className="cell-stack">
                        <RunStatusBadge status={l.status} />
                        <RunResultCell result={l.result} />
                      </div>
                    </td>
                    <td data-label="Dead-letter queue">
                      {l.dead_letter_arn ? (
                        <div className="cell-stack">
                          <span className="mono small break">{l.dead_letter_arn}</span>
                          {l.queue_send ? <span className={`small${l.queue_send.status === 'failed' ? ' text-error' : ' muted'}`}>{queueSendWords(l.queue_send)}</span> : null}
                        </div>
                      ) : (
                        <span className="muted">None</span>
                      )}
                    </td>
                    <td data-label="Last replay">
                      {l.replay ? (
                        <div className="cell-stack">
                          <RunStatusBadge status={l.replay.status} />
                          <LocalTime instant={l.replay.at} />
                          {r.schedule ? (
                            <Link className="mono small" href={r.schedule.href} title={`run ${l.replay.run_id}`}>
                              run {shortId(l.replay.run_id)}
                            </Link>
                          ) : (
                            <span className="mono small muted">run {shortId(l.replay.run_id)}</span>
                          )}
                        </div>
                      ) : (
                        <span className="muted">Never</span>
                      )}
                    </td>
                    <td data-label="">
                      <div className="row-actions">
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => replay(r)}
                          disabled={!canWrite || !r.schedule || busy !== null}
                          title={readOnly ?? (r.schedule ? 'Fire this occurrence again now, as a manual run of its schedule' : 'Its schedule was deleted, so it cannot be replayed; dismiss it instead')}
                          aria-label={`Replay the dead letter of ${labelOf(r)}`}
                        >
                          {busy === l.id && !dismissing ? 'Replaying…' : 'Replay'}
                        </button>
                        <button
                          type="button"
                          className="btn btn-small btn-danger-outline"
                          onClick={() => setDismissing(r)}
                          disabled={!canWrite || busy !== null}
                          title={readOnly}
                          aria-label={`Dismiss the dead letter of ${labelOf(r)}`}
                        >
                          Dismiss
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={dismissing !== null}
        title={dismissing ? `Dismiss the dead letter of ${labelOf(dismissing)}?` : 'Dismiss the dead letter?'}
        confirmLabel="Dismiss"
        danger
        pending={busy !== null}
        onConfirm={dismiss}
        onCancel={() => setDismissing(null)}
      >
        {dismissing ? (
          <p>
            The occurrence scheduled for <LocalTime instant={dismissing.letter.scheduled_for} /> ({attemptsWords(dismissing.letter.attempts)}, exhausted:{' '}
            {EXHAUSTED_WORDS[dismissing.letter.exhausted]}) leaves this list for good: it can no longer be replayed, and its record here (the last error, the target as
            fired{dismissing.letter.replay ? ', its last replay' : ''}) is deleted. The attempts stay in the schedule’s history until they are swept. This cannot be undone.
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/** The SQS send of a dead letter in words (SPEC §12.3): sent with its message id, waiting, or failed and why. */
export function queueSendWords(q: NonNullable<DeadLetter['queue_send']>): string {
  if (q.status === 'sent') return `Sent to the queue${q.message_id ? ` (message ${q.message_id.slice(0, 8)}…)` : ''}`;
  if (q.status === 'failed') return `Not sent to the queue after ${q.attempts === 1 ? '1 try' : `${q.attempts} tries`}: ${[q.error, q.message].filter(Boolean).join(': ') || 'it failed'}`;
  return q.attempts === 0 ? 'Being sent to the queue' : `Not sent yet (${q.attempts === 1 ? '1 try' : `${q.attempts} tries`}${q.error ? `, last ${q.error}` : ''}); tried again shortly`;
}
