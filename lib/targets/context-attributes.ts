/**
 * Context attributes in payloads (SPEC §13.4): the literal tokens replaced in what a target receives
 * at each attempt, and the ONE substitution every driver applies to its payload. Universal (no I/O):
 * the form offers `CONTEXT_ATTRIBUTE_TOKENS` to insert.
 */

/** The tokens, in the order the form offers them, each with what it becomes. */
export const CONTEXT_ATTRIBUTE_TOKENS = [
  { token: '<aws.scheduler.schedule-arn>', means: "the schedule's ARN" },
  { token: '<aws.scheduler.scheduled-time>', means: 'the occurrence instant, YYYY-MM-DDTHH:MM:SSZ' },
  { token: '<aws.scheduler.execution-id>', means: 'a fresh id per attempt (16 lowercase letters and digits)' },
  { token: '<aws.scheduler.attempt-number>', means: 'the attempt number: 1, 2, …' },
  { token: '<scheduler.schedule-id>', means: "the schedule's id" },
  { token: '<scheduler.occurrence-id>', means: "the occurrence's id (the webhook-id), the same on every attempt" },
  { token: '<scheduler.checkin-url>', means: "this attempt's check-in URL (SPEC §16.1)" },
] as const;

/** The values of one attempt's context attributes (SPEC §13.4). */
export interface ContextAttributes {
  scheduleArn: string;
  /** The nominal occurrence instant (never the flexible-window offset instant). */
  scheduledFor: Date;
  /** Fresh per attempt: 16 lowercase letters and digits. */
  executionId: string;
  attempt: number;
  scheduleId: string;
  /** `occurrenceId` of the fire: the webhook-id (SPEC §13.1). */
  occurrenceId: string;
  /** This attempt's check-in URL, or null when the process has none configured (the token then passes through). */
  checkinUrl: string | null;
}

/** `YYYY-MM-DDTHH:MM:SSZ`, as EventBridge Scheduler writes `<aws.scheduler.scheduled-time>`. */
function awsTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Each token's value, or undefined when it has none (it then passes through unchanged). */
function valuesOf(a: ContextAttributes): Record<string, string | undefined> {
  return {
    '<aws.scheduler.schedule-arn>': a.scheduleArn,
    '<aws.scheduler.scheduled-time>': awsTime(a.scheduledFor),
    '<aws.scheduler.execution-id>': a.executionId,
    '<aws.scheduler.attempt-number>': String(a.attempt),
    '<scheduler.schedule-id>': a.scheduleId,
    '<scheduler.occurrence-id>': a.occurrenceId,
    '<scheduler.checkin-url>': a.checkinUrl ?? undefined,
  };
}

/** Any token of either namespace: what the substitution looks at (unknown ones pass through). */
const TOKEN = /<(?:aws\.scheduler|scheduler)\.[a-z-]+>/g;

/**
 * `text` with every known token replaced by its value (SPEC §13.4). Textual, on the literal bytes: a
 * JSON-escaped `\u003c…` is not a token; an unknown `<aws.scheduler.…>` or `<scheduler.…>` token
 * passes through unchanged. Every value is JSON-safe (escaped as the inside of a JSON string), so a
 * token inside a JSON string of a serialized body leaves the JSON valid. Pure.
 */
export function substituteContextAttributes(text: string, attributes: ContextAttributes): string {
  return replaceTokens(text, attributes, (v) => JSON.stringify(v).slice(1, -1));
}

function replaceTokens(text: string, attributes: ContextAttributes, encode: (value: string) => string): string {
  if (!text.includes('<')) return text;
  const values = valuesOf(attributes);
  return text.replace(TOKEN, (token) => {
    const v = values[token];
    return v === undefined ? token : encode(v);
  });
}

/**
 * A JSON value with every string inside it substituted (SPEC §13.4: "the string values inside a
 * workflow target's `input_data`"); object keys are left as they are. Pure.
 */
export function substituteInStrings<T>(value: T, attributes: ContextAttributes): T {
  const walk = (v: unknown): unknown => {
    // A string value holds the value itself (its JSON encoding escapes it when serialized).
    if (typeof v === 'string') return replaceTokens(v, attributes, (x) => x);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** What a recorded check-in URL shows in place of its token (decision 361). */
export const MASKED_CHECKIN_TOKEN = '••••';

/**
 * `attributes` as a run records them (SPEC §13.4 "the run record keeps the request as sent,
 * substituted"; decision 361): all as sent, but the check-in URL's token — the credential of the
 * attempt's outcome (SPEC §16.1) — masked: `<base>/api/v1/checkins/••••`. Pure.
 */
export function recordedAttributes(attributes: ContextAttributes): ContextAttributes {
  const url = attributes.checkinUrl;
  return { ...attributes, checkinUrl: url === null ? null : url.replace(/[^/]*$/, MASKED_CHECKIN_TOKEN) };
}
