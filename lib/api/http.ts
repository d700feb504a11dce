/**
 * The HTTP edge shared by every API route (STYLE §2.6): credentials → Actor or `401`, errors →
 * SPEC JSON through the one status table. A server error never leaks a stack trace.
 */
import { actorFromApiKey, type Actor } from '../auth';
import { DomainError, toError, toErrorBody } from '../errors';
import { edgeError } from './edge-error';
import { runtime } from './runtime';
import { logger } from '../log';

/** JSON response with no caching. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * The SPEC error answer for anything thrown. A storage fault (disk full, read-only database) is
 * `503 storage_full` / `503 storage_read_only`, a database out of reach or a connection lost mid-request
 * `503 database_unavailable` / `503 database_connection_lost`, without the driver's text; other
 * unforeseen errors are logged and become a generic 500.
 */
export function errorResponse(error: unknown): Response {
  const thrown = edgeError(error, 'API error');
  if (thrown instanceof DomainError) return json(toErrorBody(thrown), thrown.status);
  const err = toError(thrown);
  logger.error('unhandled API error', { error: err.message, stack: err.stack });
  return json({ error: { code: 'internal_error', message: 'internal error' } }, 500);
}

/** The credential of a request: `Authorization: Bearer <token>` or `X-API-Key: <key>` (SPEC §3). */
export function credentialOf(req: Request): string | null {
  const key = req.headers.get('x-api-key')?.trim();
  if (key) return key;
  const auth = req.headers.get('authorization');
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return m ? m[1].trim() : null;
}

/** The actor of a request, or throws `401 unauthorized` (no credential, or an unknown/revoked one). */
export async function requireApiActor(req: Request): Promise<Actor> {
  const credential = credentialOf(req);
  if (!credential) throw new DomainError('unauthorized', 'credentials required: send Authorization: Bearer <key> or X-API-Key: <key>');
  const actor = await actorFromApiKey(runtime().db, credential);
  if (!actor) throw new DomainError('unauthorized', 'the API key is not valid');
  return actor;
}

/** Wrap a route handler: resolve the actor, run, and turn any error into the SPEC answer. */
export function withActor<C>(handler: (req: Request, actor: Actor, ctx: C) => Promise<Response>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    try {
      const actor = await requireApiActor(req);
      return await handler(req, actor, ctx);
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** A handler answering `405 method_not_allowed` in the SPEC error shape, naming the allowed method. */
export function methodNotAllowed(allowed: string) {
  return async (): Promise<Response> => {
    const res = json({ error: { code: 'method_not_allowed', message: `use ${allowed}` } }, 405);
    res.headers.set('allow', allowed);
    return res;
  };
}
