import type { KeyRole } from '../contract';

/** An API key as the account screens show it: never the secret, never its hash (SPEC §2). */
export interface ApiKeyInfo {
  id: string;
  name: string;
  /** The 12 hex chars after `sk_` that identify the key (not secret). */
  prefix: string;
  role: KeyRole;
  /** Who the key acts as: its org, or its user. */
  owner: { type: 'org' | 'user'; id: string };
  createdAt: Date;
  /** Last authenticated request, to the minute (stamped at most once a minute); null when never used. */
  lastUsedAt: Date | null;
  /** When it was revoked; a revoked key is refused (`401`) from that instant on. */
  revokedAt: Date | null;
}

/** Which keys: an org's (acting as the org) or the caller's own personal keys (acting as the caller). */
export type ApiKeyOwnerRef = { type: 'org'; org: string } | { type: 'user' };

export function toApiKeyInfo(row: {
  id: string;
  name: string;
  prefix: string;
  role: string;
  orgId: string | null;
  userId: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: row.role === 'write' ? 'write' : 'read',
    owner: row.orgId ? { type: 'org', id: row.orgId } : { type: 'user', id: row.userId ?? '' },
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

export const API_KEY_SELECT = {
  id: true,
  name: true,
  prefix: true,
  role: true,
  orgId: true,
  userId: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;
