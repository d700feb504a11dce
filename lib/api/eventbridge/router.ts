/**
 * The REST routes of the model (rest-json, SPEC §14): method + path → operation, and the operation's
 * input gathered from URI labels, query parameters and the JSON body under the model's member names.
 */
import { AwsError } from './errors';
import { SCHEDULER_MODEL } from './model.generated';
import { inputShapeOf, shapeNamed, type OperationName } from './validate';

interface Route {
  op: OperationName;
  method: string;
  /** Literal segments, or `{Label}`. */
  segments: string[];
}

const ROUTES: Route[] = (Object.entries(SCHEDULER_MODEL.operations) as [OperationName, (typeof SCHEDULER_MODEL.operations)[OperationName]][]).map(
  ([op, def]) => ({ op, method: def.http.method, segments: def.http.requestUri.split('/').filter(Boolean) }),
);

/** Decode a percent-encoded label or query component; a malformed escape is a SerializationException. */
function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new AwsError('SerializationException', `malformed percent-encoding in '${s.slice(0, 100)}'`);
  }
}

/** The operation for `method` + `rawPath`, with its URI labels decoded. */
function match(method: string, rawPath: string): { op: OperationName; labels: Record<string, string> } {
  const parts = rawPath.split('/').filter(Boolean);
  for (const r of ROUTES) {
    if (r.method !== method.toUpperCase()) continue;
    const labels: Record<string, string> = {};
    // `{ResourceArn}` takes the rest of the path: an ARN sent with unencoded `/` still routes.
    const greedy = r.segments[r.segments.length - 1] === '{ResourceArn}';
    let ok = greedy ? parts.length >= r.segments.length : parts.length === r.segments.length;
    for (let i = 0; ok && i < r.segments.length; i++) {
      const seg = r.segments[i];
      if (seg.startsWith('{')) labels[seg.slice(1, -1)] = decode(greedy && i === r.segments.length - 1 ? parts.slice(i).join('/') : parts[i]);
      else if (seg !== parts[i]) ok = false;
    }
    if (ok) return { op: r.op, labels };
  }
  throw new AwsError('UnknownOperationException', `No operation matches ${method.toUpperCase()} ${rawPath.slice(0, 200)}`);
}

/** Query parameters as name → every value (decoded). */
function queryValues(rawQuery: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of rawQuery.split('&')) {
    if (!p) continue;
    const eq = p.indexOf('=');
    const k = decode(eq < 0 ? p : p.slice(0, eq));
    const v = decode(eq < 0 ? '' : p.slice(eq + 1));
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

/**
 * Route a request and gather its input.
 * @throws AwsError `UnknownOperationException` (no route), `SerializationException` (body not a JSON
 *   object, a query integer that is not one).
 */
export function routeRequest(method: string, rawPath: string, rawQuery: string, bodyText: string): { op: OperationName; input: Record<string, unknown> } {
  const { op, labels } = match(method, rawPath);
  const shape = inputShapeOf(op);
  const input: Record<string, unknown> = {};
  let body: Record<string, unknown> = {};
  if (bodyText.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      throw new AwsError('SerializationException', 'The request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AwsError('SerializationException', 'The request body must be a JSON object.');
    body = parsed as Record<string, unknown>;
  }
  const query = queryValues(rawQuery);
  for (const [name, member] of Object.entries(shape.members ?? {})) {
    const where = member.location;
    if (where === 'uri') {
      if (labels[member.locationName ?? name] !== undefined) input[name] = labels[member.locationName ?? name];
    } else if (where === 'querystring') {
      const values = query.get(member.locationName ?? name);
      if (!values) continue;
      const type = shapeNamed(member.shape).type;
      if (type === 'list') input[name] = values;
      else if (type === 'integer') {
        if (!/^-?\d+$/.test(values[0])) throw new AwsError('SerializationException', `Value '${values[0].slice(0, 64)}' at '${name}' is not an integer`);
        input[name] = Number(values[0]);
      } else input[name] = values[0];
    } else if (where === undefined && body[name] !== undefined && body[name] !== null) {
      input[name] = body[name];
    }
  }
  return { op, input };
}
