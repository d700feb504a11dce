import type { Tx, Definition } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';

export interface FindDefinitionByRefOptions {
  /** The revision the definition must belong to. */
  revisionId: string;
  /** Definition id or alias; trimmed and lowercased before lookup (SPEC §4, §6.2). */
  definition: string;
}

/**
 * The definition of `revisionId` named by id or alias, or null. No access check: callers have checked
 * the revision. SPEC §6.2.
 */
export async function findDefinitionByRef(db: Tx, opts: FindDefinitionByRefOptions): Promise<Definition | null> {
  const ref = normalizeRef(opts.definition);
  if (!ref) return null;
  if (isIdShape(ref)) return db.definition.findFirst({ where: { id: ref, revisionId: opts.revisionId } });
  return db.definition.findUnique({ where: { revisionId_alias: { revisionId: opts.revisionId, alias: ref } } });
}

/**
 * `findDefinitionByRef` that throws; `path` names the request field that carried the reference.
 * @throws `404 definition_not_found`.
 */
export async function requireDefinitionByRef(
  db: Tx,
  opts: FindDefinitionByRefOptions & { path?: string },
): Promise<Definition> {
  const definition = await findDefinitionByRef(db, opts);
  if (!definition) {
    throw new DomainError('definition_not_found', 'definition not found', {
      path: opts.path ?? 'definition_id',
    });
  }
  return definition;
}
