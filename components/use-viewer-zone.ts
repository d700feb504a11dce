'use client';
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};
const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const serverZone = () => null;

/**
 * The viewer's IANA time zone, or null while rendering on the server and during hydration (so the
 * server's zone never leaks into the first client render and there is no hydration mismatch).
 */
export function useViewerZone(): string | null {
  return useSyncExternalStore(subscribe, viewerZone, serverZone);
}

/** True once the component runs in the browser (after hydration). */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, () => true, () => false);
}
