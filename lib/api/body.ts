/**
 * Reading JSON request bodies at the HTTP edge (SPEC §3: malformed JSON is `400 invalid_request_body`).
 * Beyond JSON syntax, a body is refused, with the `path` of the offending value, when it:
 * - is larger than `API_BODY_LIMIT_BYTES` (1 MiB; `413 request_too_large`), also when sent without a length;
 * - is not valid UTF-8 (no silent U+FFFD replacement: what is stored is what was sent);
 * - nests arrays and objects deeper than `MAX_JSON_DEPTH` (64) levels;
 * - holds a string or key with a lone UTF-16 surrogate (`"\ud800"`: no UTF-8 form, so it could not be
 *   stored or echoed faithfully).
 * The walk is iterative, so no body can exhaust the stack.
 */
import { DomainError } from '../errors';
import { API_BODY_LIMIT_BYTES } from './edge-guard';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** True when `s` has a UTF-8 form (no lone UTF-16 surrogate). Pure. */
export const isWellFormed = (s: string) => !LONE_SURROGATE.test(s);

/** Deepest nesting of arrays and objects a JSON body may have (the body itself is depth 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * The body of `req` as text, at most `limit` bytes, strictly UTF-8.
 * @throws `413 request_too_large`; `400 invalid_request_body` (not UTF-8).
 */
export async function readBodyText(req: Request, limit = API_BODY_LIMIT_BYTES): Promise<string> {
  const bytes = await readBodyBytes(req, limit);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError('invalid_request_body', 'the request body is not valid UTF-8');
  }
}

/**
 * The body of `req` as bytes, at most `limit` bytes (its declared length, then what arrives).
 * @throws `413 request_too_large`.
 */
export async function readBodyBytes(req: Request, limit = API_BODY_LIMIT_BYTES): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

function tooLarge(limit: number): DomainError {
  return new DomainError('request_too_large', `the request body may be at most ${limit} bytes`);
}

/**
 * Parse `text` as JSON and check its depth and strings (see the file comment).
 * @throws `400 invalid_request_body`, with `path` (dotted, array indexes as numbers) when one value is at fault.
 */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('invalid_request_body', 'the request body is not valid JSON');
  }
  const stack: { v: unknown; path: string[]; depth: number }[] = [{ v: value, path: [], depth: 1 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isWellFormed(v)) throw refuse(path, 'a string holds a lone UTF-16 surrogate (no UTF-8 form)');
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_JSON_DEPTH) throw refuse(path, `JSON values may nest at most ${MAX_JSON_DEPTH} levels deep`);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, String(i)], depth: depth + 1 });
    } else {
      for (const [k, child] of Object.entries(v)) {
        if (!isWellFormed(k)) throw refuse(path, 'a key holds a lone UTF-16 surrogate (no UTF-8 form)');
        stack.push({ v: child, path: [...path, k], depth: depth + 1 });
      }
    }
  }
  return value;
}

function refuse(path: string[], message: string): DomainError {
  const dotted = path.join('.');
  return new DomainError('invalid_request_body', dotted ? `${dotted}: ${message}` : message, dotted ? { path: dotted } : {});
}

/** `readBodyText` then `parseJsonBody`. */
export async function readJsonBody(req: Request): Promise<unknown> {
  return parseJsonBody(await readBodyText(req));
}
