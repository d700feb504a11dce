/**
 * Internal: keyset paging shared by the catalog's list verbs. Order is `created_at` then `id`; a cursor
 * is the `id` of the last item of the previous page and is EXCLUSIVE (the next page starts after it).
 * `lastId` is null on the last page, like SPEC §3.1 `list_executions`.
 */
import { DomainError } from '../errors';

export type Direction = 'asc' | 'desc';

/** The `orderBy` for a direction. */
export function pageOrder(dir: Direction) {
  return [{ createdAt: dir }, { id: dir }] as const;
}

/**
 * The `where` fragment selecting rows strictly after `cursor` in `dir` order.
 * @throws `400 invalid_request_body` (at `path`) when the cursor row was not found in the listed scope.
 */
export function afterCursor(
  cursor: { createdAt: Date; id: string } | null | undefined,
  dir: Direction,
  path: string,
  cursorId: string,
) {
  if (!cursor) throw new DomainError('invalid_request_body', `${path} "${cursorId}" is not an item of this list`, { path });
  const op = dir === 'asc' ? 'gt' : 'lt';
  return {
    // The redundant inclusive bound starts PostgreSQL's index range at the cursor (it derives none
    // from the OR), so a deep page does not read every row before it.
    createdAt: { [dir === 'asc' ? 'gte' : 'lte']: cursor.createdAt },
    OR: [{ createdAt: { [op]: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { [op]: cursor.id } }],
  };
}

/** Cut `rows` (fetched with `take: size + 1`) into one page and the cursor for the next one. */
export function cutPage<T extends { id: string }>(rows: T[], size: number): { items: T[]; lastId: string | null } {
  if (rows.length <= size) return { items: rows, lastId: null };
  const items = rows.slice(0, size);
  return { items, lastId: items[items.length - 1].id };
}
