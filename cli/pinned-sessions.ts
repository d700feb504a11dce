/**
 * What a manifest's pinned session references name now (SPEC §6.1: a pinned target's `session` is
 * stored as the session id, so a manifest alias must be resolved before it can be compared). Reads
 * only, through the workflow API; used by `diff`/`deploy` to compare and by `pull` to keep aliases.
 * Whether a target is valid is not decided here: the server answers that (`dry_run`, see plan.ts).
 */
import { isIdShape, normalizeRef } from '../lib/schedules/contract';
import type { SessionJson } from '../lib/workflows/contract';
import { ApiError, type ApiClient } from './client';

/** Key of a pinned reference: `revision\0sessionRef`, both in lookup form. */
export function pinnedKey(revision: string, sessionRef: string): string {
  return `${normalizeRef(revision)}\0${normalizeRef(sessionRef)}`;
}

/**
 * For each `[revision, sessionRef]` of a pinned target, the id of the session it names now, when the
 * API key can read it (a 404, missing or unreadable alike, leaves it out). Keys as `pinnedKey`; each
 * distinct reference is read once.
 * @throws ApiError for refusals other than 404 (401, 5xx).
 */
export async function resolvePinnedSessions(client: ApiClient, refs: readonly [string, string][]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const asked = new Set<string>();
  for (const [revision, ref] of refs) {
    const key = pinnedKey(revision, ref);
    if (!isIdShape(revision) || asked.has(key)) continue;
    asked.add(key);
    try {
      const { session } = await client.command<{ session: SessionJson }>(normalizeRef(revision), 'workflow_blobhub', 'get_session', { session_id: ref });
      out.set(key, session.id);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  return out;
}
