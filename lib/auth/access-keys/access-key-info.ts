import type { KeyRole } from '../contract';

/** An access key pair as the account screens and the product API show it: never the secret (SPEC §14). */
export interface AccessKeyInfo {
  id: string;
  /** The public half, sent in every SigV4 `Credential=` (not secret). */
  accessKeyId: string;
  name: string;
  role: KeyRole;
  /** The org (AWS account) the pair belongs to. */
  org: { id: string; alias: string | null; name: string; accountId: string | null };
  /** Who the pair acts as: its org, or one of the org's users. */
  actsAs: { type: 'org'; id: string } | { type: 'user'; id: string; email: string };
  createdAt: Date;
  /** Last verified request, to the minute (stamped at most once a minute); null when never used. */
  lastUsedAt: Date | null;
  /** When it was revoked; a revoked pair is refused (`UnrecognizedClientException`) from then on. */
  revokedAt: Date | null;
}

export const ACCESS_KEY_SELECT = {
  id: true,
  accessKeyId: true,
  name: true,
  role: true,
  orgId: true,
  userId: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  org: { select: { id: true, alias: true, name: true, accountId: true } },
  user: { select: { id: true, email: true } },
} as const;

export function toAccessKeyInfo(row: {
  id: string;
  accessKeyId: string;
  name: string;
  role: string;
  orgId: string;
  userId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  org: { id: string; alias: string | null; name: string; accountId: string | null };
  user: { id: string; email: string } | null;
}): AccessKeyInfo {
  return {
    id: row.id,
    accessKeyId: row.accessKeyId,
    name: row.name,
    role: row.role === 'write' ? 'write' : 'read',
    org: row.org,
    actsAs: row.user ? { type: 'user', id: row.user.id, email: row.user.email } : { type: 'org', id: row.orgId },
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/** Active pairs first, then revoked ones; newest first within each. */
export function activeFirst(keys: AccessKeyInfo[]): AccessKeyInfo[] {
  return [...keys.filter((k) => !k.revokedAt), ...keys.filter((k) => k.revokedAt)];
}
