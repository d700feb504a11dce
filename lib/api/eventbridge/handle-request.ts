/**
 * One request of the EventBridge-compatible API (SPEC §14), start to end: read the body, verify the
 * SigV4 signature against the access key pair, route to the operation, validate its input against
 * the AWS model, run it, and answer in rest-json (HTTP 200, or AWS's error with `x-amzn-ErrorType`).
 */
import { randomUUID } from 'node:crypto';
import { findAccessKeyCredential, touchAccessKey, type AccessKeyCredential } from '../../auth';
import { DEFAULT_HOME_REGION } from '../../config';
import { conditionOf, toError } from '../../errors';
import { edgeError } from '../edge-error';
import { conditionAwsError } from './domain-errors';
import { AwsError, awsErrorResponse, awsJson } from './errors';
import { OPERATIONS } from './operations';
import { routeRequest } from './router';
import { runtime, type Runtime } from '../runtime';
import { verifySigV4 } from './sigv4';
import { validateInput } from './validate';
import type { EventBridgeContext } from './wire';
import { logger } from '../../log';

/** Largest request body read (the biggest model input, a Target with 200 tags and parameters, is far smaller). */
const MAX_BODY_BYTES = 1024 * 1024;

async function readBody(req: Request): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw new AwsError('ValidationException', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  const body = new Uint8Array(await req.arrayBuffer());
  if (body.length > MAX_BODY_BYTES) throw new AwsError('ValidationException', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  return body;
}

export interface HandleOptions {
  /** The database, limits, webhook allow list and home region (default `us-east-1`); default the process's (lib/api/runtime.ts). Tests pass their own. */
  runtime?: Pick<Runtime, 'db' | 'limits'> & Partial<Pick<Runtime, 'httpAllowList' | 'homeRegion'>>;
  /** The request's instant; default the clock. */
  now?: Date;
}

/** Answer `req`. Never throws: every failure is an AWS error answer. */
export async function handleEventBridgeRequest(req: Request, opts: HandleOptions = {}): Promise<Response> {
  const requestId = randomUUID();
  const now = opts.now ?? new Date();
  try {
    const { db, limits, httpAllowList, homeRegion = DEFAULT_HOME_REGION } = opts.runtime ?? runtime();
    // The path and query as sent on the wire (still percent-encoded): what SigV4 signs.
    const afterHost = req.url.slice(req.url.indexOf('/', req.url.indexOf('//') + 2));
    const q = afterHost.indexOf('?');
    const rawPath = q < 0 ? afterHost : afterHost.slice(0, q);
    const rawQuery = q < 0 ? '' : afterHost.slice(q + 1).replace(/#.*$/, '');
    const body = await readBody(req);

    const found: { credential?: AccessKeyCredential } = {};
    const signer = await verifySigV4({ method: req.method, rawPath, rawQuery, headers: req.headers, body }, now, async (accessKeyId) => {
      try {
        // In a transaction: on SQLite every write of the web process goes through the adapter's lock (the
        // first use of an org assigns its account id).
        const c = await findAccessKeyCredential(db, accessKeyId);
        if (c) found.credential = c;
        return c?.secretAccessKey ?? null;
      } catch (e) {
        // The database out of reach, full or read-only is not a bad credential: answered as the
        // condition it is (below), which the SDKs retry, instead of UnrecognizedClientException, which they do not.
        if (conditionOf(e)) throw e;
        const err = toError(e);
        logger.error('access key secret could not be opened', { accessKeyId, error: err.message });
        return null;
      }
    });
    const cred = found.credential;
    if (!cred) throw new AwsError('UnrecognizedClientException', 'The security token included in the request is invalid.');
    await touchAccessKey(db, cred, now);

    const { op, input } = routeRequest(req.method, rawPath, rawQuery, new TextDecoder().decode(body));
    validateInput(op, input);
    const ctx: EventBridgeContext = { db, limits, httpAllowList, now, region: signer.region, homeRegion, orgId: cred.orgId, accountId: cred.accountId, actor: cred.actor, accessKeyId: cred.accessKeyId };
    const output = await OPERATIONS[op](ctx, input);
    return awsJson(output, 200, requestId);
  } catch (e) {
    if (e instanceof AwsError) return awsErrorResponse(e, requestId);
    const named = edgeError(e, 'EventBridge API error');
    const condition = conditionAwsError(named);
    if (condition) return awsErrorResponse(condition, requestId);
    const err = toError(named);
    logger.error('unhandled EventBridge API error', { error: err.message, stack: err.stack });
    return awsErrorResponse(new AwsError('InternalServerException', 'Unexpected error during processing of request.'), requestId);
  }
}
