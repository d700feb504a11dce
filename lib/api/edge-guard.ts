/**
 * The first look at every HTTP request, before Next.js sees it (scripts/web-server.ts calls this for
 * each request; docs/decisions.md 48–50). Pure: no I/O, no database, no `process.env`.
 *
 * 1. **Forwarded headers.** `X-Forwarded-For`, `-Host` and `-Proto` are believed only when the socket's
 *    peer is a trusted proxy (SCHEDULER_TRUSTED_PROXIES); otherwise they, `Forwarded` and `X-Real-IP`
 *    are dropped. Either way the request then carries exactly one value of each, the resolved one, so
 *    everything downstream (the login limiter, the login redirect's `Location`, the same-origin check
 *    of forms and server actions, the Secure cookie flag, HSTS) reads a value a client cannot forge.
 * 2. **Server actions** (every POST to a page): a foreign `Origin` (or `Origin: null`) is `403`, a body
 *    over 1 MiB `413 request_too_large`, a body of unknown length `411 length_required`, instead of Next.js's generic 500.
 * 3. **API and form bodies** (`/api/**`, `/auth/**`, the EventBridge API's paths) over 1 MiB: `413 request_too_large`. Bodies sent
 *    without a length are capped while they are read (`readBodyText`).
 */
import { BlockList, isIP } from 'node:net';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../errors';

/** Largest body accepted by the product API and the login / invitation forms, in bytes (1 MiB). */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;
/** Largest server-action body, in bytes (1 MiB, Next.js's own default limit). */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

/** Header carrying the resolved client address to the app (set here; a client's own copy is dropped). */
export const CLIENT_ADDRESS_HEADER = 'x-scheduler-client-address';

type NodeHeaders = Record<string, string | string[] | undefined>;

export interface EdgeRequest {
  method: string;
  /** Path and query as received (`/api/v1/…?x=1`). */
  url: string;
  /** The socket peer's address (`127.0.0.1`, `::ffff:10.0.0.5`, `::1`). */
  remoteAddress: string;
  /** Node's request headers (lowercase names); normalized IN PLACE by `guardRequest`. */
  headers: NodeHeaders;
}

export interface Refusal {
  status: number;
  body: ErrorBody;
}

export interface Forwarding {
  /** The client's address: the socket peer, or (behind trusted proxies) the nearest untrusted hop. */
  clientAddress: string;
  /** The host the client asked for (`Host`, or the trusted proxy's `X-Forwarded-Host`). */
  host: string;
  /** `https` or `http`: the trusted proxy's `X-Forwarded-Proto`, else the socket's own. */
  proto: 'http' | 'https';
}

/** A matcher for `address/prefix` blocks (lib/config's `http.trustedProxies`). */
export function proxyMatcher(blocks: string[]): (address: string) => boolean {
  if (blocks.length === 0) return () => false;
  const list = new BlockList();
  for (const block of blocks) {
    const [addr, prefix] = block.split('/');
    list.addSubnet(addr, Number(prefix), isIP(addr) === 6 ? 'ipv6' : 'ipv4');
  }
  return (address) => {
    const a = plainAddress(address);
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** `::ffff:10.0.0.5` → `10.0.0.5`; anything else unchanged (lowercased). */
export function plainAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped ? mapped[1] : a;
}

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  const head = v?.split(',')[0]?.trim();
  return head || undefined;
}

/**
 * Resolve the client address, host and scheme of `req` and rewrite its headers to those single
 * values (see the file comment). `encrypted`: the socket itself is TLS.
 */
export function resolveForwarding(req: EdgeRequest, isTrusted: (address: string) => boolean, encrypted = false): Forwarding {
  const h = req.headers;
  const peer = plainAddress(req.remoteAddress || 'unknown');
  let clientAddress = peer;
  let host = first(h.host) ?? '';
  let proto: 'http' | 'https' = encrypted ? 'https' : 'http';
  if (isTrusted(peer)) {
    // Right to left: the entries proxies appended; the first one not of a trusted proxy is the client.
    const hops = (Array.isArray(h['x-forwarded-for']) ? h['x-forwarded-for'].join(',') : (h['x-forwarded-for'] ?? ''))
      .split(',')
      .map((s) => plainAddress(s))
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      clientAddress = hops[i];
      if (!isTrusted(hops[i])) break;
    }
    host = first(h['x-forwarded-host']) ?? host;
    const fp = first(h['x-forwarded-proto'])?.toLowerCase();
    if (fp === 'https' || fp === 'http') proto = fp;
  }
  for (const name of ['forwarded', 'x-real-ip', 'x-forwarded-port', CLIENT_ADDRESS_HEADER]) delete h[name];
  h['x-forwarded-for'] = clientAddress;
  h['x-forwarded-host'] = host;
  h['x-forwarded-proto'] = proto;
  h[CLIENT_ADDRESS_HEADER] = clientAddress;
  return { clientAddress, host, proto };
}

