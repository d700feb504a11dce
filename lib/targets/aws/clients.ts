/**
 * AWS SDK for JavaScript v3 clients of the `aws` targets and the dead letter (SPEC §13.2, §12.3),
 * one per service and region, cached for the process. They are configured ONLY by the standard AWS
 * SDK environment of the worker (`AWS_REGION`, `AWS_PROFILE`, `AWS_ACCESS_KEY_ID`…,
 * `AWS_ENDPOINT_URL`, `AWS_ENDPOINT_URL_SQS`…, `AWS_MAX_ATTEMPTS`), so one build reaches real AWS or
 * an emulator; the region is the target ARN's. Our only settings are request timeouts, so a hung
 * endpoint cannot hold a delivery slot for ever, and HTTP/1.1 for every service. An org that delivers with an assumed role (SPEC
 * §13.5) gets clients of its own, per role and external id, whose credentials are that role's
 * (`assumeRole`, cached until 5 minutes before they expire); the worker's own credentials are used
 * only by the clients of `{kind: 'worker'}` (or no `auth`: tools and tests).
 */
import { ECSClient } from '@aws-sdk/client-ecs';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { AwsTargetService } from './contract';
import { assumeRole, roleKey, type AwsAuth } from './credentials';

/** Socket timeouts of every AWS call, in ms: connecting, and the whole answer. */
const CONNECTION_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

interface ClientOf {
  sqs: SQSClient;
  sns: SNSClient;
  lambda: LambdaClient;
  states: SFNClient;
  events: EventBridgeClient;
  ecs: ECSClient;
}

const CONSTRUCTORS: { [S in AwsTargetService]: new (config: object) => ClientOf[S] } = {
  sqs: SQSClient,
  sns: SNSClient,
  lambda: LambdaClient,
  states: SFNClient,
  events: EventBridgeClient,
  ecs: ECSClient,
};

const clients = new Map<string, unknown>();

/**
 * The cached client named `name` (a service's SDK, e.g. `sqs`, `aws-sdk:dynamodb`) in `region` with
 * `auth`'s credentials, made with `make` on first use: the worker's own (`{kind: 'worker'}` or
 * absent), or the assumed role's (SPEC §13.5; the caller has assumed it first, `assumeOrRefuse`, so
 * a refusal is told apart from the call's own failure). Every client has the request timeouts above.
 */
export function cachedClient<C>(name: string, make: (config: object) => C, region: string, auth?: AwsAuth): C {
  const role = auth?.kind === 'role' ? auth : null;
  const key = `${name}:${region}${role ? `:${roleKey(role)}` : ''}`;
  let client = clients.get(key) as C | undefined;
  if (!client) {
    client = make({
      region,
      // HTTP/1.1 for every service (decision 362): Kinesis's client defaults to HTTP/2, which an http://
      // endpoint (an emulator) cannot speak; PutRecord and every call a schedule makes work over 1.1.
      requestHandler: new NodeHttpHandler({ connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS }),
      // Never the worker's credentials for a role's client: the role's, refreshed through the cache.
      ...(role ? { credentials: () => assumeRole(role) } : {}),
    });
    clients.set(key, client);
  }
  return client;
}

/** The cached client of a templated target's `service` in `region` with `auth`'s credentials (`cachedClient`). */
export function awsClient<S extends AwsTargetService>(service: S, region: string, auth?: AwsAuth): ClientOf[S] {
  return cachedClient(service, (config) => new CONSTRUCTORS[service](config), region, auth);
}

export { FALLBACK_REGION, sdkRegion } from './region';
