/**
 * The web app's one door to the domain. Pages and server actions get the database client, the
 * browser's actor, the limits and the request instant here, and nowhere else. The client and the
 * limits come from lib/api's `runtime()` (the configuration parsed once): `app/` never imports lib/db
 * or lib/config (STYLE §5, enforced by `npm run lint`); the domain functions take them as arguments.
 */
import 'server-only';
import { cookies, headers } from 'next/headers';
import { notFound, redirect, unstable_rethrow } from 'next/navigation';
import { cache } from 'react';
import type { ActionResult } from '@/components/action-result';
import { findInvitation, findWebSession, REQUEST_PATH_HEADER, safeNextPath, SESSION_COOKIE, type Actor, type InvitationView, type WebUser } from '@/lib/auth';
import { edgeError, runtime, type Runtime } from '@/lib/api';
import { isConditionCode, isDomainError, toError, type ConditionCode } from '@/lib/errors';
import { getSchedulerByRevision, overdueReason, workerLiveness, type OverdueReason, type SchedulerSummary, type WorkerLiveness } from '@/lib/schedules';
import { logger } from '@/lib/log';

export interface WebContext extends Runtime {
  actor: Actor;
  /** The request's instant (UTC). */
  now: Date;
}

/**
 * The signed-in user of this request, or null when the session cookie is absent, unknown or expired
 * (checked against the database; `middleware.ts` only checks that the cookie is there). Memoized per
 * request. Does not redirect: for the layout and the login page.
 */
export const currentWebSession = cache(async (): Promise<{ user: WebUser; actor: Actor; token: string } | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const session = await findWebSession(runtime().db, token, new Date());
  return session ? { ...session, token } : null;
});

/**
 * `currentWebSession`, or the condition of the installation that kept it from being read (the
 * database out of reach or the connection lost: lib/errors `isConditionCode`), for what renders
 * without a session: the login page (which then names the condition instead of failing whole, as it
 * did for a browser still holding a cookie during an outage), the header's account menu and the
 * worker banner. Any other error is thrown. Memoized per request.
 */
export const webSessionOrCondition = cache(async (): Promise<{ session: Awaited<ReturnType<typeof currentWebSession>>; condition: ConditionCode | null }> => {
  try {
    return { session: await currentWebSession(), condition: null };
  } catch (e) {
    const named = edgeError(e, 'web session error');
    if (isDomainError(named) && isConditionCode(named.code)) return { session: null, condition: named.code };
    throw e;
  }
});

/**
 * The browser's actor: the signed-in user (SPEC §2). Without a valid session, redirects to
 * `/login?next=<the requested page>` (from a page or a server action alike).
 */
export async function getWebActor(): Promise<Actor> {
  const session = await currentWebSession();
  if (!session) {
    const next = safeNextPath((await headers()).get(REQUEST_PATH_HEADER));
    redirect(`/login?next=${encodeURIComponent(next)}`);
  }
  return session.actor;
}

/** For the invitation page (no session needed): the invitation of link `token`, or null when it does not work. */
export async function invitationPage(token: string): Promise<InvitationView | null> {
  return findInvitation(runtime().db, token, new Date());
}

/**
 * `http(s)://host` of this request as the browser sees it, for links the app shows (invitations).
 * The forwarded headers were reduced to trustworthy values by scripts/web-server.ts.
 */
export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const proto = h.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
  return `${proto}://${h.get('x-forwarded-host') || h.get('host') || '127.0.0.1'}`;
}

/** The context of one browser request: the signed-in user acts (redirects to /login without one). */
export async function webContext(): Promise<WebContext> {
  return { ...runtime(), actor: await getWebActor(), now: new Date() };
}

/**
 * The workers' liveness for this request (the layout's banner, the grid's overdue marks), memoized per
 * request; null when the database cannot be read (the page itself then shows the error).
 */
export const workerStatus = cache(async (): Promise<(WorkerLiveness & { at: Date }) | null> => {
  const at = new Date();
  try {
    return { ...(await workerLiveness(runtime().db, at)), at };
  } catch {
    return null;
  }
});

/** Whether a pending next fire (ISO UTC or null) is overdue at this render, and why (the grid's and schedule page's mark). */
export function overdueOf(nextFireAt: string | null, status: (WorkerLiveness & { at: Date }) | null): OverdueReason | undefined {
  return status ? overdueReason(nextFireAt, status, status.at) : undefined;
}

export type WebScheduler = SchedulerSummary & { role: 'read' | 'write' | 'admin'; metricsPerSchedule: boolean };

/** The `{id, blobId}` a domain function takes for a scheduler's managed revision. */
export function revisionOf(s: SchedulerSummary): { id: string; blobId: string } {
  return { id: s.revisionId, blobId: s.blobId };
}

/**
 * For pages: the context and the scheduler whose managed revision is `revisionId`; a missing or
 * unreadable scheduler renders the 404 page (SPEC §2: both look the same).
 */
export async function schedulerPage(revisionId: string): Promise<WebContext & { scheduler: WebScheduler }> {
  const ctx = await webContext();
  try {
    return { ...ctx, scheduler: await getSchedulerByRevision(ctx.db, ctx.actor, revisionId) };
  } catch (e) {
    if (isDomainError(e) && e.code === 'not_found') notFound();
    throw e;
  }
}

/** For pages: run a domain read and render the 404 page for a `*_not_found` refusal. */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (isDomainError(e) && (e.code === 'not_found' || e.code === 'schedule_not_found' || e.code === 'execution_not_found' || e.code === 'backfill_not_found')) notFound();
    throw e;
  }
}

/**
 * For server actions: resolve the context and the scheduler, run `fn`, and answer with the
 * server-action contract. A DomainError keeps its code, message and path; anything else is logged
 * and becomes `internal_error` without details.
 */
export async function schedulerAction<T extends object>(
  revisionId: string,
  fn: (ctx: WebContext & { revision: { id: string; blobId: string } }) => Promise<T>,
): Promise<ActionResult<T>> {
  try {
    const ctx = await webContext();
    const scheduler = await getSchedulerByRevision(ctx.db, ctx.actor, revisionId);
    return { ok: true, ...(await fn({ ...ctx, revision: revisionOf(scheduler) })) };
  } catch (e) {
    return actionError(e);
  }
}

/**
 * For server actions outside a scheduler (accounts, orgs): resolve the context, run `fn`, and answer
 * with the server-action contract, as `schedulerAction` does.
 */
export async function webAction<T extends object>(fn: (ctx: WebContext) => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, ...(await fn(await webContext())) };
  } catch (e) {
    return actionError(e);
  }
}

/**
 * For pages whose domain read refuses with `not_found` or `forbidden` (an org page for a non-admin):
 * both render the 404 page.
 */
export async function orNotFoundPage<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (e) {
    if (isDomainError(e) && (e.code === 'not_found' || e.code === 'forbidden')) notFound();
    throw e;
  }
}

/** A thrown error as a server-action answer. Next.js control flow (redirect to /login) passes through. */
function actionError(thrown: unknown): ActionResult<never> {
  unstable_rethrow(thrown);
  const e = edgeError(thrown, 'server action error');
  if (isDomainError(e)) {
    return { ok: false, error: { code: e.code, message: e.message, ...(e.path ? { path: e.path } : {}) } };
  }
  const err = toError(e);
  logger.error('unhandled server action error', { error: err.message, stack: err.stack });
  return { ok: false, error: { code: 'internal_error', message: 'The server could not complete the request; see the server log.' } };
}
