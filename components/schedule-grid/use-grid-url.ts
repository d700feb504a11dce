'use client';
/**
 * The grid's navigation: every list setting lives in the URL, so changing one navigates (a
 * transition, without scrolling). The text filter asks the server after a short pause in typing, or
 * at once on Enter; the box follows the URL when it changes by other means (Back, Forward, a link).
 */
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import { gridHref, type GridChange, type GridQuery } from './grid-query';

/** How long typing in the text filter pauses before the grid asks the server. */
const SEARCH_DEBOUNCE_MS = 300;

export interface GridUrl {
  pathname: string;
  /** True while the server answers a navigation. */
  pending: boolean;
  /** The settings as last chosen (ahead of the URL while the server answers): what the selects show. */
  shown: GridQuery;
  /** Navigate to the grid with `changes`; `replace` keeps the history entry (typing). */
  go: (changes: GridChange, replace?: boolean) => void;
  /** The text box's value (ahead of the URL while typing). */
  text: string;
  /** Typing: show it, and search after the pause. */
  onText: (value: string) => void;
  /** Search for the box's text now (Enter). */
  searchNow: () => void;
  /** Empty the box (a "Clear filters" link navigates by itself). */
  clearText: () => void;
}

export function useGridUrl(query: GridQuery): GridUrl {
  const router = useRouter();
  const pathname = usePathname();
  const [text, setText] = useState(query.q);
  const [pending, startTransition] = useTransition();
  const sentQuery = useRef(query.q);
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The settings the URL has, or is about to have once the navigations sent are answered: each change
  // builds on the last one sent, so a search sent after a filter was picked keeps the filter.
  const intended = useRef(query);
  // The same, for the selects to show the choice at once (not the URL's until the server answers).
  const [shown, setShown] = useState(query);
  const rendered = useRef(query);
  rendered.current = query;
  const renderedKey = `${query.q}\n${query.state}\n${query.enabled}\n${query.outcome}\n${query.sort}`;
  useEffect(() => {
    intended.current = rendered.current;
    setShown(rendered.current);
  }, [renderedKey]);
  const cancelSearch = () => {
    clearTimeout(debounce.current);
    debounce.current = undefined;
  };

  useEffect(() => () => clearTimeout(debounce.current), []);
  // Back / Forward drop a search still waiting to be sent, and the box shows the URL's text.
  useEffect(() => {
    const onPop = () => {
      cancelSearch();
      const q = new URLSearchParams(window.location.search).get('q') ?? '';
      sentQuery.current = q;
      setText(q);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  // The text box follows the URL when it changes by other means than typing (Back, Forward, a link).
  useEffect(() => {
    if (query.q !== sentQuery.current) {
      sentQuery.current = query.q;
      cancelSearch();
      setText(query.q);
    }
  }, [query.q]);

  function go(changes: GridChange, replace = false) {
    // A filter, sort or page picked while typed text waits for its pause: the text goes with it.
    if (changes.q === undefined && debounce.current !== undefined) {
      cancelSearch();
      changes = { ...changes, q: text };
    }
    if (changes.q !== undefined) sentQuery.current = changes.q.trim();
    const href = gridHref(pathname, intended.current, changes);
    const { page: _page, ...settings } = changes;
    intended.current = { ...intended.current, ...settings, q: settings.q !== undefined ? settings.q.trim() : intended.current.q };
    setShown(intended.current);
    startTransition(() => (replace ? router.replace(href, { scroll: false }) : router.push(href, { scroll: false })));
  }

  function onText(value: string) {
    setText(value);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => {
      debounce.current = undefined;
      go({ q: value }, true);
    }, SEARCH_DEBOUNCE_MS);
  }

  function searchNow() {
    cancelSearch();
    go({ q: text }, true);
  }

  return { pathname, pending, shown, go, text, onText, searchNow, clearText: () => setText('') };
}
