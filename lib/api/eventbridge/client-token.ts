/**
 * `ClientToken` idempotency (SPEC §14, EVENTBRIDGE.md §6): the SDKs fill a token into every create,
 * update and delete. A request whose token was seen with the same parameters in the last 10 minutes
 * answers the first result and changes nothing; with other parameters it is a ConflictException.
 * Tokens are remembered in the database per account and operation (lib/schedules client-tokens.ts).
 */
import { findClientToken, requestHash as hashRequest, saveClientToken } from '../../schedules';
import { AwsError } from './errors';
import type { EventBridgeContext } from './wire';

/** How long a token answers its first result. */
export const CLIENT_TOKEN_TTL_MS = 10 * 60_000;

/**
 * Run `perform` once per (account, region, operation, token): regions are isolated (SPEC §14). `params` are the request's parameters without
 * the token. Without a token, `perform` simply runs.
 * Exactly once (per token): a twin that lost the race to the first request (it saw no token yet and
 * then failed, e.g. ConflictException for the name the first one created) answers the first result
 * once it is remembered.
 */
export async function withClientToken(
  ctx: EventBridgeContext,
  operation: string,
  token: string | undefined,
  params: Record<string, unknown>,
  perform: () => Promise<object>,
): Promise<object> {
  if (!token) return perform();
  const key = `${ctx.orgId}:${ctx.region}:${operation}:${token}`;
  const requestHash = hashRequest(params);
  const replay = async (): Promise<object | null> => {
    const seen = await findClientToken(ctx.db, key, ctx.now);
    if (!seen) return null;
    if (seen.requestHash !== requestHash) {
      throw new AwsError('ConflictException', `The ClientToken ${token} was already used with a different request.`);
    }
    return seen.response as object;
  };
  const first = await replay();
  if (first) return first;
  let response: object;
  try {
    response = await perform();
  } catch (e) {
    const twin = await replay();
    if (twin) return twin;
    throw e;
  }
  await saveClientToken(ctx.db, { key, requestHash, response, now: ctx.now, ttlMs: CLIENT_TOKEN_TTL_MS });
  return response;
}
