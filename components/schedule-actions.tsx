'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState, useTransition, type ReactNode } from 'react';
import type { RunStatus, ScheduleState } from '@/lib/schedules/contract';
import type { ActionResult } from './action-result';
import { RunStatusBadge } from './badges';
import { ConfirmDialog } from './confirm-dialog';
import { usePageNotice } from './use-page-notice';

/** The server actions a schedule's commands call, already bound to the scheduler. */
export interface ScheduleCommandActions {
  setEnabled: (scheduleId: string, enabled: boolean) => Promise<ActionResult<{ id: string }>>;
  run: (scheduleId: string) => Promise<ActionResult<{ runId: string; status: RunStatus }>>;
  remove: (scheduleId: string) => Promise<ActionResult>;
  /** What a delete takes with it (its runs), shown in the delete confirmation. */
  describeDeletion?: (scheduleId: string) => Promise<ActionResult<{ runs: number; executions: number }>>;
}

export interface Notice {
  tone: 'ok' | 'error' | 'info';
  text: ReactNode;
  /** Move focus to the notice (its control is about to disappear, e.g. after a delete). */
  focus?: boolean;
}

export interface ScheduleActionsProps {
  schedule: { id: string; label: string; enabled: boolean; state: ScheduleState };
  editHref: string;
  /** The schedule's page; shown as "Open" in the row menu. */
  openHref?: string;
  actions: ScheduleCommandActions;
  canWrite: boolean;
  /** `bar`: a row of buttons (schedule page). `menu`: an "Actions" menu (grid row). */
  variant: 'bar' | 'menu';
  /** Where to go after a delete; without it the current page refreshes. */
  afterDeleteHref?: string;
  /** Report results to the parent (the grid shows one notice line); without it they show inline. */
  onNotice?: (n: Notice) => void;
}

/** Why a completed schedule offers only Open and Delete (SPEC §5.3, §3.1). */
const COMPLETED_NOTE_TITLE = 'This schedule has completed: it fires no more. It can be read and deleted, but not edited, enabled, disabled or run now.';

/**
 * Open, Edit, Enable/Disable, Run now and Delete (with a confirmation) for one schedule. A completed
 * schedule (SPEC §5.3: read-only) gets only Open and Delete, with a "Completed: read-only" note.
 */
