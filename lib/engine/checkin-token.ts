/**
 * Check-in URLs (SPEC §16.1): `<base>/api/v1/checkins/<token>`, one per attempt, where the token is
 * the attempt's run id and a 128-bit HMAC of it under a key derived from the server key
 * (docs/decisions.md 190). Nothing is stored: any process holding the server key mints the same URL
 * for a run (a recovered delivery repeats its URL), and verifying a token needs no database read, so
 * an unknown or forged token costs one HMAC and answers the same 404 as every other unknown token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MASKED_CHECKIN_TOKEN } from '../targets';

/** Bytes of the run id (a UUID) and of the MAC in a token. */
const ID_BYTES = 16;
const MAC_BYTES = 16;
/** base64url of 32 bytes. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** What the subkey is derived for: changing it invalidates every outstanding check-in URL. */
const PURPOSE = 'scheduler check-in tokens v1';

/** How an engine names each attempt's check-in URL (composed by a process's edge, `checkinUrls`). */
export interface CheckinUrls {
  /** The check-in URL of the attempt recorded as run `runId` (a UUID). */
  url(runId: string): string;
}

/** The path under the public URL that serves check-ins (app/api/v1/checkins). */
export const CHECKIN_PATH = '/api/v1/checkins/';

/** The subkey of `serverKey` (32 bytes) for check-in tokens. */
export function checkinKey(serverKey: Buffer): Buffer {
  return createHmac('sha256', serverKey).update(PURPOSE).digest();
}

function uuidBytes(runId: string): Buffer {
  const hex = runId.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`a check-in token names a run id (a lowercase UUID), not "${runId.slice(0, 40)}"`);
  return Buffer.from(hex, 'hex');
}

function macOf(key: Buffer, id: Buffer): Buffer {
  return createHmac('sha256', key).update(id).digest().subarray(0, MAC_BYTES);
}

/** The token of run `runId` under subkey `key` (`checkinKey`): 43 base64url characters. */
export function checkinToken(key: Buffer, runId: string): string {
  const id = uuidBytes(runId);
  return Buffer.concat([id, macOf(key, id)]).toString('base64url');
}

/**
 * The run id a token names, or null when it is not one this key minted (compared in constant time).
 * Pure but for the HMAC: no database read.
 */
export function runIdOfCheckinToken(key: Buffer, token: string): string | null {
  if (!TOKEN_PATTERN.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== ID_BYTES + MAC_BYTES) return null;
  // One spelling per attempt: the last character's 2 unused bits must be zero, as minted; otherwise
  // four URLs would name one run and each have its own rate limit.
  if (bytes.toString('base64url') !== token) return null;
  const id = bytes.subarray(0, ID_BYTES);
  if (!timingSafeEqual(macOf(key, id), bytes.subarray(ID_BYTES))) return null;
  const hex = id.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Check-in URLs under `publicUrl` (SCHEDULER_PUBLIC_URL, no trailing slash needed) with the server
 * key `serverKey`: what a process's edge gives its engine (worker/main.ts, lib/api/runtime.ts).
 */
export function checkinUrls(publicUrl: string, serverKey: Buffer): CheckinUrls {
  const base = publicUrl.replace(/\/+$/, '') + CHECKIN_PATH;
  const key = checkinKey(serverKey);
  return { url: (runId) => base + checkinToken(key, runId) };
}

/** A check-in URL's path and token inside any text (a token is 43 base64url characters). */
const CHECKIN_URL_TOKEN = /\/api\/v1\/checkins\/[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/**
 * `value` (JSON) with every check-in token in its strings masked: each check-in URL's token
 * (`…/api/v1/checkins/••••`), and every occurrence of the tokens `tokens` answers (an attempt's own
 * token, `attemptToken`; asked only when the text could hold one) however it is written around — alone, in a URL-encoded or slash-escaped URL — since
 * a token's base64url characters survive those encodings unchanged. What runs, dead letters and
 * check-in messages keep of a request or an answer that carried one (SPEC §13.4, §16.1; decision 361):
 * a token is the credential of its attempt's outcome; the record shows where, never which. Pure.
 */
export function maskCheckinTokens<T>(value: T, tokens?: () => readonly string[]): T {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  let masked = text.includes(CHECKIN_PATH) ? text.replace(CHECKIN_URL_TOKEN, CHECKIN_PATH + MASKED_CHECKIN_TOKEN) : text;
  // `tokens` is called only when the text could hold one (43 base64url characters in a row): a
  // fire's result of ids holds none, and minting a token costs an HMAC.
  const given = tokens && hasTokenRun(masked) ? tokens() : [];
  for (const token of given) if (masked.includes(token)) masked = masked.replaceAll(token, MASKED_CHECKIN_TOKEN);
  return masked === text ? value : (JSON.parse(masked) as T);
}

/**
 * Whether `text` has 43 base64url characters in a row: the least text a token (`checkinToken`) can be
 * found in. One pass over the text (a regular expression backtracks up to 42 characters at each start).
 */
function hasTokenRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A–Z, a–z, 0–9, '-', '_'
    const token = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95;
    run = token ? run + 1 : 0;
    if (run === 43) return true;
  }
  return false;
}

/**
 * The check-in token of run `runId`'s attempt (what `maskCheckinTokens` must find), or none when the
 * engine mints no check-in URLs; as a function, so `maskCheckinTokens` mints it only when needed.
 */
export function attemptToken(checkins: CheckinUrls | null, runId: string): () => string[] {
  return () => {
    if (!checkins) return [];
    const url = checkins.url(runId);
    return [url.slice(url.lastIndexOf('/') + 1)];
  };
}
