/**
 * JSON bodies at the HTTP edge (lib/api/body.ts): nesting deeper than 64, lone surrogates and invalid
 * UTF-8 are `400 invalid_request_body` with a path; over 1 MiB `413 request_too_large`, also without
 * a Content-Length. Property test: any JSON value within the limits parses to itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonBody, readBodyText, readJsonBody } from '../body';

const nested = (depth: number) => '['.repeat(depth - 1) + '{"a":1}' + ']'.repeat(depth - 1);

describe('parseJsonBody', () => {
  it('accepts 64 levels, refuses 65 (and 10,000) with the path of the first value too deep', () => {
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toThrow(expect.objectContaining({ code: 'invalid_request_body', path: Array(MAX_JSON_DEPTH).fill('0').join('.') }));
    expect(() => parseJsonBody(nested(10_000))).toThrow(expect.objectContaining({ code: 'invalid_request_body', message: expect.stringContaining('at most 64 levels') }));
    const deepInput = `{"invocation_target":{"input_data":[{"alias":"x","value":${nested(70)}}]}}`;
    expect(() => parseJsonBody(deepInput)).toThrow(expect.objectContaining({ path: expect.stringMatching(/^invocation_target\.input_data\.0\.value(\.0)+$/) }));
  });

  it('refuses a lone surrogate in a string or a key, with its path; a proper pair passes', () => {
    expect(() => parseJsonBody('{"description":"\\ud800"}')).toThrow(expect.objectContaining({ code: 'invalid_request_body', path: 'description' }));
    expect(() => parseJsonBody('{"a":{"\\udc00x":1}}')).toThrow(expect.objectContaining({ path: 'a' }));
    expect(parseJsonBody('{"description":"\\ud83d\\ude00"}')).toEqual({ description: '😀' });
  });

  it('any JSON value within the limits parses to itself', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (v) => {
        const text = JSON.stringify(v);
        expect(parseJsonBody(text)).toEqual(JSON.parse(text));
      }),
    );
  });
});

describe('readBodyText', () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) => new Request('http://x/api', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

  it('refuses invalid UTF-8 instead of storing U+FFFD', async () => {
    await expect(readJsonBody(post(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])))).rejects.toMatchObject({ code: 'invalid_request_body', message: 'the request body is not valid UTF-8' });
    expect(await readBodyText(post('{"a":"é"}'))).toBe('{"a":"é"}');
  });

  it('over 1 MiB is 413, whether the length is declared or the body streams without one', async () => {
    await expect(readBodyText(post('x', { 'content-length': String(2 * 1024 * 1024) }))).rejects.toMatchObject({ code: 'request_too_large', status: 413 });
    const big = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 3; i++) c.enqueue(new Uint8Array(512 * 1024));
        c.close();
      },
    });
    await expect(readBodyText(post(big))).rejects.toMatchObject({ code: 'request_too_large', status: 413 });
  });
});
