/** Internal: the one insert behind `createWorkflowBlob` and `createSchedulerBlob`. */
import type { Tx } from '../../db';
import { type Actor, orgRole, roleAtLeast } from '../../auth';
import { DomainError } from '../../errors';
import { newId } from '../../ids';
import type { BlobDescription, BlobType } from '../contract';
import { requireAliasGrammar, withAliasGuard } from '../guards';
import { describeBlob } from './get-blob-description';
import { findOrgByRef } from './find-org-by-ref';

export interface InsertBlobOptions {
  actor: Actor;
  /** Org id or alias. */
  org: string;
  /** Optional blob alias (SPEC §4 grammar), unique within the org. */
  alias?: string;
  /** Display name; defaults to the alias, else the blob type. */
  name?: string;
  now?: Date;
}

export async function insertBlob(
  db: Tx,
  opts: InsertBlobOptions & { type: BlobType; firstRevisionState: 'draft' | 'managed' },
): Promise<BlobDescription> {
  const org = await findOrgByRef(db, { org: opts.org });
  const role = org ? await orgRole(db, opts.actor, org.id) : null;
  if (!org || !roleAtLeast(role, 'read')) throw new DomainError('not_found', 'org not found');
  if (!roleAtLeast(role, 'write')) throw new DomainError('forbidden', `write access to org "${opts.org}" is required`);
  if (opts.alias !== undefined) {
    requireAliasGrammar(opts.alias);
    const taken = await db.blob.findUnique({ where: { orgId_alias: { orgId: org.id, alias: opts.alias } }, select: { id: true } });
    if (taken) throw new DomainError('alias_taken', `alias "${opts.alias}" is taken in this org`, { path: 'alias' });
  }
  const now = opts.now ?? new Date();
  const blobId = newId();
  const revisionId = newId();
  await withAliasGuard(opts.alias, () =>
    db.blob.create({
      data: {
        id: blobId,
        orgId: org.id,
        alias: opts.alias ?? null,
        type: opts.type,
        name: opts.name ?? opts.alias ?? opts.type,
        // The first revision is the default from the start (SPEC §1: each blob has one default revision).
        defaultRevisionId: revisionId,
        createdAt: now,
        revisions: { create: { id: revisionId, state: opts.firstRevisionState, createdAt: now } },
      },
    }),
  );
  return describeBlob(db, blobId);
}
