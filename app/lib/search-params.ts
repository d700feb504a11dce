/** Reading list state from the URL (STYLE §2.8): one value per key, unknown values dropped. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of `key`, trimmed, or '' when absent. */
export function param(sp: SearchParams, key: string): string {
  const v = sp[key];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? '';
}

/** `value` when it is one of `allowed`, else ''. */
export function oneOf<T extends string>(value: string, allowed: readonly T[]): T | '' {
  return (allowed as readonly string[]).includes(value) ? (value as T) : '';
}
