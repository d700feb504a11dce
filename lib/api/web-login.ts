/**
 * The browser login and logout endpoints (`POST /auth/login`, `POST /auth/logout`): the HTTP edge of
 * lib/auth/login.ts. The session token travels only in an HttpOnly, SameSite=Lax cookie (Secure over
 * https); the database keeps its hash. Both refuse a cross-site post (`Origin` ≠ host, see
 * `isSameOriginPost`) with `403 forbidden`, which is the CSRF protection of these two forms.
 *
 * Two answer styles, chosen by the request's Content-Type:
 * - a browser form (`application/x-www-form-urlencoded` / `multipart/form-data`): `303` to `next` on
 *   success, or back to `/login?error=<code>&next=…` on a refusal, where the page explains the code;
 * - JSON (`application/json`, scripts and tests): `200 {user}` on success, otherwise the SPEC error
 *   body with its status: `401 unauthorized`, `429 rate_limited`, `400 invalid_request_body`.
 */
import {
  DEVICE_COOKIE,
  DEVICE_TOKEN_TTL_MS,
  acceptInvitationAsUser,
  acceptInvitationWithNewAccount,
  endWebSession,
  findWebSession,
  InvitationAcceptInput,
  isHttpsRequest,
  isSameOriginPost,
  issueDeviceToken,
  login,
  LoginInput,
  parseAuthInput,
  safeNextPath,
  SESSION_COOKIE,
  sessionCookieOptions,
} from '../auth';
import { DomainError, isDomainError } from '../errors';
import { readJsonBody } from './body';
import { CLIENT_ADDRESS_HEADER } from './edge-guard';
import { errorResponse, json } from './http';
import { runtime } from './runtime';
import { edgeError } from './edge-error';

/** `Set-Cookie` value for the session cookie (`maxAge` 0 clears it). */
function sessionCookie(value: string, opts: { secure: boolean; expires: Date }): string {
  const o = sessionCookieOptions(opts);
  return [
    `${SESSION_COOKIE}=${value}`,
    `Path=${o.path}`,
    `Expires=${o.expires.toUTCString()}`,
    ...(value === '' ? ['Max-Age=0'] : []),
    'HttpOnly',
    'SameSite=Lax',
    ...(o.secure ? ['Secure'] : []),
  ].join('; ');
}

