/**
 * SPEC §13.5: the credentials an org's `aws` deliveries and SQS dead letters are sent with.
 *
 * - `role` (every org's default): STS `AssumeRole(RoleArn, ExternalId = the org's external id,
 *   RoleSessionName = the schedule id)`, made with the worker's own credentials, the answer cached
 *   per role and external id until 5 minutes before it expires. The role's trust policy names the
 *   worker's principal and the org's ExternalId, so no org can make the worker act in an account
 *   that did not name that org (AWS's confused-deputy protection).
 * - `worker`: the worker's own credentials (SPEC §13.2), only while the operator lists the org in
 *   `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS`.
 * - `allowed_accounts`: every ARN a delivery names (target, dead letter, role) must be in one of them.
 *
 * A refusal is an attempt's `result` (`{error, message}`), never a throw: `access_denied` (an ARN of
 * an account the org does not allow; worker credentials the operator no longer grants) and
 * `assume_role_failed` (no `role_arn`, or STS refused: AWS's message about the org's own role).
 */
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { sdkRegion } from './region';
import type { AwsCredentialIdentity } from '@aws-sdk/types';
import { workerCredentialsAllowed, type OrgAws } from '../../auth';
import { DomainError } from '../../errors';
import { parseUniversalArn } from './contract';
import { classifyAwsError } from './errors';

/** How a delivery authenticates: the worker's own credentials, or an assumed role of the org. */
export type AwsAuth = { kind: 'worker' } | { kind: 'role'; roleArn: string; externalId: string; sessionName: string };

/** A refused delivery's run `result` (SPEC §13.5) and whether trying again may help. */
export interface AwsRefusal {
  result: { error: 'access_denied' | 'assume_role_failed'; message: string };
  retryable: boolean;
}

/** The 12-digit account of an ARN (`arn:<partition>:<service>:<region>:<account>:…`), or null. */
export function arnAccount(arn: string): string | null {
  const account = arn.split(':')[4];
  return account !== undefined && /^\d{12}$/.test(account) ? account : null;
}

/**
 * The first ARN of `arns` that names an account outside `allowed`, or null (none does; `allowed`
 * null: any account). An ARN naming no account (`arn:aws:iam::…` names one; an S3 ARN would not)
 * is outside when a list is set.
 */
export function foreignArn(arns: readonly (string | null | undefined)[], allowed: readonly string[] | null): string | null {
  if (!allowed) return null;
  for (const arn of arns) {
    if (!arn) continue;
    const account = arnAccount(arn);
    if (account === null || !allowed.includes(account)) return arn;
  }
  return null;
}

/**
 * The ARNs of a delivery whose accounts `allowed_accounts` checks (SPEC §13.5): the target's and the
 * role's. A universal target (SPEC §14) names no account: its call runs in the account of the
 * credentials, so only the role is checked; with the worker's own credentials and a list set, its
 * account cannot be checked at all, and the target ARN itself stands in for "outside" (decision 314).
 */
function checkedArns(org: OrgAws, arn: string, roleArn: string | null | undefined): (string | null | undefined)[] {
  if (!parseUniversalArn(arn)) return [arn, roleArn];
  return org.credentials === 'role' ? [roleArn] : [arn];
}

/**
 * How the org's delivery to `arn` (with role `roleArn`, for schedule `scheduleId`) authenticates,
 * or why it may not be made (SPEC §13.5). Pure. `workerOrgs`: `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS`.
 */
export function planAwsAuth(
  org: OrgAws,
  req: { arn: string; roleArn: string | null | undefined; scheduleId: string; workerOrgs: readonly string[]; /** Other ARNs the request names (an ECS task definition). */ also?: readonly string[] },
): { ok: true; auth: AwsAuth } | ({ ok: false } & AwsRefusal) {
  const foreign = foreignArn([...checkedArns(org, req.arn, req.roleArn), ...(req.also ?? [])], org.allowedAccounts);
  if (foreign) {
    return { ok: false, result: { error: 'access_denied', message: `${foreign.slice(0, 200)} names an AWS account outside the org's allowed_accounts` }, retryable: false };
  }
  if (org.credentials === 'worker') {
    if (workerCredentialsAllowed(org.org, req.workerOrgs)) return { ok: true, auth: { kind: 'worker' } };
    return { ok: false, result: { error: 'access_denied', message: 'the org chose the worker\'s credentials, which the operator does not grant it (SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS)' }, retryable: false };
  }
  if (!req.roleArn) {
    return { ok: false, result: { error: 'assume_role_failed', message: 'the org delivers with an assumed role and this target names no role_arn' }, retryable: false };
  }
  // RoleSessionName: 2–64 of [\w+=,.@-]; a schedule id (a UUID) fits.
  return { ok: true, auth: { kind: 'role', roleArn: req.roleArn, externalId: org.externalId, sessionName: req.scheduleId.slice(0, 64) } };
}

