/**
 * AWS Signature Version 4 verification for the EventBridge-compatible API (SPEC §14): every request is
 * signed with an access key pair for service `scheduler`, in any region of AWS's form (the region
 * signed chooses the groups seen and is the region of the ARNs answered). The signature is recomputed from the request as received and compared
 * in constant time. Refusals are AWS's own (code, HTTP 403, message):
 * - no `Authorization` header: `MissingAuthenticationTokenException`;
 * - a malformed one, or no `X-Amz-Date`: `IncompleteSignatureException`;
 * - a timestamp more than 15 minutes from the server's clock, a scope of another service or date,
 *   a region not in AWS's form, or a wrong signature: `InvalidSignatureException`;
 * - an access key id nobody holds (unknown or revoked): `UnrecognizedClientException`;
 * - a session token (`X-Amz-Security-Token`, header or query, any value): `UnrecognizedClientException`
 *   "The security token included in the request is invalid." — the product issues no session tokens,
 *   so any token is one it did not issue (SPEC §14 "Signing", decision 310);
 * - an `x-amz-content-sha256` that is not a SHA-256 (`UNSIGNED-PAYLOAD`, `STREAMING-…`: SPEC §14
 *   "Signing", the payload must be signed): `InvalidSignatureException` naming the header. The
 *   signature is always computed over the body's own SHA-256, so a body swapped after signing, or a
 *   declared hash that is not the body's, is a wrong signature.
 * Header-signed requests only (what the AWS CLI, boto3 and the SDKs send); no presigned URLs.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AwsError } from './errors';
import { isAwsRegion } from '../../config';

export const SIGNING_SERVICE = 'scheduler';
const ALGORITHM = 'AWS4-HMAC-SHA256';
/** How far a request's X-Amz-Date may be from the server's clock (AWS: 15 minutes). */
export const MAX_CLOCK_SKEW_MS = 15 * 60_000;

/** The parts of a request that SigV4 signs, as received. */
export interface SignedRequest {
  method: string;
  /** The path as sent on the wire, still percent-encoded (`/tags/arn%3Aaws%3A…`). */
  rawPath: string;
  /** The query string as sent, without `?`. */
  rawQuery: string;
  headers: Headers;
  body: Uint8Array;
}

/** A verified request's signer. */
export interface VerifiedSignature {
  accessKeyId: string;
  /** The region of the credential scope. */
  region: string;
}

/** `Credential=AKID/20260101/us-east-1/scheduler/aws4_request, SignedHeaders=a;b, Signature=hex`. */
interface ParsedAuthorization {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  terminator: string;
  signedHeaders: string[];
  signature: string;
}

