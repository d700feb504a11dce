'use client';
/**
 * One outcome notice at a time on a page: when one part of the page shows a new notice (Pause all, a
 * row's Run now, the schedule page's actions), every other part's notice goes, so a stale outcome never
 * stays beside a newer one. A drop-in `useState` for a notice.
 */
import { useCallback, useEffect, useId, useState } from 'react';

const shown = new EventTarget();
const EVENT = 'notice-shown';

export function usePageNotice<T>(): [T | null, (notice: T | null) => void] {
  const owner = useId();
  const [notice, setNoticeState] = useState<T | null>(null);
  useEffect(() => {
    const onShown = (e: Event) => {
      if ((e as CustomEvent<string>).detail !== owner) setNoticeState(null);
    };
    shown.addEventListener(EVENT, onShown);
    return () => shown.removeEventListener(EVENT, onShown);
  }, [owner]);
  const setNotice = useCallback(
    (n: T | null) => {
      setNoticeState(n);
      if (n !== null) shown.dispatchEvent(new CustomEvent(EVENT, { detail: owner }));
    },
    [owner],
  );
  return [notice, setNotice];
}
