import type { RevisionState, SessionState } from '@/lib/workflows/contract';

/** A revision state badge whose text is exactly the state (SPEC §1). */
export function RevisionStateBadge({ state }: { state: RevisionState }) {
  return <span className={`badge ${state === 'draft' ? 'badge-info' : 'badge-muted'}`}>{state}</span>;
}

/** A session state badge whose text is exactly the state: `open` / `closed` (SPEC §1). */
export function SessionStateBadge({ state }: { state: SessionState }) {
  return <span className={`badge ${state === 'open' ? 'badge-ok' : 'badge-muted'}`}>{state}</span>;
}

/** Marks the blob's default revision. */
export function DefaultBadge() {
  return <span className="badge badge-ok-outline">default</span>;
}
