/**
 * `ClientToken` idempotency (SPEC §14, EVENTBRIDGE.md §6): the SDKs fill a token into every create,
 * update and delete. A request whose token was seen with the same parameters in the last 10 minutes
 * answers the first result and changes nothing; with other parameters it is a ConflictException.
 * Tokens are remembered in the database per account and operation (lib/schedules client-tokens.ts).
 */
import { findClientToken, rememberClientToken, requestHash as hashRequest, type AlsoInTransaction } from '../../schedules';
import { AwsError } from './errors';
import type { EventBridgeContext } from './wire';

/** How long a token answers its first result. */
export const CLIENT_TOKEN_TTL_MS = 10 * 60_000;

/**
 * Run `perform` once per (account, region, operation, token): regions are isolated (SPEC §14).
 * `params` are the request's parameters without the token; `response` is the operation's answer,
 * known before it runs. Without a token, `perform` simply runs.
 *
 * Exactly once (per token): `perform` hands `remember` to its domain verb, which writes the token last
 * inside its own transaction (`AlsoInTransaction`), so the token exists exactly when the change does.
 * A retry after a connection lost at COMMIT (the SDKs retry with the same token) then answers the
 * first result whenever the change was saved, instead of ConflictException / ResourceNotFoundException
 * (decision 431). A twin that lost the race to the first request (it saw no token yet and then failed:
 * ConflictException for the name the first one created, or the token's own key) answers the first
 * result, which is remembered by then.
 */
export async function withClientToken(
  ctx: EventBridgeContext,
  operation: string,
  token: string | undefined,
  params: Record<string, unknown>,
  response: object,
  perform: (remember: AlsoInTransaction | undefined) => Promise<void>,
): Promise<object> {
  if (!token) {
    await perform(undefined);
    return response;
  }
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
  try {
    await perform((tx) => rememberClientToken(tx, { key, requestHash, response, now: ctx.now, ttlMs: CLIENT_TOKEN_TTL_MS }));
  } catch (e) {
    // Its own COMMIT's answer lost, or a twin first: the token tells whether the change was saved.
    let twin: object | null;
    try {
      twin = await replay();
    } catch (again) {
      if (again instanceof AwsError) throw again;
      // The token could not be read (the database gone meanwhile): the first failure says what is known.
      throw e;
    }
    if (twin) return twin;
    throw e;
  }
  return response;
}
