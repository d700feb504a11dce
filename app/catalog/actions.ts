'use server';
/**
 * Server actions of the catalog pages (STYLE §2.4): each parses the form with the command's one schema,
 * resolves the signed-in actor, calls one lib/workflows verb (which opens its own transaction), revalidates
 * the catalog pages and answers with the server-action contract (DomainError code + message on refusal).
 */
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { webAction } from '@/app/lib/server';
import type { CatalogAnswer } from '@/components/catalog/catalog-answer';
import {
  branchRevision,
  closeSession,
  commitRevision,
  CreateBlobParams,
  createDefinition,
  CreateDefinitionParams,
  createSession,
  CreateSessionParams,
  createWorkflowBlob,
  deleteBlob,
  deleteSession,
  parseParams,
  reopenSession,
  setDefaultRevision,
  updateSession,
  UpdateSessionParams,
} from '@/lib/workflows';

/** A text field as sent; blank → undefined. */
function text(form: FormData, key: string): string | undefined {
  const v = form.get(key);
  if (typeof v !== 'string') return undefined;
  return v.trim() === '' ? undefined : v.trim();
}

/** Every catalog page shows revisions, sessions or counts: revalidate the whole catalog subtree. */
function revalidateCatalog(): void {
  revalidatePath('/catalog', 'layout');
}

/** Create a workflow blob (alias, optional name) in `org` (SPEC §1, §3.3). */
export async function createBlobAction(org: string, _prev: CatalogAnswer | null, form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const p = parseParams(CreateBlobParams, { type: 'workflow', alias: text(form, 'alias'), name: text(form, 'name') });
    const blob = await createWorkflowBlob(db, { actor, org, alias: p.alias, name: p.name, now });
    revalidateCatalog();
    return { message: `Workflow blob ${blob.alias ?? blob.id} created.` };
  });
}

/** `draft` → `committed` (SPEC §1). */
export async function commitRevisionAction(revisionId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    await commitRevision(db, { actor, revisionId, now });
    revalidateCatalog();
    return { message: 'Revision committed.' };
  });
}

/** Branch a committed revision into a new draft (SPEC §1). */
export async function branchRevisionAction(revisionId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const rev = await branchRevision(db, { actor, revisionId, now });
    revalidateCatalog();
    return { message: `Draft ${rev.id} created.` };
  });
}

/** Point the blob's default at this revision (SPEC §1, §6.1). */
export async function setDefaultRevisionAction(revisionId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor }) => {
    await setDefaultRevision(db, { actor, revisionId });
    revalidateCatalog();
    return { message: 'Default revision set.' };
  });
}

/** `create_session` (SPEC §3.2) with an optional alias. */
export async function createSessionAction(revisionId: string, _prev: CatalogAnswer | null, form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const p = parseParams(CreateSessionParams, { alias: text(form, 'alias') });
    const s = await createSession(db, { actor, revisionId, alias: p.alias, now });
    revalidateCatalog();
    return { message: `Session ${s.alias ?? s.id} created.` };
  });
}

/** `update_session` (SPEC §3.2): a blank alias removes it. */
export async function renameSessionAction(revisionId: string, sessionId: string, _prev: CatalogAnswer | null, form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const p = parseParams(UpdateSessionParams, { session_id: sessionId, alias: text(form, 'alias') ?? null });
    await updateSession(db, { actor, revisionId, session: p.session_id, alias: p.alias, now });
    revalidateCatalog();
    return { message: 'Session renamed.' };
  });
}

/** `close_session` (SPEC §3.2): fires aimed at it record `session_not_open` (SPEC §8.1). */
export async function closeSessionAction(revisionId: string, sessionId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    await closeSession(db, { actor, revisionId, session: sessionId, now });
    revalidateCatalog();
    return {};
  });
}

/** `reopen_session` (SPEC §3.2). */
export async function reopenSessionAction(revisionId: string, sessionId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    await reopenSession(db, { actor, revisionId, session: sessionId, now });
    revalidateCatalog();
    return {};
  });
}

/** `delete_session` (SPEC §3.2): its executions go with it. */
export async function deleteSessionAction(revisionId: string, sessionId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor }) => {
    await deleteSession(db, { actor, revisionId, session: sessionId });
    revalidateCatalog();
    return {};
  });
}

/** `create_definition` (SPEC §3.2): alias and name; the spec defaults to `{}`. */
export async function createDefinitionAction(revisionId: string, _prev: CatalogAnswer | null, form: FormData): Promise<CatalogAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const p = parseParams(CreateDefinitionParams, { alias: text(form, 'alias'), name: text(form, 'name') ?? text(form, 'alias') ?? '' });
    const d = await createDefinition(db, { actor, revisionId, alias: p.alias, name: p.name, now });
    revalidateCatalog();
    return { message: `Definition ${d.alias ?? d.id} created.` };
  });
}

/** Delete a workflow blob with everything in it (needs admin on it), then show the catalog. */
export async function deleteBlobAction(blobId: string, _prev: CatalogAnswer | null, _form: FormData): Promise<CatalogAnswer> {
  const answer = await webAction(async ({ db, actor }) => {
    await deleteBlob(db, { actor, blobId });
    revalidateCatalog();
    revalidatePath('/schedulers', 'layout');
    return {};
  });
  if (answer.ok) redirect('/catalog');
  return answer;
}
