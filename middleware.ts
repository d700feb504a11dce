/**
 * Runs before every page and route (not Next.js's static files):
 *
 * 1. **Content-Security-Policy with a per-request nonce** (docs/decisions.md 28). Next.js reads the
 *    nonce from the request's CSP header and puts it on every script it writes (its inline RSC payload
 *    included), so `script-src` needs no `'unsafe-inline'`; `'strict-dynamic'` lets those scripts
 *    load the app's chunks. Pages are rendered per request (the root layout reads the headers), so a
 *    nonce is never reused. API answers get a policy that allows nothing.
 * 2. **Login required.** Every page but `/login` and `/invite/…` needs a browser session (SPEC §2).
 *    Here only the session cookie's PRESENCE is checked, and a browser without one is sent to
 *    `/login?next=<page>`; whether the session is valid is decided against the database by
 *    `getWebActor()` (app/lib/server.ts), because the edge runtime cannot reach the database. The
 *    requested path is passed to server components in a request header, for the `next` of that redirect.
 *
 * The EventBridge-compatible API (`/schedules…`, `/schedule-groups…`, `/tags/…`: SigV4-signed, SPEC §14)
 * is an API like `/api/**`: no session, and the policy that allows nothing.
 *
 * The host and scheme of the redirect come from `X-Forwarded-Host` / `-Proto`, which
 * scripts/web-server.ts has already reduced to values a client cannot forge (lib/api/edge-guard.ts).
 */
import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_PATH_HEADER, SESSION_COOKIE } from './lib/auth/session-cookie';

/** The page policy, with `nonce` for scripts. `next dev` also needs `'unsafe-eval'` (React's debugging). */
function pagePolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // React writes style attributes (the grid's column widths); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** JSON and text answers render nothing: they may load, frame or post nothing. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The EventBridge-compatible API's paths (SPEC §14; the same rule as lib/api/edge-guard.ts, which this
 * Edge-runtime module cannot import). `/schedulers/…` (the web app's pages) is not one of them.
 */
const EVENTBRIDGE_PATH = /^\/(schedules|schedule-groups|tags)(\/|$)/;

/** Pages a browser may open without a session. */
function isPublicPage(path: string): boolean {
  return path === '/login' || path.startsWith('/invite/') || path.startsWith('/auth/') || /^\/(icon\.svg|favicon\.ico|robots\.txt)$/.test(path);
}

export function middleware(req: NextRequest): NextResponse {
  const pathname = req.nextUrl.pathname;
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname === '/metrics' || EVENTBRIDGE_PATH.test(pathname)) {
    const res = NextResponse.next();
    res.headers.set('content-security-policy', API_POLICY);
    return res;
  }
  const nonce = btoa(crypto.randomUUID());
  // NODE_ENV is written into the middleware bundle by Next.js at build time (the edge runtime has no
  // lib/config: it cannot load node:net).
  const csp = pagePolicy(nonce, process.env.NODE_ENV === 'development');
  const path = `${pathname}${req.nextUrl.search}`;
  if (!isPublicPage(pathname) && !req.cookies.get(SESSION_COOKIE)?.value) {
    // On the host the browser asked for: req.nextUrl carries the server's own hostname, which may
    // differ, and cookies are per host.
    const host = req.headers.get('x-forwarded-host') || req.headers.get('host') || req.nextUrl.host;
    const proto = req.headers.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
    const url = new URL(path === '/' ? '/login' : `/login?${new URLSearchParams({ next: path })}`, `${proto}://${host}`);
    const res = NextResponse.redirect(url, 303);
    res.headers.set('cache-control', 'no-store');
    res.headers.set('content-security-policy', csp);
    return res;
  }
  const headers = new Headers(req.headers);
  headers.set(REQUEST_PATH_HEADER, path);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('content-security-policy', csp);
  return res;
}

/**
 * Not Next.js's static files, and not `/api/…`: an API request needs nothing here but the constant
 * deny-all policy, which next.config.ts `headers()` sets on it (running this function in the edge
 * sandbox, with the request body copied for it, was ~6 % of a create's CPU: docs/performance.md).
 * `/api` itself, `/metrics` and the EventBridge paths still come here for the same policy.
 */
export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image|api/).*)' }],
};
