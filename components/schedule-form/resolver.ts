/**
 * The form's one validation: the contract's `ScheduleCreateInput` schema (STYLE §2.3) through
 * `zodResolver`, applied to the request body the values make; each issue is mapped back onto the form
 * field its path names (`errors.ts`), first issue per field.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { ScheduleCreateInput } from '@/lib/schedules/contract';
import { fieldForPath, flattenErrors, isBlankRequired, setPath } from './errors';
import { toRequestBody } from './request-body';
import { LABELS, NUMBER_BOUNDS, type FieldName, type ScheduleFormValues } from './values';

const contractResolver = zodResolver(ScheduleCreateInput);

/**
 * `zodResolver(ScheduleCreateInput)` applied to the request body the values make, errors mapped back:
 * a blank required field says "<Label> is required.", a bounded number field says its bounds in words
 * ("Maximum retry attempts must be a whole number from 0 to 185."), an issue no field owns goes to
 * `root` with its path, and input-data or webhook-body text that is not JSON (or a header named
 * twice) is reported at its field. The schema is the API's: a webhook or AWS target meets the same
 * rules (SPEC §13) as it does there.
 */
export function makeResolver(): Resolver<ScheduleFormValues> {
  return async (values, context, options) => {
    // Validation sees empty optional fields as absent; `edit` only differs in sending them as null.
    const { body, problems } = toRequestBody(values, 'create');
    const result = await contractResolver(body as never, context, options as never);
    const errors: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (const [path, message] of flattenErrors(result.errors as FieldErrors)) {
      const field = fieldForPath(path);
      const key = field ?? 'root';
      if (seen.has(key)) continue;
      seen.add(key);
      const text = !field ? message : isBlankRequired(field, values) ? `${LABELS[field]} is required.` : (boundsMessage(field) ?? message);
      setPath(errors, key, { type: 'validate', message: field ? text : `${path}: ${text}` });
    }
    // Text that is not JSON, a header named twice: said at its field, over what the schema said of it.
    for (const [field, message] of Object.entries(problems)) setPath(errors, field, { type: 'json', message });
    return Object.keys(errors).length ? { values: {}, errors: errors as FieldErrors<ScheduleFormValues> } : { values, errors: {} };
  };
}

/** "<Label> must be a whole number from <min> to <max>." for a bounded number field, else null. */
export function boundsMessage(field: FieldName): string | null {
  if (!Object.hasOwn(NUMBER_BOUNDS, field)) return null;
  const [min, max] = NUMBER_BOUNDS[field as keyof typeof NUMBER_BOUNDS];
  return `${LABELS[field]} must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}.`;
}