export function parseAuthorization(header: string): ParsedAuthorization {
  const text = header.trim();
  const [algorithm, ...rest] = text.split(/\s+/);
  const params = new Map<string, string>();
  for (const part of rest.join(' ').split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const missing = ['Credential', 'Signature', 'SignedHeaders'].filter((k) => !params.get(k));
  if (algorithm !== ALGORITHM || missing.length) {
    const needs = (missing.length ? missing : ['Credential', 'Signature', 'SignedHeaders']).map((k) => `Authorization header requires '${k}' parameter.`);
    throw new AwsError('IncompleteSignatureException', `${needs.join(' ')} Authorization=${text.slice(0, 200)}`);
  }
  const scope = params.get('Credential')!.split('/');
  if (scope.length !== 5 || scope.some((s) => s === '')) {
    throw new AwsError('IncompleteSignatureException', `Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '${params.get('Credential')!.slice(0, 200)}'`);
  }
  const [accessKeyId, date, region, service, terminator] = scope;
  return {
    accessKeyId,
    date,
    region,
    service,
    terminator,
    signedHeaders: params.get('SignedHeaders')!.split(';').map((h) => h.trim().toLowerCase()),
    signature: params.get('Signature')!.toLowerCase(),
  };
}

/** RFC 3986 percent-encoding as SigV4 wants it (unreserved characters kept, everything else `%XX`). */
export function uriEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The canonical URI of a non-S3 service: dot segments and empty segments removed, then the wire path
 * (already encoded once) encoded again, `/` kept — what botocore and the JS SDK sign.
 */
export function canonicalUri(rawPath: string, doubleEncode = true): string {
  const segments: string[] = [];
  for (const seg of rawPath.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') segments.pop();
    else segments.push(seg);
  }
  const normalized = `/${segments.join('/')}${segments.length > 0 && rawPath.endsWith('/') ? '/' : ''}`;
  return doubleEncode ? uriEscape(normalized).replace(/%2F/g, '/') : normalized;
}

/** Decode a query component leniently (a stray `%` stays as it is). */
function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The canonical query string: each name and value decoded then RFC 3986-encoded, sorted by name then value. */
export function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  const pairs = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      const k = eq < 0 ? p : p.slice(0, eq);
      const v = eq < 0 ? '' : p.slice(eq + 1);
      return [uriEscape(decodeComponent(k)), uriEscape(decodeComponent(v))] as const;
    });
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** The canonical request (SigV4 task 1) for `signedHeaders`. */
export function canonicalRequest(req: SignedRequest, signedHeaders: string[], uri: string): string {
  const headerLines = signedHeaders.map((h) => `${h}:${(req.headers.get(h) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  // SPEC §14 "Signing": the payload is always signed; the hash is the body's own, never a declared one.
  const payloadHash = sha256Hex(req.body);
  return [req.method.toUpperCase(), uri, canonicalQuery(req.rawQuery), headerLines, signedHeaders.join(';'), payloadHash].join('\n');
}

/** The signature of `canonical` (SigV4 tasks 2–4). */
export function signature(canonical: string, secret: string, amzDate: string, date: string, region: string, service: string): string {
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
}

/** `20260101T120000Z` → epoch ms, or null. */
function parseAmzDate(s: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) return null;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(ms) ? null : ms;
}

const amz = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * Verify `req`'s signature at instant `now`. `secretOf` returns the secret of an access key id, or
 * null when no active pair has it.
 * @throws AwsError (see the module comment for which).
 */
export async function verifySigV4(req: SignedRequest, now: Date, secretOf: (accessKeyId: string) => Promise<string | null>): Promise<VerifiedSignature> {
  const header = req.headers.get('authorization');
  if (!header) throw new AwsError('MissingAuthenticationTokenException', 'Missing Authentication Token');
  const auth = parseAuthorization(header);
  if (auth.terminator !== 'aws4_request') {
    throw new AwsError('IncompleteSignatureException', `Credential should be scoped with a valid terminator: 'aws4_request', not '${auth.terminator.slice(0, 64)}'.`);
  }
  if (auth.service !== SIGNING_SERVICE) throw new AwsError('InvalidSignatureException', `Credential should be scoped to correct service: '${SIGNING_SERVICE}'. `);
  // SPEC §14: a region not in AWS's form is an unknown credential scope, refused in AWS's words (EVENTBRIDGE.md §9).
  if (!isAwsRegion(auth.region)) throw new AwsError('InvalidSignatureException', `Credential should be scoped to a valid region, not '${auth.region.slice(0, 64)}'. `);
  if (!auth.signedHeaders.includes('host')) throw new AwsError('InvalidSignatureException', "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");

  const amzDate = req.headers.get('x-amz-date') ?? '';
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === null) throw new AwsError('IncompleteSignatureException', "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  if (auth.date !== amzDate.slice(0, 8)) {
    throw new AwsError('InvalidSignatureException', `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${auth.date.slice(0, 16)}' != '${amzDate.slice(0, 8)}', from '${amzDate}'.`);
  }
  const skew = signedAt - now.getTime();
  if (skew < -MAX_CLOCK_SKEW_MS) {
    throw new AwsError('InvalidSignatureException', `Signature expired: ${amzDate} is now earlier than ${amz(now.getTime() - MAX_CLOCK_SKEW_MS)} (${amz(now.getTime())} - 15 min.)`);
  }
  if (skew > MAX_CLOCK_SKEW_MS) {
    throw new AwsError('InvalidSignatureException', `Signature not yet current: ${amzDate} is still later than ${amz(now.getTime() + MAX_CLOCK_SKEW_MS)} (${amz(now.getTime())} + 15 min.)`);
  }

  const declared = req.headers.get('x-amz-content-sha256');
  // A declared hash is checked by the signature itself (computed over the body's own hash, above);
  // anything else declared (UNSIGNED-PAYLOAD, STREAMING-…) says the body was not signed.
  if (declared !== null && !/^[0-9a-f]{64}$/i.test(declared)) {
    throw new AwsError('InvalidSignatureException', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }

  // SPEC §14 "Signing": the product issues no session tokens, so whatever token is sent is not one of
  // its own; refused before the key is looked up, as AWS refuses a token it cannot validate.
  if (req.headers.has('x-amz-security-token') || /(^|&)x-amz-security-token=/i.test(req.rawQuery)) {
    throw new AwsError('UnrecognizedClientException', 'The security token included in the request is invalid.');
  }

  const secret = await secretOf(auth.accessKeyId);
  if (secret === null) throw new AwsError('UnrecognizedClientException', 'The security token included in the request is invalid.');

  const given = Buffer.from(auth.signature, 'utf8');
  // The path as botocore and the JS SDK sign it (encoded twice); clients that sign the wire path as it is are accepted too.
  for (const doubleEncode of [true, false]) {
    const expected = signature(canonicalRequest(req, auth.signedHeaders, canonicalUri(req.rawPath, doubleEncode)), secret, amzDate, auth.date, auth.region, auth.service);
    const want = Buffer.from(expected, 'utf8');
    if (want.length === given.length && timingSafeEqual(want, given)) return { accessKeyId: auth.accessKeyId, region: auth.region };
  }
  throw new AwsError(
    'InvalidSignatureException',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  );
}
