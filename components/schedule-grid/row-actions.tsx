'use client';
/**
 * Each row's actions (open, edit, enable or disable, run now, delete: `ScheduleActions` as a menu),
 * and the outcome they report, shown once above the table.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { ScheduleActions, type Notice, type ScheduleCommandActions } from '../schedule-actions';
import { usePageNotice } from '../use-page-notice';
import { column } from './rows';

export interface RowActionsOptions {
  /** The scheduler's path (`/schedulers/<revision id>`). */
  base: string;
  canWrite: boolean;
  /** The latest server actions (they are new functions on every refresh; the column must not be). */
  actionsRef: RefObject<ScheduleCommandActions>;
  onNotice: (notice: Notice) => void;
}

/** The actions column: the row's menu, labelled for screen readers only. */
export function actionsColumn({ base, canWrite, actionsRef, onNotice }: RowActionsOptions) {
  return column.display({
    id: 'actions',
    header: () => <span className="visually-hidden">Actions</span>,
    cell: ({ row }) => {
      const s = row.original.schedule;
      return (
        <ScheduleActions
          variant="menu"
          schedule={{ id: s.id, label: row.original.label, enabled: s.enabled, state: s.state }}
          openHref={`${base}/schedules/${s.id}`}
          editHref={`${base}/schedules/${s.id}/edit`}
          actions={actionsRef.current}
          canWrite={canWrite}
          onNotice={onNotice}
        />
      );
    },
  });
}

/**
 * The outcome of the last row action, for `RowActionNotice`. Call it in the grid's shell: its focus
 * effect must run after every effect of the rows (React runs a parent's effects after its children's),
 * so that it comes after the delete dialog's close, which hands focus back to the dialog's opener.
 */
export function useRowActionNotice() {
  const [notice, setNotice] = usePageNotice<Notice>();
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // An outcome whose row is gone (a delete) takes focus, so it does not fall to the page.
  useEffect(() => {
    if (notice?.focus) noticeRef.current?.focus();
  }, [notice]);
  return { notice, setNotice, noticeRef };
}

/** The outcome of the last row action, dismissible; it takes focus when its row is gone (a delete). */
export function RowActionNotice({ notice, noticeRef, onDismiss }: { notice: Notice | null; noticeRef: RefObject<HTMLParagraphElement | null>; onDismiss: () => void }) {
  return (
    <div className="notice-slot" aria-live="polite">
      {notice ? (
        <p className={`notice notice-${notice.tone}`} ref={noticeRef} tabIndex={-1}>
          {notice.text}
          <button type="button" className="link-button" onClick={onDismiss} aria-label="Dismiss message">
            ×
          </button>
        </p>
      ) : null}
    </div>
  );
}
