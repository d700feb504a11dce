/**
 * The pager of a list the API pages by cursor, newest first (a schedule's Executions, a scheduler's
 * dead letters): "Newest first · 10 a page · page N" and « Newest / ← Newer / Older →. The API's
 * cursor only goes older, so the URL keeps the cursors of the newer pages it came through
 * (`?back=c1.c2`, at most `BACK_STEPS`) for "← Newer" to step back one page at a time.
 */
import Link from 'next/link';

/** How many newer pages "← Newer" can step back through one at a time (then it starts from the newest). */
export const BACK_STEPS = 40;

/** The newer pages' cursors from the `back` parameter (none on the first page). */
export function backCursors(backParam: string, cursor: string | null): string[] {
  return cursor ? backParam.split('.').filter(Boolean).slice(-BACK_STEPS) : [];
}

/** `?cursor=…&back=…` for `cursor` and the newer pages' cursors `back` (added to `query`'s own keys). */
export function cursorQuery(query: URLSearchParams, cursorKey: string, cursor: string | null, back: string[]): URLSearchParams {
  const q = new URLSearchParams(query);
  if (cursor) q.set(cursorKey, cursor);
  if (cursor && back.length) q.set('back', back.slice(-BACK_STEPS).join('.'));
  return q;
}

export interface CursorPagerProps {
  /** The nav's accessible name ("Execution pages"). */
  label: string;
  pageSize: number;
  /** This page's cursor (null on the first page) and the newer pages' cursors. */
  cursor: string | null;
  back: string[];
  /** The API's cursor of the next (older) page, or null on the last page. */
  next: string | null;
  /** The href of the page at `cursor` reached through `back`. */
  href: (cursor: string | null, back: string[]) => string;
}

/** Nothing when the list fits one page. */
export function CursorPager({ label, pageSize, cursor, back, next, href }: CursorPagerProps) {
  if (!cursor && !next) return null;
  return (
    <nav className="pager" aria-label={label}>
      <span className="muted small">
        Newest first · {pageSize} a page · page {cursor ? back.length + 2 : 1}
      </span>
      <span className="pager-links">
        {cursor ? (
          <>
            {back.length ? (
              <Link href={href(null, [])} className="btn btn-small">
                « Newest
              </Link>
            ) : null}
            <Link href={href(back.at(-1) ?? null, back.slice(0, -1))} className="btn btn-small" rel="prev">
              ← Newer
            </Link>
          </>
        ) : null}
        {next ? (
          <Link href={href(next, cursor ? [...back, cursor] : [])} className="btn btn-small" rel="next">
            Older →
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
