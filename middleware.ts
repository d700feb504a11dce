/**
 * Every page but `/login` needs a browser session (SPEC §2). This edge middleware only checks that the
 * session cookie is PRESENT and sends the browser to `/login?next=<page>` when it is not; whether the
 * session is valid is decided against the database by `getWebActor()` (app/lib/server.ts), because
 * the edge runtime cannot reach the database. It also passes the requested path to server components
 * in a request header, for the `next` of that redirect.
 *
 * Not matched: the API (`/api/**`, API keys only), the EventBridge-compatible API (`/schedules…`,
 * `/schedule-groups…`, `/tags/…`, SigV4-signed, SPEC §14), `/metrics`, the login page and its form
 * targets (`/auth/**`), and Next.js assets.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_PATH_HEADER, SESSION_COOKIE } from './lib/auth/session-cookie';

export function middleware(req: NextRequest): NextResponse {
  const path = `${req.nextUrl.pathname}${req.nextUrl.search}`;
  if (!req.cookies.get(SESSION_COOKIE)?.value) {
    // On the host the browser asked for (its Host header, or the proxy's X-Forwarded-Host): req.nextUrl
    // carries the server's own hostname, which may differ, and cookies are per host.
    const host = req.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || req.headers.get('host') || req.nextUrl.host;
    const proto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || req.nextUrl.protocol.replace(':', '');
    const url = new URL(path === '/' ? '/login' : `/login?${new URLSearchParams({ next: path })}`, `${proto}://${host}`);
    const res = NextResponse.redirect(url, 303);
    res.headers.set('cache-control', 'no-store');
    return res;
  }
  const headers = new Headers(req.headers);
  headers.set(REQUEST_PATH_HEADER, path);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ['/((?!api/|api$|schedules/|schedules$|schedule-groups/|schedule-groups$|tags/|metrics$|login$|auth/|_next/|icon\\.svg$|favicon\\.ico$|robots\\.txt$).*)'],
};
