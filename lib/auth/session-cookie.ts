/**
 * The browser session cookie: its name and attributes, and the same-origin check for cookie-
 * authenticated form posts. Imports nothing, so `middleware.ts` (edge runtime) can use it too.
 */

/** Name of the cookie that carries the browser session token (HttpOnly, SameSite=Lax). */
export const SESSION_COOKIE = 'scheduler_session';

/**
 * Request header `middleware.ts` sets to the requested path + query, so a server component that finds
 * no valid session can send the browser to `/login?next=<that path>`.
 */
export const REQUEST_PATH_HEADER = 'x-scheduler-path';

/** How long a browser session lasts from login, in ms: 7 days (absolute, not sliding). */
export const WEB_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Attributes of the session cookie. `secure` when the request came over https. */
export function sessionCookieOptions(opts: { secure: boolean; expires: Date }) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: opts.secure, path: '/', expires: opts.expires };
}

/**
 * True when the request arrived over https (directly, or per a trusted proxy's `X-Forwarded-Proto`:
 * scripts/web-server.ts drops that header from anyone else, lib/api/edge-guard.ts).
 */
export function isHttpsRequest(headers: Headers, url: string): boolean {
  const forwarded = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === 'https';
  return url.startsWith('https:');
}

/**
 * CSRF guard for cookie-authenticated form posts (login, logout), the same rule Next.js applies to
 * server actions: when the browser sends `Origin`, its host must be the request's host
 * (`X-Forwarded-Host`, which the web server sets from a trusted proxy or else from `Host`). `Origin: null` (sandboxed or privacy-
 * redirected documents) is refused. A request without `Origin` (not a browser, or a very old one)
 * passes: modern browsers send `Origin` on every cross-site POST, and SameSite=Lax keeps the cookie
 * off cross-site subrequests anyway.
 */
export function isSameOriginPost(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (origin === null) return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return false;
  }
  const host = (headers.get('x-forwarded-host')?.split(',')[0] ?? headers.get('host') ?? '').trim().toLowerCase();
  return host !== '' && originHost === host;
}

/**
 * Where to go after login: `next` when it is a path on this site (`/…`, not `//…` or `/\…`, which
 * browsers read as another host), else `/schedulers`. Stops open redirects through `?next=`.
 * Characters outside printable ASCII are percent-encoded (UTF-8), so the result is always a valid
 * `Location` header value; a lone surrogate (no UTF-8 form) gives `/schedulers`.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 2048) return '/schedulers';
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/schedulers';
  if (/[\u0000-\u001f\u007f]/.test(next)) return '/schedulers';
  if (next === '/login' || next.startsWith('/login?') || next.startsWith('/auth/')) return '/schedulers';
  try {
    return next.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  } catch {
    return '/schedulers';
  }
}
