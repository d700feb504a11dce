/**
 * SPEC §7.1: the six inner fields of an AWS EventBridge cron expression, turned into a
 * `CronExpression` (sorted value sets per field, a rule for the one day field that is not `?`).
 */
import { CronExpressionError } from './errors';
import type { CronExpression, CronField, DayOfMonthRule, DayOfWeekRule } from './types';

interface FieldSpec {
  readonly name: CronField;
  readonly min: number;
  readonly max: number;
  /** Shown after the range in messages, e.g. " (1 = Sunday)". */
  readonly hint: string;
  /** Upper-case 3-letter names, index 0 = `min`. */
  readonly names?: readonly string[];
  /** Ranges may wrap (`22-2`) in every field but year. */
  readonly wraps: boolean;
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const MINUTES: FieldSpec = { name: 'minutes', min: 0, max: 59, hint: '', wraps: true };
const HOURS: FieldSpec = { name: 'hours', min: 0, max: 23, hint: '', wraps: true };
const DAY_OF_MONTH: FieldSpec = { name: 'day-of-month', min: 1, max: 31, hint: '', wraps: true };
const MONTH: FieldSpec = { name: 'month', min: 1, max: 12, hint: ' (1 = January)', names: MONTH_NAMES, wraps: true };
const DAY_OF_WEEK: FieldSpec = { name: 'day-of-week', min: 1, max: 7, hint: ' (1 = Sunday)', names: WEEKDAY_NAMES, wraps: true };
const YEAR: FieldSpec = { name: 'year', min: 1970, max: 2199, hint: '', wraps: false };

const FIELD_ORDER = 'minutes hours day-of-month month day-of-week year';

/**
 * Parses the six inner fields of an AWS EventBridge cron expression (SPEC §7.1):
 * `minutes hours day-of-month month day-of-week year`, separated by whitespace, names
 * case-insensitive. Exactly one of day-of-month and day-of-week must be `?`.
 *
 * @returns the compiled expression (sorted value sets; day rules for L, L-n, nW, LW, nL, n#k).
 * @throws CronExpressionError naming the field (`expression` for a `cron(...)` wrapper or a field count
 *   other than 6) and the token: out-of-range values, unknown names, step 0 or larger than the field's
 *   span (a step of 60 in minutes), a year range that runs backwards, `?` outside the day fields or in both or
 *   neither, `L`/`W`/`#` outside their fields, `W` with a list or range, `L` or `#` inside a list, more
 *   than one `#`, a step in day-of-week (`MON/2`).
 */
export function parseCronExpression(expression: string): CronExpression {
  if (typeof expression !== 'string' || expression.trim() === '') {
    throw new CronExpressionError('expression', String(expression), `expected six fields (${FIELD_ORDER}), got an empty expression`);
  }
  const text = expression.trim();
  const wrapper = /^(cron|rate|at)\s*\(/i.exec(text);
  if (wrapper || text.endsWith(')')) {
    throw new CronExpressionError(
      'expression',
      text,
      `\`${text}\`: write only the six inner fields (${FIELD_ORDER}), without a \`${wrapper?.[1] ?? 'cron'}(...)\` wrapper`,
    );
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 6) {
    throw new CronExpressionError(
      'expression',
      text,
      `expected 6 fields (${FIELD_ORDER}), got ${fields.length} in \`${text}\``,
    );
  }
  const [minutesText, hoursText, domText, monthText, dowText, yearText] = fields;
  const minutes = parsePlainField(MINUTES, minutesText);
  const hours = parsePlainField(HOURS, hoursText);
  const dayOfMonth = domText === '?' ? null : parseDayOfMonth(domText);
  const months = parsePlainField(MONTH, monthText);
  const dayOfWeek = dowText === '?' ? null : parseDayOfWeek(dowText);
  const years = parsePlainField(YEAR, yearText);
  if (dayOfMonth === null && dayOfWeek === null) {
    throw new CronExpressionError('day-of-week', '?', '`?` cannot be in both day fields; exactly one of day-of-month and day-of-week is `?`');
  }
  if (dayOfMonth !== null && dayOfWeek !== null) {
    // Point at the field that most likely should be `?`: a `*` day-of-month next to a day-of-week.
    const rule = 'exactly one of day-of-month and day-of-week is `?`';
    if (domText === '*') throw new CronExpressionError('day-of-month', domText, `\`*\` must be \`?\` here because day-of-week is \`${dowText}\`; ${rule}`);
    throw new CronExpressionError('day-of-week', dowText, `\`${dowText}\` must be \`?\` here because day-of-month is \`${domText}\`; ${rule}`);
  }
  return Object.freeze({ source: fields.join(' '), minutes, hours, dayOfMonth, months, dayOfWeek, years });
}

function fail(spec: FieldSpec, token: string, problem: string): never {
  throw new CronExpressionError(spec.name, token, problem);
}

/** minutes, hours, month, year: lists of values, ranges and steps only. */
function parsePlainField(spec: FieldSpec, text: string): readonly number[] {
  if (text.includes('?')) misplaced(spec, text, '?', 'day-of-month or day-of-week');
  return parseList(spec, text);
}

function parseDayOfMonth(text: string): DayOfMonthRule {
  const spec = DAY_OF_MONTH;
  const upper = text.toUpperCase();
  if (upper === 'L') return { kind: 'last', offset: 0 };
  if (upper === 'LW') return { kind: 'last-weekday' };
  const lastMinus = /^L-(\d+)$/.exec(upper);
  if (lastMinus) {
    const offset = Number(lastMinus[1]);
    if (offset > 30) fail(spec, text, `\`${text}\`: n in \`L-n\` must be 0–30`);
    return { kind: 'last', offset };
  }
  const nearest = /^(\d+)W$/.exec(upper);
  if (nearest) {
    const day = Number(nearest[1]);
    if (day < spec.min || day > spec.max) fail(spec, text, `\`${text}\`: day \`${nearest[1]}\` in \`nW\` is outside 1–31`);
    return { kind: 'nearest-weekday', day };
  }
  if (text.includes('#')) misplaced(spec, text, '#', 'day-of-week');
  if (text.includes('?')) fail(spec, text, `\`${text}\`: \`?\` stands alone`);
  if (/W/i.test(text)) fail(spec, text, `\`${text}\`: \`W\` takes a single day (\`15W\`), never a list, range or step`);
  if (/L/i.test(text)) fail(spec, text, `\`${text}\`: \`L\` stands alone (\`L\`, \`L-n\`, \`LW\`), never in a list, range or step`);
  return { kind: 'days', days: parseList(spec, text) };
}

function parseDayOfWeek(text: string): DayOfWeekRule {
  const spec = DAY_OF_WEEK;
  const upper = text.toUpperCase();
  if (upper === 'L') return { kind: 'weekdays', weekdays: [7] };
  // SPEC §7.1: `/` is not among day-of-week's wildcards (as AWS documents), so `MON/2` and `*/2` are refused.
  if (text.includes('/')) fail(spec, text, `\`${text}\`: no step (\`/\`) is allowed in day-of-week; list the days instead, such as \`MON,WED,FRI\``);
  if ((text.match(/#/g) ?? []).length > 1) fail(spec, text, `\`${text}\`: at most one \`#\` term`);
  const nth = /^([A-Z]{3}|\d+)#(\d+)$/.exec(upper);
  if (nth) {
    const weekday = parseValue(spec, nth[1]);
    const k = Number(nth[2]);
    if (k < 1 || k > 5) fail(spec, text, `\`${text}\`: k in \`n#k\` must be 1–5`);
    return { kind: 'nth', weekday, nth: k };
  }
  const last = /^([A-Z]{3}|\d+)L$/.exec(upper);
  if (last) return { kind: 'last', weekday: parseValue(spec, last[1]) };
  if (text.includes('?')) fail(spec, text, `\`${text}\`: \`?\` stands alone`);
  if (text.includes('#')) fail(spec, text, `\`${text}\`: \`#\` stands alone (\`2#1\`, \`MON#1\`), never in a list, range or step`);
  if (/W/i.test(text.replace(/WED/gi, ''))) misplaced(spec, text, 'W', 'day-of-month');
  if (/L/i.test(text)) fail(spec, text, `\`${text}\`: \`L\` stands alone (\`L\`, \`5L\`, \`FRIL\`), never in a list, range or step`);
  return { kind: 'weekdays', weekdays: parseList(spec, text) };
}

/** A comma list of `*`, `a`, `a-b`, each optionally `/step`; returns the sorted distinct values. */
function parseList(spec: FieldSpec, text: string): readonly number[] {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    if (item === '') fail(spec, text, `\`${text}\`: empty list item`);
    for (const value of parseItem(spec, item)) values.add(value);
  }
  return Object.freeze([...values].sort((a, b) => a - b));
}

function parseItem(spec: FieldSpec, item: string): number[] {
  const parts = item.split('/');
  if (parts.length > 2) fail(spec, item, `\`${item}\`: more than one \`/\``);
  const [rangeText, stepText] = parts;
  const step = stepText === undefined ? 1 : parseStep(spec, item, stepText);
  let start: number;
  let end: number;
  if (rangeText === '*') {
    [start, end] = [spec.min, spec.max];
  } else if (rangeText.includes('-')) {
    const bounds = rangeText.split('-');
    if (bounds.length !== 2 || bounds[0] === '' || bounds[1] === '') fail(spec, item, `\`${item}\` is not a range \`a-b\``);
    [start, end] = [parseValue(spec, bounds[0]), parseValue(spec, bounds[1])];
    if (start > end && !spec.wraps) fail(spec, item, `range \`${item}\` runs backwards; ranges do not wrap in year`);
  } else {
    start = parseValue(spec, rangeText);
    end = stepText === undefined ? start : spec.max;
  }
  // Walk start → end, wrapping past max back to min, keeping every step-th value.
  const span = spec.max - spec.min + 1;
  const length = start <= end ? end - start + 1 : end - start + 1 + span;
  const values: number[] = [];
  for (let k = 0; k < length; k += step) values.push(start + k > spec.max ? start + k - span : start + k);
  return values;
}

function parseStep(spec: FieldSpec, item: string, text: string): number {
  if (!/^\d+$/.test(text)) fail(spec, item, `step \`${text}\` in \`${item}\` is not a whole number`);
  const step = Number(text);
  if (step === 0) fail(spec, item, `step \`0\` in \`${item}\` must be at least 1`);
  const widest = spec.max - spec.min;
  if (step > widest) fail(spec, item, `step \`${text}\` in \`${item}\` is larger than the field's span (at most ${widest})`);
  return step;
}

/** A number or (month, day-of-week) a case-insensitive 3-letter name. */
function parseValue(spec: FieldSpec, text: string): number {
  if (/^\d+$/.test(text)) return checkRange(spec, text, Number(text));
  const index = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (index >= 0) return spec.min + index;
  if (text.includes('#')) misplaced(spec, text, '#', 'day-of-week');
  if (/^(L|L-\d*|\d*LW?|[A-Z]{3}L)$/i.test(text)) misplaced(spec, text, 'L', 'day-of-month and day-of-week');
  if (/^\d+W$/i.test(text)) misplaced(spec, text, 'W', 'day-of-month');
  const expected = spec.names ? `a number ${spec.min}–${spec.max} or a name ${spec.names[0]}–${spec.names[spec.names.length - 1]}` : `a number ${spec.min}–${spec.max}`;
  fail(spec, text, `\`${text}\` is not ${expected}`);
}

/** `symbol` (?, L, W, #) used in a field that does not take it. */
function misplaced(spec: FieldSpec, token: string, symbol: string, where: string): never {
  const subject = token.toUpperCase() === symbol ? `\`${token}\`` : `\`${token}\`: \`${symbol}\``;
  fail(spec, token, `${subject} is only allowed in ${where}`);
}

function checkRange(spec: FieldSpec, token: string, value: number): number {
  if (value < spec.min || value > spec.max) fail(spec, token, `\`${token}\` is outside ${spec.min}–${spec.max}${spec.hint}`);
  return value;
}
