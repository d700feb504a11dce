/**
 * Check-in tokens (SPEC §16.1, docs/decisions.md 190): one URL per attempt. A token is 32 bytes in 43
 * base64url characters, whose last character carries 2 bits the bytes do not use; only the canonical
 * spelling is the attempt's token, so the per-token rate limit cannot be multiplied by respelling it.
 */
import { describe, expect, it } from 'vitest';
import { attemptToken, checkinKey, checkinToken, checkinUrls, maskCheckinTokens, runIdOfCheckinToken } from '../checkin-token';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const key = checkinKey(Buffer.alloc(32, 3));
const RUN = '0b7c4f8e-1d2a-4c3b-9e5f-6a7b8c9d0e1f';

describe('§16.1 check-in tokens', () => {
  it('the minted token names its run; a token of another key names none', () => {
    expect(runIdOfCheckinToken(key, checkinToken(key, RUN))).toBe(RUN);
    expect(runIdOfCheckinToken(checkinKey(Buffer.alloc(32, 4)), checkinToken(key, RUN))).toBeNull();
  });

  it('the other spellings of the same bytes (the last character\'s unused bits set) are refused', () => {
    const token = checkinToken(key, RUN);
    const bytes = Buffer.from(token, 'base64url');
    const respelled = [...ALPHABET]
      .map((c) => token.slice(0, -1) + c)
      .filter((t) => t !== token && Buffer.from(t, 'base64url').equals(bytes));
    expect(respelled).toHaveLength(3);
    for (const t of respelled) expect(runIdOfCheckinToken(key, t), t).toBeNull();
  });

  it('masking mints the attempt\'s token only when the text could hold one, and masks it wherever it is', () => {
    const urls = checkinUrls('https://scheduler.example', Buffer.alloc(32, 3));
    const token = checkinToken(key, RUN);
    let minted = 0;
    const lazy = () => {
      minted++;
      return attemptToken(urls, RUN)();
    };
    // A fire's result of ids: no run of 43 token characters, so no HMAC.
    const ids = { execution_id: RUN, revision_id: 'rev_01', session_id: '6a7b8c9d-0e1f-4c3b-9e5f-0b7c4f8e1d2a' };
    expect(maskCheckinTokens(ids, lazy)).toBe(ids);
    expect(minted).toBe(0);
    // The token alone, URL-encoded in a URL: found and masked (the function was called once).
    const echoed = { body: `seen ${token} and https%3A%2F%2Fx%2Fcb%2F${token}` };
    expect(maskCheckinTokens(echoed, lazy)).toEqual({ body: 'seen •••• and https%3A%2F%2Fx%2Fcb%2F••••' });
    expect(minted).toBe(1);
    // A long run of token characters that is not the token: looked for, nothing masked.
    const other = { body: 'A'.repeat(60) };
    expect(maskCheckinTokens(other, lazy)).toBe(other);
    expect(minted).toBe(2);
  });
});
