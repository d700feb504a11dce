/**
 * Generated ids and the alias grammar of SPEC §4, shared by schedules, sessions, definitions, blobs
 * and orgs. Ids and aliases share one namespace and are told apart by shape alone. Universal: no I/O.
 */

/** The generated-id shape (SPEC §1): 36 chars, lowercase hex in the `8-4-4-4-12` pattern. */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Alias length bounds (SPEC §4), in characters, both inclusive. */
export const ALIAS_MIN_LENGTH = 6;
export const ALIAS_MAX_LENGTH = 64;
const ALIAS_CHARS = new RegExp(`^[a-z0-9_-]{${ALIAS_MIN_LENGTH},${ALIAS_MAX_LENGTH}}$`);

/** A new lowercase UUID (SPEC §1). */
export function newId(): string {
  // Web Crypto: available in Node ≥ 19 and in browsers, so this module stays universal.
  return globalThis.crypto.randomUUID();
}

/** Lookup form of an id-or-alias reference: trimmed and lowercased (SPEC §3.1). */
export function normalizeRef(ref: string): string {
  return ref.trim().toLowerCase();
}

/**
 * True when a reference names an id rather than an alias: its lookup form (`normalizeRef`, SPEC §3.1)
 * has the generated-id shape `8-4-4-4-12` hex, including the all-zeros id. So `" 8F14E45F-CEE4-4B0B-8F8A-8E3B1A2C3D4E "`
 * is an id, as it resolves to one; the one id-shape predicate of the project.
 */
export function isIdShape(ref: string): boolean {
  return idOfRef(ref) !== null;
}

/** The lookup form of `ref` (`normalizeRef`) when it has the generated-id shape, else null: a path segment that can only name an id. */
export function idOfRef(ref: string): string | null {
  const id = normalizeRef(ref);
  return ID_PATTERN.test(id) ? id : null;
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
