/**
 * Request validation from the AWS API model (model.generated.ts): required members, types, enums,
 * lengths, ranges and patterns, as the service checks them (EVENTBRIDGE.md §3–§4). Every violation is
 * reported, in model member order, in AWS's Coral wording:
 *   `2 validation errors detected: Value null at 'target' failed to satisfy constraint: Member must
 *   not be null; Value '0' at 'maxResults' failed to satisfy constraint: Member must have value
 *   greater than or equal to 1`
 * Paths name members with a lower-case first letter (`flexibleTimeWindow.maximumWindowInMinutes`),
 * list items 1-based (`tags.1.member.key`). Members the model does not know are ignored, as AWS does.
 * A JSON value of the wrong type is a `SerializationException`.
 */
import { isWellFormed } from '../body';
import { AwsError } from './errors';
import { SCHEDULER_MODEL } from './model.generated';

type Shape = {
  type: string;
  required?: readonly string[];
  members?: Record<string, { shape: string; location?: string; locationName?: string }>;
  member?: { shape: string };
  key?: { shape: string };
  value?: { shape: string };
  min?: number;
  max?: number;
  pattern?: string;
  enum?: readonly string[];
};

const SHAPES = SCHEDULER_MODEL.shapes as unknown as Record<string, Shape>;
export type OperationName = keyof typeof SCHEDULER_MODEL.operations;

/** The model's input shape of `op`. */
export function inputShapeOf(op: OperationName): Shape {
  return SHAPES[SCHEDULER_MODEL.operations[op].input.shape];
}

export function shapeNamed(name: string): Shape {
  return SHAPES[name];
}

const patterns = new Map<string, RegExp | null>();
/**
 * The model's (Java) pattern as a whole-string JS RegExp; null if JS cannot compile it (never the case
 * today). The model's ARN patterns admit one partition segment (`arn:aws(-[a-z]+)?:`), which refuses
 * `aws-us-gov` and `aws-iso-b`, partitions whose ARNs the product issues (SPEC §14): AWS's own endpoint
 * in such a partition accepts them, so the partition part takes any number of segments here
 * (decision 317). The refusal still quotes the model's pattern.
 */
function regexOf(pattern: string): RegExp | null {
  if (!patterns.has(pattern)) {
    try {
      patterns.set(pattern, new RegExp(`^(?:${pattern.replaceAll('arn:aws(-[a-z]+)?:', 'arn:aws(-[a-z]+)*:')})$`, 's'));
    } catch {
      patterns.set(pattern, null);
    }
  }
  return patterns.get(pattern)!;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function show(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  return `'${typeof v === 'string' ? v : JSON.stringify(v)}'`;
}

/**
 * Whether `v` is a model timestamp on the wire: epoch seconds (JSON number), or an ISO 8601 string,
 * that a `Date` can hold (±8.64e12 s, ±100,000,000 days from 1970; beyond it would be a server error).
 */
export function isTimestamp(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v) && !Number.isNaN(new Date(Math.round(v * 1000)).getTime());
  return typeof v === 'string' && !Number.isNaN(Date.parse(v));
}

function typeProblem(shape: Shape, v: unknown): string | null {
  switch (shape.type) {
    case 'string':
      return typeof v === 'string' ? null : 'a string';
    case 'integer':
    case 'long':
      return typeof v === 'number' && Number.isInteger(v) ? null : 'an integer';
    case 'boolean':
      return typeof v === 'boolean' ? null : 'a boolean';
    case 'timestamp':
      return isTimestamp(v) ? null : 'a timestamp (epoch seconds)';
    case 'structure':
    case 'map':
      return typeof v === 'object' && v !== null && !Array.isArray(v) ? null : 'an object';
    case 'list':
      return Array.isArray(v) ? null : 'a list';
    default:
      return null;
  }
}

