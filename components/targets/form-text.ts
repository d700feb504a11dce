/** Text helpers the target forms share: JSON text, optional fields, number inputs. Pure. */

/** JSON text → its value, or the problem in words. */
export function parseJsonText(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { problem: `Not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** A trimmed optional field: undefined when blank. */
export const opt = (s: string): string | undefined => (s.trim() === '' ? undefined : s.trim());

/**
 * A number input's text as the request sends it: a decimal number as a number, anything else (blank,
 * `1e3`, `ten`) as the text, which the contract then refuses at its field.
 */
export function numberOf(text: string): number | string {
  const s = text.trim();
  return /^[+-]?\d+(\.\d+)?$/.test(s) ? Number(s) : s;
}
