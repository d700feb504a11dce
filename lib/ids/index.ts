/**
 * Generated ids and the alias grammar of SPEC §4, shared by schedules, sessions, definitions, blobs
 * and orgs. Ids and aliases share one namespace and are told apart by shape alone.
 */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Alias length bounds (SPEC §4), in characters, both inclusive. */
export const ALIAS_MIN_LENGTH = 6;
export const ALIAS_MAX_LENGTH = 64;
const ALIAS_CHARS = new RegExp(`^[a-z0-9_-]{${ALIAS_MIN_LENGTH},${ALIAS_MAX_LENGTH}}$`);

/** A new lowercase UUID (SPEC §1). */
export function newId(): string {
  // Web Crypto: available in Node ≥ 19 and in browsers, so this module stays universal.
  return globalThis.crypto.randomUUID();
}

/** True for the generated-id shape `8-4-4-4-12` lowercase hex (including the all-zeros id). */
export function isIdShape(value: string): boolean {
  return UUID_SHAPE.test(value);
}

/**
 * Why `alias` breaks the SPEC §4 grammar, or null when it is valid: 6–64 chars of `a-z0-9_-`, and
 * never the generated-id shape.
 */
export function aliasProblem(alias: string): string | null {
  if (!ALIAS_CHARS.test(alias)) {
    return `alias "${alias.slice(0, 80)}" must be ${ALIAS_MIN_LENGTH} to ${ALIAS_MAX_LENGTH} characters from a-z, 0-9, "_" and "-"`;
  }
  if (isIdShape(alias)) return `alias "${alias}" has the shape of a generated id, which is reserved for ids`;
  return null;
}

/** Lookup form of an id-or-alias reference: trimmed and lowercased (SPEC §3.1). */
export function normalizeRef(ref: string): string {
  return ref.trim().toLowerCase();
}