/** `Set-Cookie` value for the login device cookie (Path=/auth: only the login endpoint reads it). */
function deviceCookie(value: string, opts: { secure: boolean; now: Date }): string {
  return [
    `${DEVICE_COOKIE}=${value}`,
    'Path=/auth',
    `Expires=${new Date(opts.now.getTime() + DEVICE_TOKEN_TTL_MS).toUTCString()}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The value of cookie `name` in the request, or null. */
function cookieOf(req: Request, name: string): string | null {
  const header = req.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** The session token the request's cookie carries, or null. */
export function sessionTokenOf(req: Request): string | null {
  return cookieOf(req, SESSION_COOKIE);
}

/**
 * The client's address for the failed-login counters: the one scripts/web-server.ts resolved from the
 * socket (and, only behind SCHEDULER_TRUSTED_PROXIES, from `X-Forwarded-For`), so a client cannot
 * choose it; `unknown` when the request did not come through that server.
 */
function clientAddress(req: Request): string {
  return req.headers.get(CLIENT_ADDRESS_HEADER)?.trim() || 'unknown';
}

function isJson(req: Request): boolean {
  return (req.headers.get('content-type') ?? '').toLowerCase().includes('application/json');
}

function seeOther(location: string, setCookie?: string): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  if (setCookie) headers.append('set-cookie', setCookie);
  return new Response(null, { status: 303, headers });
}

async function readForm(req: Request): Promise<unknown> {
  if (isJson(req)) return readJsonBody(req);
  try {
    const form = await req.formData();
    return Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'));
  } catch {
    throw new DomainError('invalid_request_body', 'the request body is not a form');
  }
}

/** `POST /auth/login` with `email`, `password`, optional `next`. */
export async function loginResponse(req: Request, now: Date = new Date()): Promise<Response> {
  const jsonStyle = isJson(req);
  let next = '/schedulers';
  try {
    if (!isSameOriginPost(req.headers)) throw new DomainError('forbidden', 'cross-site login form posts are refused');
    const input = parseAuthInput(LoginInput, await readForm(req));
    next = safeNextPath(input.next);
    const deviceToken = cookieOf(req, DEVICE_COOKIE);
    const session = await login(runtime().db, { email: input.email, password: input.password, client: clientAddress(req), deviceToken, now });
    const secure = isHttpsRequest(req.headers, req.url);
    const cookie = sessionCookie(session.token, { secure, expires: session.expiresAt });
    const device = deviceCookie(session.deviceToken, { secure, now });
    const res = jsonStyle ? json({ user: { id: session.user.id, email: session.user.email, name: session.user.name } }) : seeOther(next, cookie);
    if (jsonStyle) res.headers.append('set-cookie', cookie);
    res.headers.append('set-cookie', device);
    return res;
  } catch (e) {
    // A form post goes back to the form with the refusal's code: the domain's, or the installation's
    // condition (the database out of reach or full, decision 431), which the form names in words.
    const refusal = jsonStyle ? null : edgeError(e, 'login error');
    if (!isDomainError(refusal)) return errorResponse(refusal ?? e);
    const q = new URLSearchParams({ error: refusal.code });
    if (next !== '/schedulers') q.set('next', next);
    return seeOther(`/login?${q}`);
  }
}

/** `POST /auth/logout`: end the session (its row is deleted), clear the cookie, go to `/login`. */
export async function logoutResponse(req: Request): Promise<Response> {
  try {
    if (!isSameOriginPost(req.headers)) throw new DomainError('forbidden', 'cross-site logout form posts are refused');
    await endWebSession(runtime().db, sessionTokenOf(req));
    const cookie = sessionCookie('', { secure: isHttpsRequest(req.headers, req.url), expires: new Date(0) });
    if (isJson(req)) {
      const res = json({});
      res.headers.append('set-cookie', cookie);
      return res;
    }
    return seeOther('/login?signed_out=1', cookie);
  } catch (e) {
    return errorResponse(e);
  }
}

/**
 * `POST /auth/invitations/accept` with `token`, and `password` (+ optional `name`) for a new account;
 * without a password, the signed-in user (session cookie) accepts (lib/auth/invitations). A new
 * account is logged in at once. Either way the answer sets the login device cookie of the account that
 * accepted, as a login does (docs/decisions.md 336). Form posts: `303` to `/schedulers`, or back to `/invite/<token>?error=<code>`;
 * JSON: `200 {user?}` or the SPEC error (`404 not_found`, `409 already_member`, `403 forbidden`, `401`).
 */
export async function acceptInvitationResponse(req: Request, now: Date = new Date()): Promise<Response> {
  const jsonStyle = isJson(req);
  let token = '';
  try {
    if (!isSameOriginPost(req.headers)) throw new DomainError('forbidden', 'cross-site form posts are refused');
    const raw = await readForm(req);
    token = typeof (raw as { token?: unknown })?.token === 'string' ? String((raw as { token: string }).token).slice(0, 64) : '';
    const input = parseAuthInput(InvitationAcceptInput, raw);
    const { db } = runtime();
    const secure = isHttpsRequest(req.headers, req.url);
    if (input.password !== undefined) {
      const session = await acceptInvitationWithNewAccount(db, { token: input.token, password: input.password, name: input.name, now });
      const cookie = sessionCookie(session.token, { secure, expires: session.expiresAt });
      const res = jsonStyle ? json({ user: { id: session.user.id, email: session.user.email, name: session.user.name } }) : seeOther('/schedulers', cookie);
      if (jsonStyle) res.headers.append('set-cookie', cookie);
      // The new account's browser is one it used (docs/decisions.md 162, 336): the same device token a login leaves.
      res.headers.append('set-cookie', deviceCookie(issueDeviceToken(session.user.id, now), { secure, now }));
      return res;
    }
    const current = await findWebSession(db, sessionTokenOf(req), now);
    if (!current) throw new DomainError('unauthorized', 'log in to accept this invitation, or choose a password for a new account');
    await acceptInvitationAsUser(db, { actor: current.actor, token: input.token, now });
    const res = jsonStyle ? json({}) : seeOther('/orgs');
    // Joining from a signed-in browser marks it as this account's too (decision 336).
    res.headers.append('set-cookie', deviceCookie(issueDeviceToken(current.actor.id, now), { secure, now }));
    return res;
  } catch (e) {
    if (jsonStyle || !isDomainError(e)) return errorResponse(e);
    const back = /^[A-Za-z0-9_-]{1,64}$/.test(token) ? `/invite/${token}` : '/login';
    return seeOther(`${back}?${new URLSearchParams({ error: e.code })}`);
  }
}
