/**
 * What a version conflict shows (SPEC §15): the fields that differ between the schedule as the edit
 * form opened it, as it is saved now, and as the form holds it. Pure (unit-tested).
 */
import type { Schedule } from '@/lib/schedules/contract';
import { FIELDS, LABELS, valuesFromSchedule, type FieldName, type ScheduleFormValues } from './values';

/** One field of the conflict: its label, the value saved now, this form's value, and who changed it. */
export interface ConflictRow {
  field: FieldName;
  label: string;
  saved: string;
  yours: string;
  /** Changed by the other save (since this form opened), by this form, or both. */
  changedBy: 'them' | 'you' | 'both';
}

/** The form value at a dotted field path, as text (`—` when blank). */
function valueAt(values: ScheduleFormValues, field: FieldName): string {
  let v: unknown = values;
  for (const part of field.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  // A webhook's header rows (and any other structured value) compare and show as JSON.
  const s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.trim() === '' ? '—' : s;
}

/**
 * The fields that differ between `opened` (the schedule as the form opened it), `current` (as saved
 * now) and `mine` (the form's values), in the form's order. Universal and pure (unit-tested).
 */
export function conflictRows(opened: Schedule, current: Schedule, mine: ScheduleFormValues): ConflictRow[] {
  const before = valuesFromSchedule(opened);
  const now = valuesFromSchedule(current);
  const rows: ConflictRow[] = [];
  for (const field of FIELDS) {
    const o = valueAt(before, field);
    const saved = valueAt(now, field);
    const yours = valueAt(mine, field);
    const them = o !== saved;
    const you = o !== yours;
    if (!them && !you) continue;
    if (saved === yours) continue;
    rows.push({ field, label: LABELS[field], saved, yours, changedBy: them && you ? 'both' : them ? 'them' : 'you' });
  }
  return rows;
}

