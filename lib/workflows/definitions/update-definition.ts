import { inTransaction, type Db, type Prisma } from '../../db';
import type { Actor } from '../../auth';
import { DomainError } from '../../errors';
import type { DefinitionJson } from '../contract';
import { requireAliasGrammar, requireDraft, requireRevisionAccess, withAliasGuard } from '../guards';
import { definitionJson } from '../serialize';
import { requireDefinitionByRef } from './find-definition-by-ref';

export interface UpdateDefinitionOptions {
  actor: Actor;
  revisionId: string;
  /** Definition id or alias. */
  definition: string;
  /** New alias (SPEC §4 grammar); `null` removes it; `undefined` leaves it. */
  alias?: string | null;
  /** New display name; `undefined` leaves it. */
  name?: string;
  /** New body (any JSON); `undefined` leaves it. */
  spec?: unknown;
  now?: Date;
}

/**
 * Change a definition's alias, name or spec (SPEC §3.2 `update_definition`); only fields given change.
 * Workflow references by alias (SPEC §6.2) follow the alias: removing or moving it makes fires that
 * named it record `workflow_not_found`. Needs `write` on a draft revision.
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `404 definition_not_found`,
 *   `400 invalid_alias`, `409 alias_taken`.
 */
export async function updateDefinition(db: Db, opts: UpdateDefinitionOptions): Promise<DefinitionJson> {
  return inTransaction(db, async (tx) => {
    const { revision } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    requireDraft(revision);
    const definition = await requireDefinitionByRef(tx, { revisionId: revision.id, definition: opts.definition });
    const aliasChanges = opts.alias !== undefined && opts.alias !== definition.alias;
    if (aliasChanges && opts.alias != null) {
      requireAliasGrammar(opts.alias);
      const taken = await tx.definition.findUnique({
        where: { revisionId_alias: { revisionId: revision.id, alias: opts.alias } },
        select: { id: true },
      });
      if (taken) throw new DomainError('alias_taken', `definition alias "${opts.alias}" is taken in this revision`, { path: 'alias' });
    }
    if (!aliasChanges && opts.name === undefined && opts.spec === undefined) return definitionJson(definition);
    const row = await withAliasGuard(aliasChanges ? opts.alias : undefined, () =>
      tx.definition.update({
        where: { id: definition.id },
        data: {
          ...(aliasChanges ? { alias: opts.alias } : {}),
          ...(opts.name !== undefined ? { name: opts.name } : {}),
          ...(opts.spec !== undefined ? { spec: opts.spec as Prisma.InputJsonValue } : {}),
          updatedAt: opts.now ?? new Date(),
        },
      }),
    );
    return definitionJson(row);
  });
}
