/** Roles of SPEC §2: `read` < `write` < `admin`. Declared once. */
export const ROLES = ['read', 'write', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { read: 1, write: 2, admin: 3 };

/** True when `held` is at least `needed`. */
export function roleAtLeast(held: Role | null | undefined, needed: Role): boolean {
  return held != null && RANK[held] >= RANK[needed];
}

/** The higher of two roles (null = none). */
export function maxRole(a: Role | null, b: Role | null): Role | null {
  if (a == null) return b;
  if (b == null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** The lower of two roles: an API key's role caps what its owner could otherwise do. */
export function minRole(a: Role | null, b: Role | null): Role | null {
  if (a == null || b == null) return null;
  return RANK[a] <= RANK[b] ? a : b;
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}