function check(shapeName: string, v: unknown, path: string, errors: string[]): void {
  const shape = SHAPES[shapeName];
  const wrongType = typeProblem(shape, v);
  if (wrongType) throw new AwsError('SerializationException', `Value ${show(v)} at '${path}' must be ${wrongType}`);
  const fail = (constraint: string) => errors.push(`Value ${show(v)} at '${path}' failed to satisfy constraint: ${constraint}`);
  if (shape.type === 'string') {
    const s = v as string;
    if (shape.max !== undefined && s.length > shape.max) fail(`Member must have length less than or equal to ${shape.max}`);
    if (shape.min !== undefined && s.length < shape.min) fail(`Member must have length greater than or equal to ${shape.min}`);
    if (shape.enum && !shape.enum.includes(s)) fail(`Member must satisfy enum value set: [${shape.enum.join(', ')}]`);
    const re = shape.pattern ? regexOf(shape.pattern) : null;
    if (re && !re.test(s)) fail(`Member must satisfy regular expression pattern: ${shape.pattern}`);
    // SPEC §14 "Signing": a string the model accepts is stored or refused, never a 500; one with no
    // UTF-8 form (a lone surrogate, sent as a JSON escape) cannot be stored as sent.
    if (!isWellFormed(s)) fail('Member must not contain a lone UTF-16 surrogate');
  } else if (shape.type === 'integer' || shape.type === 'long') {
    const n = v as number;
    if (shape.max !== undefined && n > shape.max) fail(`Member must have value less than or equal to ${shape.max}`);
    if (shape.min !== undefined && n < shape.min) fail(`Member must have value greater than or equal to ${shape.min}`);
  } else if (shape.type === 'list') {
    const a = v as unknown[];
    if (shape.max !== undefined && a.length > shape.max) fail(`Member must have length less than or equal to ${shape.max}`);
    if (shape.min !== undefined && a.length < shape.min) fail(`Member must have length greater than or equal to ${shape.min}`);
    a.forEach((item, i) => {
      if (item === null || item === undefined) errors.push(`Value null at '${path}.${i + 1}.member' failed to satisfy constraint: Member must not be null`);
      else check(shape.member!.shape, item, `${path}.${i + 1}.member`, errors);
    });
  } else if (shape.type === 'map') {
    for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
      check(shape.key!.shape, k, `${path}.${k}.key`, errors);
      if (item !== null && item !== undefined) check(shape.value!.shape, item, `${path}.${k}.value`, errors);
    }
  } else if (shape.type === 'structure') {
    checkStructure(shape, v as Record<string, unknown>, path, errors);
  }
}

function checkStructure(shape: Shape, obj: Record<string, unknown>, path: string, errors: string[]): void {
  for (const [name, member] of Object.entries(shape.members ?? {})) {
    const value = obj[name];
    const memberPath = path ? `${path}.${lowerFirst(name)}` : lowerFirst(name);
    if (value === undefined || value === null) {
      if (shape.required?.includes(name)) errors.push(`Value null at '${memberPath}' failed to satisfy constraint: Member must not be null`);
      continue;
    }
    check(member.shape, value, memberPath, errors);
  }
}

/**
 * Validate an operation's input (URI labels, query parameters and body members merged, named as the
 * model names them; JSON `null` counts as absent).
 * @throws AwsError `ValidationException` listing every violation, or `SerializationException` for a
 *   value of the wrong JSON type.
 */
export function validateInput(op: OperationName, input: Record<string, unknown>): void {
  const errors: string[] = [];
  checkStructure(inputShapeOf(op), input, '', errors);
  if (errors.length) {
    throw new AwsError('ValidationException', `${errors.length} validation error${errors.length === 1 ? '' : 's'} detected: ${errors.join('; ')}`);
  }
}

/** A Coral-style single validation error (for the facade's wire rules beyond the model). */
export function validationError(path: string, value: unknown, constraint: string): AwsError {
  return new AwsError('ValidationException', `1 validation error detected: Value ${show(value)} at '${path}' failed to satisfy constraint: ${constraint}`);
}
