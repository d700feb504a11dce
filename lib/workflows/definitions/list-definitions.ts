import type { Db } from '../../db';
import type { Actor } from '../../auth';
import { type DefinitionJson, PAGE_SIZE } from '../contract';
import { requireRevisionAccess } from '../guards';
import { afterCursor, cutPage, pageOrder } from '../paging';
import { definitionJson } from '../serialize';

export interface ListDefinitionsOptions {
  actor: Actor;
  revisionId: string;
  /** Exclusive cursor: the `last_definition_id` of the previous page. */
  startDefinitionId?: string;
  /** Items per page; default 50. */
  pageSize?: number;
}

/**
 * A page of a workflow revision's definitions (SPEC §3.2 `list_definitions`), oldest first
 * (`created_at`, then `id`). `lastDefinitionId` is null on the last page. Needs `read`; any state.
 * @throws `404 not_found` (revision), `400 invalid_request_body` (unknown cursor, path `start_definition_id`).
 */
export async function listDefinitions(
  db: Db,
  opts: ListDefinitionsOptions,
): Promise<{ definitions: DefinitionJson[]; lastDefinitionId: string | null }> {
  const { revision } = await requireRevisionAccess(db, { ...opts, need: 'read', blobType: 'workflow' });
  const size = opts.pageSize ?? PAGE_SIZE.definitions;
  const scope = { revisionId: revision.id };
  const cursor =
    opts.startDefinitionId !== undefined
      ? afterCursor(
          await db.definition.findFirst({ where: { ...scope, id: opts.startDefinitionId } }),
          'asc',
          'start_definition_id',
          opts.startDefinitionId,
        )
      : {};
  const rows = await db.definition.findMany({ where: { ...scope, ...cursor }, orderBy: [...pageOrder('asc')], take: size + 1 });
  const { items, lastId } = cutPage(rows, size);
  return { definitions: items.map(definitionJson), lastDefinitionId: lastId };
}