/** Assumed credentials are used until this long before they expire, in ms (SPEC §13.5: 5 minutes). */
export const ASSUMED_REFRESH_MS = 5 * 60_000;

interface Assumed {
  credentials: AwsCredentialIdentity & { expiration: Date };
}

/** Assumed credentials per role and external id (a rotated external id never reuses the old ones). */
const assumed = new Map<string, Promise<Assumed>>();
let sts: STSClient | undefined;

/** The cache key of an assumed role: its ARN and the external id it was assumed with. */
export function roleKey(auth: Extract<AwsAuth, { kind: 'role' }>): string {
  return `${auth.roleArn}\u0000${auth.externalId}`;
}

/**
 * Credentials of `auth`'s role: the cached ones while they are valid for more than 5 minutes, else
 * a new `AssumeRole` with the worker's own credentials (the SDK's standard environment; concurrent
 * callers share one call). Throws what STS throws (nothing is cached then). `now`: ms since epoch.
 */
export async function assumeRole(auth: Extract<AwsAuth, { kind: 'role' }>, now = Date.now()): Promise<AwsCredentialIdentity & { expiration: Date }> {
  const key = roleKey(auth);
  const cached = assumed.get(key);
  if (cached) {
    const hit = await cached.catch(() => null);
    if (hit && hit.credentials.expiration.getTime() - ASSUMED_REFRESH_MS > now) return hit.credentials;
    if (assumed.get(key) !== cached) return assumeRole(auth, now);
  }
  const call = (async (): Promise<Assumed> => {
    // The worker's region (us-east-1 when its environment names none): STS needs one, whatever the
    // target ARN's region, and an unset AWS_REGION must not fail every role's delivery.
    sts ??= new STSClient({ region: sdkRegion, requestHandler: { connectionTimeout: 10_000, requestTimeout: 30_000 } });
    const res = await sts.send(new AssumeRoleCommand({ RoleArn: auth.roleArn, ExternalId: auth.externalId, RoleSessionName: auth.sessionName }));
    const c = res.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.Expiration) throw Object.assign(new Error('AssumeRole answered no credentials'), { name: 'InvalidResponse' });
    return { credentials: { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration } };
  })();
  assumed.set(key, call);
  try {
    return (await call).credentials;
  } catch (thrown) {
    if (assumed.get(key) === call) assumed.delete(key);
    throw thrown;
  }
}

/**
 * `assumeRole`, a refusal mapped to the attempt's `{error: "assume_role_failed", message: <AWS's
 * message>}` (the message is about the org's own role). Retryable when STS throttled, failed on
 * its side or did not answer.
 */
export async function assumeOrRefuse(auth: Extract<AwsAuth, { kind: 'role' }>): Promise<{ ok: true } | ({ ok: false } & AwsRefusal)> {
  try {
    await assumeRole(auth);
    return { ok: true };
  } catch (thrown) {
    const f = classifyAwsError(thrown);
    return { ok: false, result: { error: 'assume_role_failed', message: `${f.result.error}: ${f.result.message}`.slice(0, 1000) }, retryable: f.retryable };
  }
}

/**
 * The save-time rule of SPEC §13.5 for one ARN an org's schedule delivers to (an `aws` target, an
 * SQS dead letter) and the role it names (`roleArn`, already defaulted as its fire will):
 * - with `allowed_accounts`, the ARN, the role and any other ARN the target names (`also`) must each name one of them;
 * - in `role` mode a role is required (in `worker` mode, whether the operator grants it is decided
 *   at each fire: the web process does not decide for the worker).
 * @throws `400 invalid_invocation_target` at `paths.arn` / `paths.role`.
 */
export function checkAwsArnAtSave(
  org: OrgAws,
  arn: string,
  roleArn: string | null | undefined,
  paths: { arn: string; role: string },
  /** Other ARNs the target names, each at its own path (an ECS task definition): checked like `arn`. */
  also: readonly { arn: string; path: string }[] = [],
): void {
  const checked = [...checkedArns(org, arn, roleArn), ...also.map((a) => a.arn)];
  const named: (readonly [string | null | undefined, string])[] = [[arn, paths.arn], [roleArn, paths.role], ...also.map((a) => [a.arn, a.path] as const)];
  for (const [value, path] of named) {
    if (value && checked.includes(value) && foreignArn([value], org.allowedAccounts)) {
      const account = arnAccount(value);
      const why = account
        ? `${path} names AWS account ${account}, which is not among the org's allowed_accounts (${org.allowedAccounts!.join(', ')})`
        : `${path} names no AWS account to check against the org's allowed_accounts (${org.allowedAccounts!.join(', ')}); a universal target needs the org's assumed role (credentials "role")`;
      throw new DomainError('invalid_invocation_target', why, { path });
    }
  }
  if (org.credentials === 'role' && !roleArn) {
    throw new DomainError('invalid_invocation_target', `${paths.role} is required: the org delivers to AWS with an assumed role (its AWS settings: credentials "role")`, { path: paths.role });
  }
}