function refusal(code: ErrorCode, message: string): Refusal {
  return { status: ERROR_STATUS[code], body: { error: { code, message } } };
}

/**
 * The EventBridge-compatible API's paths (SPEC §14): `/schedules…`, `/schedule-groups…`, `/tags/…`
 * (not the web app's `/schedulers/…`). middleware.ts keeps the same rule (it cannot import this module).
 */
export const EVENTBRIDGE_PATH = /^\/(schedules|schedule-groups|tags)(\/|$)/;

/**
 * Paths of API requests (JSON or form posts of our own routes): their bodies are limited to 1 MiB,
 * and scripts/web-server.ts writes their access lines at `info`.
 */
export function isApiPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/api' || path.startsWith('/auth/') || EVENTBRIDGE_PATH.test(path);
}

/** Is `req` (method, path) a server action? Pages answer GET/HEAD; any other POST to a page is one. */
function isServerAction(req: EdgeRequest, path: string): boolean {
  if (req.method !== 'POST') return false;
  return !(isApiPath(path) || path.startsWith('/_next/') || path === '/metrics');
}

/**
 * Normalize the forwarded headers of `req` (in place) and decide whether it may go on to Next.js.
 * @returns `{forwarding}` to continue, or `{forwarding, refusal}` to answer at once with that status
 *   and SPEC error body (`403 forbidden`, `411 length_required`, `413 request_too_large`).
 */
export function guardRequest(req: EdgeRequest, isTrusted: (address: string) => boolean, encrypted = false): { forwarding: Forwarding; refusal?: Refusal } {
  const forwarding = resolveForwarding(req, isTrusted, encrypted);
  const path = req.url.split('?')[0] ?? '/';
  const lengthText = first(req.headers['content-length']);
  const length = lengthText !== undefined && /^\d+$/.test(lengthText) ? Number(lengthText) : null;
  if (isServerAction(req, path)) {
    const origin = first(req.headers.origin);
    if (origin !== undefined) {
      let originHost: string | null = null;
      try {
        originHost = origin === 'null' ? null : new URL(origin).host.toLowerCase();
      } catch {
        originHost = null;
      }
      if (originHost === null || originHost !== forwarding.host.toLowerCase()) {
        return { forwarding, refusal: refusal('forbidden', 'cross-site form posts are refused') };
      }
    }
    if (length === null) return { forwarding, refusal: refusal('length_required', 'a form post must say its length (Content-Length)') };
    if (length > ACTION_BODY_LIMIT_BYTES) {
      return { forwarding, refusal: refusal('request_too_large', `a form post may carry at most ${ACTION_BODY_LIMIT_BYTES} bytes`) };
    }
  } else if (length !== null && length > API_BODY_LIMIT_BYTES && isApiPath(path)) {
    return { forwarding, refusal: refusal('request_too_large', `the request body may be at most ${API_BODY_LIMIT_BYTES} bytes`) };
  }
  return { forwarding };
}

/** A path segment named so (any case) is followed by a credential: a check-in token (SPEC §16.1), an invitation token. */
const TOKEN_FOLLOWS = new Set(['checkins', 'invite']);

/**
 * The path of a request target as an access log line may show it: without the query string or
 * fragment (they may hold tokens), and with a token that IS a path segment masked as `••••` (the mask
 * of a recorded check-in URL, decision 361): `/api/v1/checkins/<token>/fail` → `/api/v1/checkins/••••/fail`.
 * The path is shown as the router reads it, so no spelling gets a token past the mask: percent-decoded
 * (`checkins%2F<t>`, `%63heckins`; left raw if it does not decode), runs of `/` (and `\`) as one `/`
 * (`//invite/<t>`, `checkins//<t>`), and every segment after the first `checkins` or `invite` segment
 * (any case, `;` parameters aside) masked but for a check-in's last word (decision 398).
 */
export function loggablePath(url: string): string {
  const end = url.search(/[?#]/);
  const raw = end === -1 ? url : url.slice(0, end);
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape (a lone `%`): split and mask the raw path.
  }
  const segments = decoded.replace(/[/\\]+/g, '/').split('/');
  // Everything after a `checkins` / `invite` segment (its name read without `;` parameters) is masked
  // — a token may be spelled over several segments (`<x>/../<token>`) — but for a check-in's own last
  // word (`start`, `fail`, an exit code), which is no secret and says what the request was.
  const at = segments.findIndex((seg) => TOKEN_FOLLOWS.has(seg.split(';')[0].toLowerCase()));
  if (at === -1) return segments.join('/');
  const last = segments.length - 1;
  return segments
    .map((seg, i) => (i <= at || seg === '' || (i === last && i > at + 1 && CHECKIN_WORD.test(seg)) ? seg : '••••'))
    .join('/');
}

/** The last word of a check-in path after its token (lib/api/checkins.ts): kept in the access line. */
const CHECKIN_WORD = /^(start|fail|\d{1,3})$/;
