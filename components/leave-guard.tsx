'use client';
/**
 * Asks before a page with unsaved edits is left (issue "Operator safety": Cancel on a dirty form
 * discarded edits without a word). While `dirty`:
 * - reload, closing the tab and leaving the site ask through the browser's own `beforeunload` prompt;
 * - a click on an in-app link (Cancel, the breadcrumbs, the header) is held and a confirmation asks
 *   "Leave this page?"; Leave navigates, Stay keeps the edits;
 * - the browser's Back asks the same: once the page is dirty, a second history entry of this same
 *   page is pushed on top of it (its state marked `GUARD_STATE`), so Back first lands on this page's
 *   own entry (the App Router re-renders the same page; the form keeps its values) and the
 *   confirmation opens. Stay pushes the guard entry again; Leave goes back once more, to the page
 *   before. A page whose edits were undone meanwhile finishes the Back at once.
 * `leave(href)` navigates away after a save: over the guard entry when it is on top (so the history
 * holds the page once, as if there had been no guard), else as a new entry.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

/** Marks the history entry the guard pushed on top of the page's own. */
const GUARD_STATE = '__schedulerLeaveGuard';

export interface LeaveGuard {
  /** Render this once on the page: the "Leave this page?" confirmation. */
  dialog: ReactNode;
  /** Stop asking and go to `href` in-app (after a successful save), over the guard's history entry when it is on top. */
  leave: (href: string) => void;
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

/** True when the current history entry is the guard's. */
function onGuardEntry(): boolean {
  const state = window.history.state as Record<string, unknown> | null;
  return state?.[GUARD_STATE] === true;
}

/** Push the guard's entry: the same URL and router state, marked. */
function pushGuardEntry(): void {
  window.history.pushState({ ...(window.history.state as object | null), [GUARD_STATE]: true }, '');
}

type Pending = { kind: 'link'; href: string } | { kind: 'back' };

/** `message`: what is lost, in the confirmation ("Your changes … are not saved: leaving discards them."). */
export function useLeaveGuard(dirty: boolean, message = 'Your changes are not saved: leaving discards them.'): LeaveGuard {
  const router = useRouter();
  const [pending, setPending] = useState<Pending | null>(null);
  const released = useRef(false);
  const active = dirty && !released.current;
  const activeRef = useRef(active);
  activeRef.current = active;
  // The page's URL while the guard's entry is pushed above it; null while none is.
  const guardedHref = useRef<string | null>(null);

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
      setPending({ kind: 'link', href });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('click', onClick, true);
    // Back: once, the guard's entry goes on top of the page's own (a reloaded page may stand on it already).
    if (guardedHref.current === null) {
      if (!onGuardEntry()) pushGuardEntry();
      guardedHref.current = window.location.href;
    }
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('click', onClick, true);
    };
  }, [active]);

  // Back from the guard's entry lands on this page's own entry: ask (or, once clean, finish the Back).
  useEffect(() => {
    // While the guard's entry is pushed this page stands on it, the newest entry: any popstate left it backwards.
    const onPopState = () => {
      const guarded = guardedHref.current;
      if (guarded === null) return;
      guardedHref.current = null;
      // A jump further back than this page's own entry (the history menu) is not held: it has left already.
      if (window.location.href !== guarded) return;
      if (activeRef.current) setPending({ kind: 'back' });
      else window.history.back();
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  const release = () => {
    released.current = true;
    activeRef.current = false;
  };
  const leave = (href: string) => {
    release();
    // Over the guard's entry (the page's own stays below it), as if there had been no guard.
    const overGuard = guardedHref.current !== null || onGuardEntry();
    guardedHref.current = null;
    if (overGuard) router.replace(href);
    else router.push(href);
  };

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title="Leave this page?"
      confirmLabel="Leave without saving"
      cancelLabel="Stay on this page"
      danger
      onCancel={() => {
        // Stay after a Back: the guard's entry goes back on top, so the next Back asks again.
        if (pending?.kind === 'back' && activeRef.current) {
          pushGuardEntry();
          guardedHref.current = window.location.href;
        }
        setPending(null);
      }}
      onConfirm={() => {
        const was = pending;
        setPending(null);
        if (was?.kind === 'link') leave(was.href);
        else if (was?.kind === 'back') {
          release();
          window.history.back();
        }
      }}
    >
      <p>{message}</p>
    </ConfirmDialog>
  );
  return { dialog, leave };
}
