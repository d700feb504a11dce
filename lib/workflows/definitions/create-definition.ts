import { inTransaction, type Db, type Prisma } from '../../db';
import type { Actor } from '../../auth';
import { DomainError } from '../../errors';
import { newId } from '../../ids';
import type { DefinitionJson } from '../contract';
import { requireAliasGrammar, requireDraft, requireRevisionAccess, withAliasGuard } from '../guards';
import { definitionJson } from '../serialize';

export interface CreateDefinitionOptions {
  actor: Actor;
  /** The draft workflow revision to create the definition in. */
  revisionId: string;
  /** Optional alias (SPEC §4 grammar), unique within the revision. */
  alias?: string;
  /** Display name, 1–256 chars. */
  name: string;
  /** The definition's body: any JSON, opaque to the catalog. Default `{}`. */
  spec?: unknown;
  now?: Date;
}

/**
 * Create a workflow definition in a draft revision (SPEC §1, §3.2 `create_definition`). Needs `write`.
 * @throws `404 not_found`, `403 forbidden`, `409 revision_not_writable`, `400 invalid_alias`, `409 alias_taken`.
 */
export async function createDefinition(db: Db, opts: CreateDefinitionOptions): Promise<DefinitionJson> {
  return inTransaction(db, async (tx) => {
    const { revision } = await requireRevisionAccess(tx, { ...opts, need: 'write', blobType: 'workflow' });
    requireDraft(revision);
    if (opts.alias !== undefined) {
      requireAliasGrammar(opts.alias);
      const taken = await tx.definition.findUnique({
        where: { revisionId_alias: { revisionId: revision.id, alias: opts.alias } },
        select: { id: true },
      });
      if (taken) throw new DomainError('alias_taken', `definition alias "${opts.alias}" is taken in this revision`, { path: 'alias' });
    }
    const now = opts.now ?? new Date();
    const row = await withAliasGuard(opts.alias, () =>
      tx.definition.create({
        data: {
          id: newId(),
          revisionId: revision.id,
          alias: opts.alias ?? null,
          name: opts.name,
          spec: (opts.spec ?? {}) as Prisma.InputJsonValue,
          createdAt: now,
          updatedAt: now,
        },
      }),
    );
    return definitionJson(row);
  });
}
