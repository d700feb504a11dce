/**
 * SPEC §14 "Credentials": SigV4 verification, with the AWS SDK's own signer (@smithy/signature-v4,
 * what @aws-sdk/client-scheduler signs with) as the oracle, and AWS's published test vector.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeSha256 } from '../../../testing/node-sha256';
import { AwsError } from '../errors';
import { canonicalQuery, canonicalRequest, canonicalUri, signature, verifySigV4, type SignedRequest } from '../sigv4';


const KEY = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const NOW = new Date('2026-03-08T12:00:00Z');

/** Sign like the SDK does (path already encoded once by the SDK's serializer), then hand the verifier what arrives. */
async function signed(opts: { method?: string; path?: string; query?: Record<string, string | string[]>; body?: string; at?: Date; secret?: string; service?: string; region?: string; headers?: Record<string, string> }): Promise<SignedRequest> {
  const signer = new SignatureV4({
    service: opts.service ?? 'scheduler',
    region: opts.region ?? 'eu-west-1',
    credentials: { accessKeyId: KEY.accessKeyId, secretAccessKey: opts.secret ?? KEY.secretAccessKey },
    sha256: NodeSha256,
  });
  const body = opts.body ?? '';
  const request = {
    method: opts.method ?? 'POST',
    protocol: 'http:',
    hostname: '127.0.0.1',
    port: 3602,
    path: opts.path ?? '/schedules/nightly',
    query: opts.query ?? {},
    headers: { host: '127.0.0.1:3602', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...opts.headers },
    body,
  };
  const out = await signer.sign(request, { signingDate: opts.at ?? NOW });
  const rawQuery = Object.entries(out.query ?? {})
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(String(x))}`))
    .join('&');
  return { method: out.method, rawPath: out.path, rawQuery, headers: new Headers(out.headers as Record<string, string>), body: Buffer.from(body) };
}

const secretOf = async (id: string) => (id === KEY.accessKeyId ? KEY.secretAccessKey : null);

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AwsError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('SigV4 verification (SPEC §14)', () => {
  it("AWS's test vector get-vanilla: the signature of the canonical request", () => {
    const req: SignedRequest = { method: 'GET', rawPath: '/', rawQuery: '', headers: new Headers({ host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z' }), body: new Uint8Array() };
    const canonical = canonicalRequest(req, ['host', 'x-amz-date'], canonicalUri('/'));
    expect(signature(canonical, KEY.secretAccessKey, '20150830T123600Z', '20150830', 'us-east-1', 'service')).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it('accepts what the SDK signs, in any region, and answers the signed region', async () => {
    expect(await verifySigV4(await signed({ body: '{"ScheduleExpression":"rate(5 minutes)"}' }), NOW, secretOf)).toEqual({ accessKeyId: KEY.accessKeyId, region: 'eu-west-1' });
    expect((await verifySigV4(await signed({ region: 'ap-southeast-2' }), NOW, secretOf)).region).toBe('ap-southeast-2');
  });

  it('accepts encoded ARN paths and repeated query parameters (UntagResource)', async () => {
    const arn = 'arn:aws:scheduler:eu-west-1:123456789012:schedule-group/my.group';
    const req = await signed({ method: 'DELETE', path: `/tags/${encodeURIComponent(arn)}`, query: { TagKeys: ['b key', 'a/key'] } });
    expect(req.rawPath).toBe('/tags/arn%3Aaws%3Ascheduler%3Aeu-west-1%3A123456789012%3Aschedule-group%2Fmy.group');
    expect((await verifySigV4(req, NOW, secretOf)).accessKeyId).toBe(KEY.accessKeyId);
  });

  it('property: any name and query the SDK signs verifies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 64 }), fc.string({ maxLength: 40 }), fc.string({ maxLength: 200 }), async (name, prefix, body) => {
        const req = await signed({ method: 'GET', path: `/schedules/${encodeURIComponent(name)}`, query: prefix ? { NamePrefix: prefix, MaxResults: '5' } : {}, body });
        expect((await verifySigV4(req, NOW, secretOf)).accessKeyId).toBe(KEY.accessKeyId);
      }),
      { numRuns: 60 },
    );
  });

  it('a wrong secret, a changed body, path or query: InvalidSignatureException', async () => {
    const mismatch = {
      code: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    };
    expect(await refusal(verifySigV4(await signed({ secret: 'another-secret' }), NOW, secretOf))).toEqual(mismatch);
    const req = await signed({ body: '{"a":1}' });
    expect(await refusal(verifySigV4({ ...req, body: Buffer.from('{"a":2}') }, NOW, secretOf))).toEqual(mismatch);
    expect(await refusal(verifySigV4({ ...req, rawPath: '/schedules/other' }, NOW, secretOf))).toEqual(mismatch);
    expect(await refusal(verifySigV4({ ...req, rawQuery: 'groupName=x' }, NOW, secretOf))).toEqual(mismatch);
  });

  it('the payload must be signed: UNSIGNED-PAYLOAD, or an x-amz-content-sha256 that is not the body\'s, is InvalidSignatureException (a body swapped after signing is refused)', async () => {
    const body = JSON.stringify({ ScheduleExpression: 'rate(1 hour)' });
    const unsigned = await signed({ body, headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
    const swapped = { ...unsigned, body: Buffer.from(JSON.stringify({ ScheduleExpression: 'rate(1 minute)' })) };
    for (const req of [unsigned, swapped]) {
      expect(await refusal(verifySigV4(req, NOW, secretOf))).toEqual({ code: 'InvalidSignatureException', message: "The provided 'x-amz-content-sha256' header does not match what was computed." });
    }
    // Declaring the body's own hash (as the SDK's signer does) is accepted; a body that is not the one hashed is a wrong signature.
    const sha = createHash('sha256').update(body).digest('hex');
    await expect(verifySigV4(await signed({ body, headers: { 'x-amz-content-sha256': sha } }), NOW, secretOf)).resolves.toMatchObject({ accessKeyId: KEY.accessKeyId });
    const declaredOther = await signed({ body, headers: { 'x-amz-content-sha256': sha } });
    expect((await refusal(verifySigV4({ ...declaredOther, body: Buffer.from('{}') }, NOW, secretOf))).code).toBe('InvalidSignatureException');
  });

  it('a session token (X-Amz-Security-Token, any value, signed or not, header or query) is UnrecognizedClientException, even with a valid key and signature', async () => {
    const invalid = { code: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
    // Signed as the SDK signs a session's requests: the token is a signed header.
    expect(await refusal(verifySigV4(await signed({ headers: { 'x-amz-security-token': 'FwoGZXIvYXdzEJr//////////wEaDDummy' } }), NOW, secretOf))).toEqual(invalid);
    expect(await refusal(verifySigV4(await signed({ headers: { 'x-amz-security-token': '' } }), NOW, secretOf))).toEqual(invalid);
    // Added after signing (not among the signed headers), and in the query string.
    const plain = await signed({});
    const headers = new Headers(plain.headers);
    headers.set('X-Amz-Security-Token', 'garbage');
    expect(await refusal(verifySigV4({ ...plain, headers }, NOW, secretOf))).toEqual(invalid);
    expect(await refusal(verifySigV4(await signed({ query: { 'X-Amz-Security-Token': 'garbage' } }), NOW, secretOf))).toEqual(invalid);
    // Without one, the same request is accepted.
    await expect(verifySigV4(plain, NOW, secretOf)).resolves.toMatchObject({ accessKeyId: KEY.accessKeyId });
  });

  it('an unknown (or revoked) access key id: UnrecognizedClientException', async () => {
    expect(await refusal(verifySigV4(await signed({}), NOW, async () => null))).toEqual({ code: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' });
  });

  it('a signature more than 15 minutes off the server clock: InvalidSignatureException, either way', async () => {
    const old = await signed({ at: new Date(NOW.getTime() - 20 * 60_000) });
    expect(await refusal(verifySigV4(old, NOW, secretOf))).toEqual({
      code: 'InvalidSignatureException',
      message: 'Signature expired: 20260308T114000Z is now earlier than 20260308T114500Z (20260308T120000Z - 15 min.)',
    });
    const future = await signed({ at: new Date(NOW.getTime() + 16 * 60_000) });
    expect((await refusal(verifySigV4(future, NOW, secretOf))).message).toBe('Signature not yet current: 20260308T121600Z is still later than 20260308T121500Z (20260308T120000Z + 15 min.)');
    // 14 minutes is inside the allowance.
    expect((await verifySigV4(await signed({ at: new Date(NOW.getTime() - 14 * 60_000) }), NOW, secretOf)).accessKeyId).toBe(KEY.accessKeyId);
  });

  it('another service in the scope, no Authorization header, a malformed one', async () => {
    expect((await refusal(verifySigV4(await signed({ service: 'events' }), NOW, secretOf))).code).toBe('InvalidSignatureException');
    const req = await signed({});
    req.headers.delete('authorization');
    expect(await refusal(verifySigV4(req, NOW, secretOf))).toEqual({ code: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' });
    req.headers.set('authorization', 'Bearer abc');
    expect((await refusal(verifySigV4(req, NOW, secretOf))).code).toBe('IncompleteSignatureException');
  });

  it('canonical query: decoded, RFC 3986-encoded, sorted by name then value', () => {
    expect(canonicalQuery('TagKeys=b&TagKeys=a%20b&MaxResults=5&NamePrefix=x%2Ay')).toBe('MaxResults=5&NamePrefix=x%2Ay&TagKeys=a%20b&TagKeys=b');
  });
});
