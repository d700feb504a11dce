/**
 * A stable text of a JSON value: object keys sorted, `undefined` members left out (as JSON drops
 * them). Equal values give equal texts whatever their key order: to hash a request (client tokens)
 * and to tell whether a field's value changed (an update's changed fields and target).
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
