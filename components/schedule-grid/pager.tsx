'use client';
/** The grid's pager: which rows of how many are shown, and links to the first, previous, next and last page. */
import Link from 'next/link';
import { gridHref, type GridQuery } from './grid-query';

export interface GridPaging {
  /** 1-based page, number of pages, rows a page, and schedules matching the filters. */
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
}

interface GridPagerProps {
  pathname: string;
  query: GridQuery;
  paging: GridPaging;
  /** Rows on this page. */
  rowCount: number;
  /** Schedules in the scheduler, whatever the filters. */
  scheduleCount: number;
  filtered: boolean;
  pending: boolean;
}

export function GridPager({ pathname, query, paging, rowCount, scheduleCount, filtered, pending }: GridPagerProps) {
  const first = (paging.page - 1) * paging.pageSize + 1;
  const pageLink = (page: number, text: string, rel?: 'prev' | 'next') => (
    <Link href={gridHref(pathname, query, { page })} className="btn btn-small" rel={rel} scroll={false}>
      {text}
    </Link>
  );
  return (
    <nav className="pager" aria-label="Schedule pages">
      <span className="muted small" aria-live="polite">
        {pending ? 'Loading…' : paging.total === 0 ? 'No matches' : `${first}–${first + rowCount - 1} of ${paging.total}${filtered ? ` matching (${scheduleCount} in all)` : ''} · page ${paging.page} of ${paging.pageCount}`}
      </span>
      {paging.pageCount > 1 ? (
        <span className="pager-links">
          {paging.page > 1 ? (
            <>
              {pageLink(1, '« First')}
              {pageLink(paging.page - 1, '← Previous', 'prev')}
            </>
          ) : null}
          {paging.page < paging.pageCount ? (
            <>
              {pageLink(paging.page + 1, 'Next →', 'next')}
              {pageLink(paging.pageCount, 'Last »')}
            </>
          ) : null}
        </span>
      ) : null}
    </nav>
  );
}
