/**
 * An org's AWS settings (SPEC §13.5): which credentials its `aws` targets and SQS dead letters
 * deliver with, the ExternalId of its AssumeRole calls, and the AWS accounts its ARNs may name.
 * Read and changed by the org's admins (the product API, the admin page); read by the fire path
 * (`readOrgAws`) and the save path.
 */
import { randomBytes } from 'node:crypto';
import { inTransaction, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';
import type { Actor } from '../actor';
import { AWS_CREDENTIALS_MODES, type AwsCredentialsMode, type AwsSettings, type AwsSettingsUpdateInput } from '../contract';
import { requireOrgRole } from '../org-admin';

/** An org's AWS settings as the domain uses them (SPEC §13.5). */
export interface OrgAws {
  org: { id: string; alias: string | null };
  credentials: AwsCredentialsMode;
  /** The ExternalId of every AssumeRole the org's deliveries make. */
  externalId: string;
  /** The AWS accounts its ARNs may name, or null: any. */
  allowedAccounts: string[] | null;
}

/** A new ExternalId: 160 random bits as 40 hex digits (AWS allows 2–1224 of `[\w+=,.@:/-]`). */
function newExternalId(): string {
  return randomBytes(20).toString('hex');
}

/**
 * Whether `org` may deliver with the worker's own credentials: the operator lists its alias or id
 * in `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS` (`workerOrgs`, lowercased; docs/decisions.md 210).
 */
export function workerCredentialsAllowed(org: { id: string; alias: string | null }, workerOrgs: readonly string[]): boolean {
  return workerOrgs.includes(org.id.toLowerCase()) || (org.alias !== null && workerOrgs.includes(org.alias.toLowerCase()));
}

/** `orgs.aws_allowed_accounts` (ids joined by commas) as a list, or null: any account. */
function allowedOf(stored: string | null): string[] | null {
  const ids = (stored ?? '').split(',').filter(Boolean);
  return ids.length > 0 ? ids : null;
}

/** `orgs.aws_credentials`: null (never chosen) is `role`, every org's default (SPEC §13.5). */
function modeOf(stored: string | null): AwsCredentialsMode {
  return stored !== null && (AWS_CREDENTIALS_MODES as readonly string[]).includes(stored) ? (stored as AwsCredentialsMode) : 'role';
}

const SELECT = { id: true, alias: true, awsCredentials: true, awsExternalId: true, awsAllowedAccounts: true } as const;

/** The org's SPEC §13.5 credentials mode (`role` when never chosen, or when the org is gone). Reads only. */
export async function orgAwsCredentialsMode(db: Db, orgId: string): Promise<AwsCredentialsMode> {
  const row = await db.org.findUnique({ where: { id: orgId }, select: { awsCredentials: true } });
  return modeOf(row?.awsCredentials ?? null);
}

/**
 * The org's AWS settings inside `tx`, its ExternalId generated and stored on first use (only where
 * still unset: two first uses at once agree on the stored value).
 * @throws `404 not_found` when the org does not exist.
 */
export async function readOrgAwsIn(tx: Tx, orgId: string): Promise<OrgAws> {
  let row = await tx.org.findUnique({ where: { id: orgId }, select: SELECT });
  if (!row) throw new DomainError('not_found', 'org not found');
  if (!row.awsExternalId) {
    await tx.org.updateMany({ where: { id: orgId, awsExternalId: null }, data: { awsExternalId: newExternalId() } });
    row = (await tx.org.findUnique({ where: { id: orgId }, select: SELECT }))!;
  }
  return { org: { id: row.id, alias: row.alias }, credentials: modeOf(row.awsCredentials), externalId: row.awsExternalId!, allowedAccounts: allowedOf(row.awsAllowedAccounts) };
}

/**
 * The org's AWS settings for a delivery outside any transaction (SPEC §13.5): read, and the
 * ExternalId made in its own transaction on first use. @throws `404 not_found` when the org is gone.
 */
export async function readOrgAws(db: Db, orgId: string): Promise<OrgAws> {
  const row = await db.org.findUnique({ where: { id: orgId }, select: SELECT });
  if (row?.awsExternalId) return { org: { id: row.id, alias: row.alias }, credentials: modeOf(row.awsCredentials), externalId: row.awsExternalId, allowedAccounts: allowedOf(row.awsAllowedAccounts) };
  return inTransaction(db, (tx) => readOrgAwsIn(tx, orgId));
}

/**
 * The org `ref` names, when the actor's entity is its admin (SPEC §13.5: "its admins"). An API key
 * never carries `admin` (keys are `read` or `write`, SPEC §2), so the entity behind the key is what
 * must be admin (a member with `admin`, or the org's own key); a change also needs a `write` key
 * (docs/decisions.md 211).
 * @throws `404 not_found` (no role on the org), `403 forbidden` (below admin; a `read` key changing).
 */
async function requireAwsAdmin(tx: Tx, actor: Actor, ref: string, change: boolean) {
  const org = await requireOrgRole(tx, { ...actor, roleCap: null }, ref, 'admin');
  if (change && actor.roleCap === 'read') throw new DomainError('forbidden', "changing the org's AWS settings needs a write key");
  return org;
}

function answer(s: OrgAws, workerOrgs: readonly string[]): AwsSettings {
  return {
    credentials: s.credentials,
    external_id: s.externalId,
    ...(s.allowedAccounts ? { allowed_accounts: s.allowedAccounts } : {}),
    worker_credentials_allowed: workerCredentialsAllowed(s.org, workerOrgs),
  };
}

export interface OrgAwsOptions {
  actor: Actor;
  /** The org, by id or alias. */
  org: string;
  /** `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS` as the process's configuration parsed it. */
  workerOrgs: readonly string[];
}

/**
 * The org's AWS settings (SPEC §13.5), for its admins (`requireAwsAdmin`).
 * @throws `404 not_found` for an org the actor holds no role on; `403 forbidden` below admin.
 */
export async function getOrgAwsSettings(db: Db, opts: OrgAwsOptions): Promise<AwsSettings> {
  return inTransaction(db, async (tx) => {
    const org = await requireAwsAdmin(tx, opts.actor, opts.org, false);
    return answer(await readOrgAwsIn(tx, org.id), opts.workerOrgs);
  });
}

/**
 * Change the org's `credentials` and `allowed_accounts` (SPEC §13.5), for its admins. Choosing
 * `worker` needs the org listed in `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS`. Existing schedules are
 * not re-checked: a fire applies the settings of its moment (`access_denied`, docs/decisions.md 213).
 * @throws `400 invalid_request_body` (path `credentials`) for `worker` when the org is not listed;
 *   `404 not_found` / `403 forbidden` as `getOrgAwsSettings`.
 */
export async function updateOrgAwsSettings(db: Db, opts: OrgAwsOptions & { input: AwsSettingsUpdateInput }): Promise<AwsSettings> {
  return inTransaction(db, async (tx) => {
    const org = await requireAwsAdmin(tx, opts.actor, opts.org, true);
    const { credentials, allowed_accounts } = opts.input;
    if (credentials === 'worker' && !workerCredentialsAllowed(org, opts.workerOrgs)) {
      throw new DomainError(
        'invalid_request_body',
        'credentials: "worker" is only for orgs the operator lists in SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS; this org delivers with its assumed roles ("role")',
        { path: 'credentials' },
      );
    }
    const accounts = allowed_accounts === undefined ? undefined : allowed_accounts && allowed_accounts.length > 0 ? [...new Set(allowed_accounts)] : null;
    await readOrgAwsIn(tx, org.id);
    await tx.org.update({
      where: { id: org.id },
      data: {
        ...(credentials ? { awsCredentials: credentials } : {}),
        ...(accounts !== undefined ? { awsAllowedAccounts: accounts ? accounts.join(',') : null } : {}),
      },
    });
    return answer(await readOrgAwsIn(tx, org.id), opts.workerOrgs);
  });
}

/**
 * A new ExternalId for the org (SPEC §13.5), for its admins. Every role's trust policy must name
 * the new one: until it does, the org's AssumeRole calls are refused (`assume_role_failed`); the
 * credentials cached for the old one are not used again.
 * @throws `404 not_found` / `403 forbidden` as `getOrgAwsSettings`.
 */
export async function rotateOrgExternalId(db: Db, opts: OrgAwsOptions): Promise<AwsSettings> {
  return inTransaction(db, async (tx) => {
    const org = await requireAwsAdmin(tx, opts.actor, opts.org, true);
    await tx.org.update({ where: { id: org.id }, data: { awsExternalId: newExternalId() } });
    return answer(await readOrgAwsIn(tx, org.id), opts.workerOrgs);
  });
}
