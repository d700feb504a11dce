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

/**
 * What an AWS target's role ARN is for, by its org's AWS credentials mode (SPEC §13.5): assumed by
 * every delivery (`role`, every org's default), or only stored (`worker`); not known: both said.
 */
export function roleHint(mode: 'role' | 'worker' | undefined): string {
  if (mode === 'role') return 'Required: every delivery assumes this role (STS AssumeRole with the org’s external id, shown on its admin page).';
  if (mode === 'worker') return 'Optional, stored with the target: this org delivers with the worker’s own AWS credentials.';
  return 'The role every delivery assumes when the org’s AWS credentials are “role” (the default); only stored when they are the worker’s.';
}

/** The input of a universal target `<service>:<action>` (SPEC §14): required, the action's parameters, never the default event. */
export function universalInputHint(u: { service: string; action: string }): string {
  return `Required: the parameters of ${u.service}:${u.action} as a JSON object, the AWS SDK command’s input as AWS documents it (never the default event).`;
}
