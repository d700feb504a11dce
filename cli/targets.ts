/**
 * Read-only checks of every manifest target through the workflow API (SPEC §6.1–§6.3), run before
 * `deploy` writes anything: the target blob is a readable workflow blob, its revision (the default one
 * when following, the pinned one otherwise) is a draft, the session exists and is open (or is an alias
 * `deploy` will create), and the workflow definition resolves. Write access cannot be checked without
 * writing; the server checks it at save.
 */
import { isIdShape, normalizeRef, type InvocationTarget } from '../lib/schedules/contract';
import { ApiError, type ApiClient, type BlobDescription, type DefinitionJson, type SessionJson } from './client';

/** A session `deploy` creates (workflow command `create_session`) before it writes any schedule. */
export interface SessionToCreate {
  /** Revision the session is created in: the target blob's default revision (following), or the pinned one. */
  revisionId: string;
  /** `org/blob` as the manifest names it, for messages. */
  blobLabel: string;
  alias: string;
  /** Manifest entries that need it. */
  forAliases: string[];
}

/** A target that cannot work; `path` is the field inside the entry (`invocation_target.target.session`). */
export interface TargetProblem {
  alias: string;
  path: string;
  message: string;
}

export interface TargetCheck {
  problems: TargetProblem[];
  sessionsToCreate: SessionToCreate[];
  /** `pinnedRevision\0sessionRef` (normalized) → session id, for every pinned session that resolved. */
  pinnedSessions: Map<string, string>;
}

/** Key of `TargetCheck.pinnedSessions`. */
export function pinnedKey(revision: string, sessionRef: string): string {
  return `${normalizeRef(revision)}\0${normalizeRef(sessionRef)}`;
}

/** Memoizes each read so a manifest of many schedules on one blob makes a handful of requests. */
class CatalogReader {
  private readonly blobs = new Map<string, Promise<BlobDescription | null>>();
  private readonly sessions = new Map<string, Promise<SessionJson | null>>();
  private readonly definitions = new Map<string, Promise<DefinitionJson[] | null>>();

  constructor(private readonly client: ApiClient) {}

  blob(org: string, blob: string): Promise<BlobDescription | null> {
    const key = `${normalizeRef(org)}/${normalizeRef(blob)}`;
    if (!this.blobs.has(key)) this.blobs.set(key, absentOn404(this.client.describeBlob(org.trim(), blob.trim())));
    return this.blobs.get(key) as Promise<BlobDescription | null>;
  }

  session(revisionId: string, ref: string): Promise<SessionJson | null> {
    const key = pinnedKey(revisionId, ref);
    if (!this.sessions.has(key)) {
      this.sessions.set(key, absentOn404(this.client.command<{ session: SessionJson }>(revisionId, 'workflow_blobhub', 'get_session', { session_id: ref }).then((r) => r.session)));
    }
    return this.sessions.get(key) as Promise<SessionJson | null>;
  }

  definitionsOf(revisionId: string): Promise<DefinitionJson[] | null> {
    if (!this.definitions.has(revisionId)) this.definitions.set(revisionId, absentOn404(this.client.listAllDefinitions(revisionId)));
    return this.definitions.get(revisionId) as Promise<DefinitionJson[] | null>;
  }
}

/** Null for a 404 (missing or unreadable look the same, SPEC §2); other refusals propagate. */
async function absentOn404<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/**
 * The draft revision a reference names in `blob`: the default revision for `default`, else the id.
 * Returns the revision id, or a problem message.
 */
function pickRevision(blob: BlobDescription, revision: string, label: string): { id: string } | { problem: string } {
  const following = revision === 'default';
  const id = following ? blob.default_revision_id : normalizeRef(revision);
  const rev = blob.revisions.find((r) => r.id === id);
  if (!id || !rev) return { problem: following ? `${label} has no default revision` : `revision ${revision} is not a revision of ${label}` };
  if (rev.state !== 'draft') return { problem: `${following ? 'the default revision' : 'revision'} ${rev.id} of ${label} is ${rev.state}; only a draft revision runs executions` };
  return { id: rev.id };
}

/**
 * Check the targets of `entries` (read-only). `fallbackOrg` is used to look up a blob named by id
 * without an org (discovery needs one): the scheduler's org. Problems name the entry and field; API
 * refusals other than 404 (401, 403, 5xx) propagate as `ApiError`.
 */
