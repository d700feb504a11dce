'use client';
/**
 * Asks before a page with unsaved edits is left (issue "Operator safety": Cancel on a dirty form
 * discarded edits without a word). While `dirty`:
 * - reload, closing the tab and leaving the site ask through the browser's own `beforeunload` prompt;
 * - a click on an in-app link (Cancel, the breadcrumbs, the header) is held and a confirmation asks
 *   "Leave this page?"; Leave navigates, Stay keeps the edits.
 * Back and Forward are not held (the App Router gives no way to cancel them); the browser keeps the
 * typed values of the page in its history when it can.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

export interface LeaveGuard {
  /** Render this once on the page: the "Leave this page?" confirmation. */
  dialog: ReactNode;
  /** Stop asking (a successful save is about to navigate). */
  release: () => void;
}

/** A plain left click on a same-origin link that would navigate this tab elsewhere. */
function leavingHref(e: MouseEvent): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element | null)?.closest?.('a[href]');
  if (!(a instanceof HTMLAnchorElement) || a.hasAttribute('download') || (a.target && a.target !== '_self')) return null;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  // Only a fragment change on this page: nothing is left.
  if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return null;
  return url.pathname + url.search + url.hash;
}

/** `message`: what is lost, in the confirmation ("Your changes … are not saved: leaving discards them."). */
export function useLeaveGuard(dirty: boolean, message = 'Your changes are not saved: leaving discards them.'): LeaveGuard {
  const router = useRouter();
  const [pendingHref, setPendingHref] = useState<string | null>(null);
  const released = useRef(false);
  const active = dirty && !released.current;
  const activeRef = useRef(active);
  activeRef.current = active;

  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!activeRef.current) return;
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    // Capture phase on window: runs before Next.js's <Link> handler (React listens at its root).
    const onClick = (e: MouseEvent) => {
      if (!activeRef.current) return;
      const href = leavingHref(e);
      if (href === null) return;
      e.preventDefault();
      e.stopPropagation();
      setPendingHref(href);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('click', onClick, true);
    };
  }, [active]);

  const dialog = (
    <ConfirmDialog
      open={pendingHref !== null}
      title="Leave this page?"
      confirmLabel="Leave without saving"
      cancelLabel="Stay on this page"
      danger
      onCancel={() => setPendingHref(null)}
      onConfirm={() => {
        const href = pendingHref;
        released.current = true;
        activeRef.current = false;
        setPendingHref(null);
        if (href) router.push(href);
      }}
    >
      <p>{message}</p>
    </ConfirmDialog>
  );
  return {
    dialog,
    release: () => {
      released.current = true;
      activeRef.current = false;
    },
  };
}