export function ScheduleActions(props: ScheduleActionsProps) {
  const { schedule, actions, canWrite, variant } = props;
  const router = useRouter();
  const [busy, setBusy] = useState<null | 'enable' | 'run' | 'delete'>(null);
  const [, startTransition] = useTransition();
  const [confirmDelete, setConfirmDelete] = useState(false);
  // The dialog is mounted on first use and kept (so closing returns focus to the opener): a grid of
  // 50 rows does not render 50 closed dialogs.
  const [dialogUsed, setDialogUsed] = useState(false);
  const [inlineNotice, setInlineNotice] = usePageNotice<Notice>();
  // What the delete takes with it, counted when its confirmation opens (null while counting or unknown).
  const [deletion, setDeletion] = useState<{ runs: number; executions: number } | null>(null);
  const completed = schedule.state === 'completed';
  const report = (n: Notice) => (props.onNotice ? props.onNotice(n) : setInlineNotice(n));

  async function command<T extends object>(kind: 'enable' | 'run' | 'delete', call: () => Promise<ActionResult<T>>, done: (r: { ok: true } & T) => void) {
    setBusy(kind);
    try {
      const r = await call();
      if (!r.ok) report({ tone: 'error', text: `${schedule.label}: ${r.error.message}` });
      else done(r);
    } catch {
      report({ tone: 'error', text: `${schedule.label}: the server could not be reached; try again.` });
    } finally {
      setBusy(null);
    }
  }

  const toggle = () =>
    command('enable', () => actions.setEnabled(schedule.id, !schedule.enabled), () => {
      report({ tone: 'ok', text: `${schedule.label} is ${schedule.enabled ? 'disabled' : 'enabled'}.` });
      startTransition(() => router.refresh());
    });
  const runNow = () =>
    command('run', () => actions.run(schedule.id), (r) => {
      const status = r.status;
      report({
        tone: status === 'success' ? 'ok' : 'error',
        text: (
          <>
            Run now on {schedule.label} recorded a run: <RunStatusBadge status={status} />
          </>
        ),
      });
      startTransition(() => router.refresh());
    });
  const remove = () =>
    command('delete', () => actions.remove(schedule.id), () => {
      setConfirmDelete(false);
      report({ tone: 'ok', text: `${schedule.label} was deleted.`, focus: true });
      startTransition(() => (props.afterDeleteHref ? router.push(props.afterDeleteHref) : router.refresh()));
    });

  function openDelete() {
    setDialogUsed(true);
    setConfirmDelete(true);
    setDeletion(null);
    actions
      .describeDeletion?.(schedule.id)
      .then((r) => setDeletion(r.ok ? { runs: r.runs, executions: r.executions } : null))
      .catch(() => setDeletion(null));
  }

  const itemClass = variant === 'menu' ? 'menu-item' : 'btn';
  // SPEC §5.3: a completed schedule can be read and deleted, never updated; run_schedule refuses it
  // too (§3.1, 409 schedule_completed). So only Open and Delete are offered, with the reason.
  const readOnlyTitle = !canWrite ? 'You need write access to this scheduler' : undefined;
  const items = (
    <>
      {variant === 'menu' && props.openHref ? (
        <Link className="menu-item" href={props.openHref}>
          Open
        </Link>
      ) : null}
      {completed ? (
        <span className={variant === 'menu' ? 'menu-note' : 'read-only-note'} title={COMPLETED_NOTE_TITLE}>
          Completed: read-only
        </span>
      ) : (
        <>
          {canWrite ? (
            <Link className={itemClass} href={props.editHref}>
              Edit
            </Link>
          ) : (
            <button type="button" className={itemClass} disabled title={readOnlyTitle}>
              Edit
            </button>
          )}
          <button type="button" className={itemClass} onClick={toggle} disabled={!canWrite || busy !== null} title={readOnlyTitle}>
            {busy === 'enable' ? (schedule.enabled ? 'Disabling…' : 'Enabling…') : schedule.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" className={itemClass} onClick={runNow} disabled={!canWrite || busy !== null} title={readOnlyTitle ?? 'Fire now, recorded with trigger "manual"; the schedule’s own occurrences are unaffected'}>
            {busy === 'run' ? 'Running…' : 'Run now'}
          </button>
        </>
      )}
      <button type="button" className={variant === 'menu' ? 'menu-item menu-item-danger' : 'btn btn-danger-outline'} onClick={openDelete} disabled={!canWrite || busy !== null} title={readOnlyTitle}>
        Delete
      </button>
    </>
  );

  return (
    <>
      {variant === 'menu' ? (
        <RowMenu label={`Actions for ${schedule.label}`}>{items}</RowMenu>
      ) : (
        <div className="action-bar">
          <div className="action-bar-buttons">{items}</div>
          {inlineNotice ? (
            <p role="status" className={`notice notice-${inlineNotice.tone}`}>
              {inlineNotice.text}
            </p>
          ) : null}
        </div>
      )}
      {dialogUsed ? (
        <ConfirmDialog
        open={confirmDelete}
        title={`Delete schedule ${schedule.label}?`}
        confirmLabel="Delete"
        danger
        pending={busy === 'delete'}
        onConfirm={remove}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>
          The schedule stops firing and its run history is deleted with it
          {deletion ? (
            <>
              : <strong data-testid="deleted-runs">{deletion.runs === 1 ? '1 run record' : `${deletion.runs} run records`}</strong>
            </>
          ) : null}
          . {deletion ? (deletion.executions === 0 ? 'It created no workflow executions.' : deletion.executions === 1 ? 'The workflow execution it created is kept.' : `The ${deletion.executions} workflow executions it created are kept.`) : 'Workflow executions it already created are kept.'}{' '}
          This cannot be undone.
        </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/**
 * A row's "Actions" menu on the Popover API: it opens in the top layer (never clipped by the grid's
 * scroll box), follows its button when the page scrolls, and closes on Escape, outside click, or after a choice.
 */
function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popRef = useRef<HTMLDivElement>(null);
  // The items render from the menu's first opening on (and stay, so a click on an item is never lost
  // to an unmount): 50 rows of never-opened menus cost server time and bytes.
  const [used, setUsed] = useState(false);
  useEffect(() => {
    const pop = popRef.current;
    const button = buttonRef.current;
    if (!pop || !button) return;
    const hide = () => {
      if (pop.matches(':popover-open')) pop.hidePopover();
    };
    // The menu is fixed in the top layer: keep it beside its button while the page or the grid scrolls.
    const place = () => {
      const r = button.getBoundingClientRect();
      pop.style.right = `${Math.max(8, window.innerWidth - r.right)}px`;
      pop.style.left = 'auto';
      if (r.bottom + 240 > window.innerHeight && r.top > 240) {
        pop.style.top = 'auto';
        pop.style.bottom = `${window.innerHeight - r.top + 4}px`;
      } else {
        pop.style.bottom = 'auto';
        pop.style.top = `${r.bottom + 4}px`;
      }
    };
    const onToggle = (e: Event) => {
      const opening = (e as ToggleEvent).newState === 'open';
      if (opening) setUsed(true);
      if (opening) {
        place();
        window.addEventListener('scroll', place, true);
        window.addEventListener('resize', place);
      } else {
        window.removeEventListener('scroll', place, true);
        window.removeEventListener('resize', place);
      }
    };
    // After a choice the menu closes and focus goes back to its button (the item may now be disabled
    // while its command runs, and focus must not fall to the page).
    const onClick = (e: MouseEvent) => {
      if ((e.target as HTMLElement).closest('a, button')) {
        hide();
        button.focus();
      }
    };
    // Focus the first item once the menu is shown (items render on the first opening: wait a frame).
    const onShown = (e: Event) => {
      if ((e as ToggleEvent).newState !== 'open') return;
      const focusFirst = () => pop.querySelector<HTMLElement>('a, button:not(:disabled)')?.focus();
      if (pop.querySelector('a, button')) focusFirst();
      else requestAnimationFrame(focusFirst);
    };
    pop.addEventListener('beforetoggle', onToggle);
    pop.addEventListener('click', onClick);
    pop.addEventListener('toggle', onShown);
    return () => {
      pop.removeEventListener('beforetoggle', onToggle);
      pop.removeEventListener('click', onClick);
      pop.removeEventListener('toggle', onShown);
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, []);
  return (
    <>
      <button ref={buttonRef} type="button" className="btn btn-small btn-icon" popoverTarget={id} aria-label={label} title="Actions" aria-haspopup="true">
        <span aria-hidden="true">⋯</span>
      </button>
      <div ref={popRef} id={id} popover="auto" className="menu" role="group" aria-label={label}>
        {used ? children : null}
      </div>
    </>
  );
}