export async function checkTargets(
  client: ApiClient,
  entries: readonly { alias: string; target: InvocationTarget }[],
  fallbackOrg?: string,
): Promise<TargetCheck> {
  const reader = new CatalogReader(client);
  const problems: TargetProblem[] = [];
  const creates = new Map<string, SessionToCreate>();
  const pinnedSessions = new Map<string, string>();

  for (const { alias, target: it } of entries) {
    const t = it.target;
    const label = `${t.org ? `${t.org}/` : ''}${t.blob}`;
    const org = t.org ?? fallbackOrg;
    const blob = org ? await reader.blob(org, t.blob) : null;
    if (!blob || blob.type !== 'workflow') {
      problems.push({
        alias,
        path: 'invocation_target.target.blob',
        message: org
          ? `target blob ${label} is not a workflow blob this API key can read`
          : `target blob ${t.blob} is named by id without target.org; add target.org so it can be checked`,
      });
      continue;
    }
    const rev = pickRevision(blob, t.revision, label);
    if ('problem' in rev) {
      problems.push({ alias, path: 'invocation_target.target.revision', message: rev.problem });
      continue;
    }
    const session = await reader.session(rev.id, t.session);
    if (!session) {
      if (isIdShape(normalizeRef(t.session))) {
        problems.push({ alias, path: 'invocation_target.target.session', message: `session ${t.session} does not exist in revision ${rev.id} of ${label}` });
        continue;
      }
      const key = pinnedKey(rev.id, t.session);
      const planned = creates.get(key) ?? { revisionId: rev.id, blobLabel: label, alias: normalizeRef(t.session), forAliases: [] };
      planned.forAliases.push(alias);
      creates.set(key, planned);
    } else if (session.state !== 'open') {
      problems.push({ alias, path: 'invocation_target.target.session', message: `session ${t.session} in ${label} is ${session.state}; reopen it (only an open session runs executions)` });
      continue;
    } else if (t.revision !== 'default') {
      pinnedSessions.set(pinnedKey(t.revision, t.session), session.id);
    }

    const wf = it.workflow;
    let definitionRevision = rev.id;
    let definitionLabel = label;
    if (wf.blob !== undefined) {
      definitionLabel = `${wf.org ? `${wf.org}/` : ''}${wf.blob}`;
      const source = await reader.blob(wf.org ?? blob.org.id, wf.blob);
      if (!source || source.type !== 'workflow') {
        problems.push({ alias, path: 'invocation_target.workflow.blob', message: `workflow blob ${definitionLabel} is not a workflow blob this API key can read` });
        continue;
      }
      const srcRev = pickSourceRevision(source, wf.revision ?? 'default', definitionLabel);
      if ('problem' in srcRev) {
        problems.push({ alias, path: 'invocation_target.workflow.revision', message: srcRev.problem });
        continue;
      }
      definitionRevision = srcRev.id;
    }
    const definitions = await reader.definitionsOf(definitionRevision);
    const ref = normalizeRef(wf.definition);
    if (!definitions?.some((d) => d.id === ref || d.alias === ref)) {
      problems.push({ alias, path: 'invocation_target.workflow.definition', message: `definition ${wf.definition} not found in revision ${definitionRevision} of ${definitionLabel}` });
    }
  }
  return { problems, sessionsToCreate: [...creates.values()], pinnedSessions };
}

/** A qualified workflow reference may read any revision state (SPEC §6.2); it only has to exist. */
function pickSourceRevision(blob: BlobDescription, revision: string, label: string): { id: string } | { problem: string } {
  const id = revision === 'default' ? blob.default_revision_id : normalizeRef(revision);
  if (!id || !blob.revisions.some((r) => r.id === id)) {
    return { problem: revision === 'default' ? `${label} has no default revision` : `revision ${revision} is not a revision of ${label}` };
  }
  return { id };
}

/**
 * Resolve pinned session references for `pull`: for each `[revision, sessionRef]`, the session id it
 * names now, if readable. Keys as `pinnedKey`.
 */
export async function resolvePinnedSessions(client: ApiClient, refs: readonly [string, string][]): Promise<Map<string, string>> {
  const reader = new CatalogReader(client);
  const out = new Map<string, string>();
  for (const [revision, ref] of refs) {
    if (!isIdShape(normalizeRef(revision))) continue;
    const s = await reader.session(normalizeRef(revision), ref);
    if (s) out.set(pinnedKey(revision, ref), s.id);
  }
  return out;
}
