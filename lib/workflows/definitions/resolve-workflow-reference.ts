import type { Tx, Definition } from '../../db';
import { type Actor, hasBlobAccess } from '../../auth';
import { normalizeRef } from '../../ids';
import type { WorkflowRef } from '../contract';
import { findBlobByRef } from '../blobs/find-blob-by-ref';
import { findDefinitionByRef } from './find-definition-by-ref';

export interface ResolveWorkflowReferenceOptions {
  /** Whose standing counts: the caller, the saver (SPEC §6.3) or the schedule's creator at a fire (SPEC §8). */
  actor: Actor;
  /** The reference as sent or stored (SPEC §6.2). */
  workflow: WorkflowRef;
  /** The target's resolved revision, where a bare `{definition}` is looked up. */
  targetRevisionId: string;
}

export type WorkflowResolution =
  | { ok: true; definition: Definition; revisionId: string; blobId: string }
  | { ok: false; error: 'workflow_not_found' | 'access_denied'; message: string };

/**
 * Resolve a workflow reference (SPEC §6.2) afresh; never falls back to anything else (SPEC §8).
 * - Bare `{definition}`: id or alias in `targetRevisionId`. The target's own access was checked by the
 *   caller, so a bare reference needs nothing more.
 * - Qualified (`blob`, with `org` when `blob` is an alias; `revision` an id or `default`, default
 *   `default`): that workflow blob's revision, with `read` on it.
 * Failures: `workflow_not_found` when anything named is missing (blob, its default, the revision, the
 * definition, a scheduler blob, or an `org`/`revision` sent without `blob`); `access_denied` when a
 * qualified source blob exists but `actor` cannot read it. Never throws for a missing row.
 */
export async function resolveWorkflowReference(db: Tx, opts: ResolveWorkflowReferenceOptions): Promise<WorkflowResolution> {
  const { workflow } = opts;
  const notFound = (why: string): WorkflowResolution => ({
    ok: false,
    error: 'workflow_not_found',
    message: `workflow definition "${workflow.definition.trim()}" not found: ${why}`,
  });
  let revisionId: string;
  let blobId: string;
  if (workflow.blob === undefined) {
    if (workflow.org !== undefined || workflow.revision !== undefined) return notFound('org or revision given without blob');
    const target = await db.revision.findUnique({ where: { id: opts.targetRevisionId }, select: { id: true, blobId: true } });
    if (!target) return notFound('the target revision is gone');
    revisionId = target.id;
    blobId = target.blobId;
  } else {
    const blob = await findBlobByRef(db, { org: workflow.org, blob: workflow.blob });
    if (!blob || blob.type !== 'workflow') return notFound(`workflow blob "${workflow.blob.trim()}" not found`);
    if (!(await hasBlobAccess(db, opts.actor, blob.id, 'read'))) {
      return { ok: false, error: 'access_denied', message: `no read access to workflow blob "${workflow.blob.trim()}"` };
    }
    const rev = normalizeRef(workflow.revision ?? 'default');
    if (rev === 'default') {
      if (!blob.defaultRevisionId) return notFound('the source blob has no default revision');
      revisionId = blob.defaultRevisionId;
    } else {
      const found = await db.revision.findFirst({ where: { id: rev, blobId: blob.id }, select: { id: true } });
      if (!found) return notFound(`revision "${rev}" is not a revision of the source blob`);
      revisionId = found.id;
    }
    blobId = blob.id;
  }
  const definition = await findDefinitionByRef(db, { revisionId, definition: workflow.definition });
  if (!definition) return notFound(`no such definition in revision ${revisionId}`);
  return { ok: true, definition, revisionId, blobId };
}
