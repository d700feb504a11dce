/**
 * The one step every edge (the product API's `errorResponse`, the web's server actions, the
 * EventBridge API's `toAwsError`) takes before it answers an error: the domain names what it can
 * (lib/schedules `namedError`: a stored schedule the row codec cannot read, decision 425), a
 * condition of the installation (storage full or read-only, the database out of reach or the
 * connection lost: `conditionRefusal`) becomes its 503 refusal, and a server-side fault the domain
 * named (`internal_error`) is logged with its cause, which the answer never carries (a JSON
 * parser's detail can quote a column's text).
 */
import { isDomainError } from '../errors';
import { logger } from '../log';
import { namedError } from '../schedules';
import { conditionRefusal } from './storage-health';

/**
 * `thrown` as the edge should answer it (a DomainError when the domain or the installation's
 * condition names it, else unchanged). `where` is the log line's message (e.g. 'API error');
 * `fields` are added to it.
 */
export function edgeError(thrown: unknown, where: string, fields: Record<string, unknown> = {}): unknown {
  const named = namedError(thrown);
  const e = isDomainError(named) ? named : (conditionRefusal(named) ?? named);
  if (isDomainError(e) && e.code === 'internal_error') {
    logger.error(where, { ...fields, code: e.code, message: e.message, cause: e.cause instanceof Error ? e.cause.message : undefined });
  }
  return e;
}
