import type { Role } from '../roles';

/** A role on one blob granted to a user or an org (SPEC §2: adds to org roles). */
export interface BlobGrantInfo {
  id: string;
  blob: { id: string; alias: string | null; name: string; type: string };
  grantee: { type: 'user' | 'org'; id: string; /** The user's email, or the org's alias (else name). */ label: string };
  role: Role;
  createdAt: Date;
  /**
   * True for a grant by email that waits for the org's invitation link (docs/decisions.md 160): no
   * account holds it yet, and no access check reads it.
   */
  pending: boolean;
}
