/**
 * Input shapes of the account and access screens (login, members, blob grants, API keys), one strict
 * zod schema each (STYLE §2.3): the server actions parse form data with these and the domain
 * functions trust the parsed types. Universal: no I/O.
 */
import { z } from 'zod';
import { parseOrRefuse } from '../errors';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password';
import { ROLES } from './roles';

/** Roles an API key may carry (SPEC §2): never `admin`. */
export const KEY_ROLES = ['read', 'write'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address like name@example.com');

/** The login form. `next` is where to go afterwards (checked by `safeNextPath`). */
export const LoginInput = z
  .object({ email: z.string().max(320), password: z.string().max(1024), next: z.string().max(2048).optional() })
  .strict();

/** Invite an email to an org with a role (a one-time link; no account is made or attached). */
export const MemberAddInput = z.object({ email, role: z.enum(ROLES) }).strict();
export type MemberAddInput = z.infer<typeof MemberAddInput>;

/**
 * Accept an invitation: its `token`; `password` (and optional `name`) to make a new account, or
 * neither to accept as the signed-in user.
 */
export const InvitationAcceptInput = z
  .object({
    token: z.string().max(64),
    password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(MAX_PASSWORD_LENGTH).optional(),
    name: z.string().trim().max(128).optional(),
  })
  .strict();
export type InvitationAcceptInput = z.infer<typeof InvitationAcceptInput>;

/** Change a member's role on an org. */
export const MemberRoleInput = z.object({ user_id: z.string().trim().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a user id'), role: z.enum(ROLES) }).strict();
export type MemberRoleInput = z.infer<typeof MemberRoleInput>;

/** Grant a user (by email) or an org (by id or alias) a role on one blob (by id or alias in the org). */
export const BlobGrantInput = z
  .object({
    blob: z.string().trim().min(1).max(64),
    grantee_type: z.enum(['user', 'org']),
    grantee: z.string().trim().min(1).max(254),
    role: z.enum(ROLES),
  })
  .strict();
export type BlobGrantInput = z.infer<typeof BlobGrantInput>;

/** Create an API key (org or personal). The secret is shown once. */
export const ApiKeyCreateInput = z.object({ name: z.string().trim().min(1).max(64), role: z.enum(KEY_ROLES) }).strict();
export type ApiKeyCreateInput = z.infer<typeof ApiKeyCreateInput>;

/**
 * Issue an access key pair for the EventBridge-compatible API (SPEC §14): its name, role, and the org
 * it belongs to (id or alias; the page's org on the org admin page, the key's org for an org API key).
 * The secret is shown once.
 */
export const AccessKeyCreateInput = z
  .object({ name: z.string().trim().min(1).max(64), role: z.enum(KEY_ROLES), org: z.string().trim().min(1).max(64).optional() })
  .strict();
export type AccessKeyCreateInput = z.infer<typeof AccessKeyCreateInput>;

/** Change one's own password. */
export const PasswordChangeInput = z
  .object({
    current_password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
    new_password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(MAX_PASSWORD_LENGTH),
  })
  .strict();
export type PasswordChangeInput = z.infer<typeof PasswordChangeInput>;

/**
 * Parse `input` with `schema`; the first issue becomes `400 invalid_request_body` with its field path.
 * Accepts a FormData (its string fields) or a plain object.
 */
export function parseAuthInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const value = typeof FormData !== 'undefined' && input instanceof FormData ? formFields(input) : input;
  return parseOrRefuse(schema, value);
}

/** The string fields of a form, without the `$ACTION_…` fields Next.js adds to server-action posts. */
function formFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === 'string' && !k.startsWith('$ACTION')) out[k] = v;
  return out;
}

/**
 * SPEC §13.5: the credentials an org's `aws` targets and SQS dead letters deliver with. `role`
 * (the default): STS AssumeRole of each target's `role_arn` with the org's ExternalId; `worker`:
 * the worker's own, for orgs the operator lists in `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS` only.
 */
export const AWS_CREDENTIALS_MODES = ['role', 'worker'] as const;
export type AwsCredentialsMode = (typeof AWS_CREDENTIALS_MODES)[number];

/** A 12-digit AWS account id (SPEC §13.5 `allowed_accounts`). */
export const AWS_ACCOUNT_ID = /^\d{12}$/;
/** Most entries of `allowed_accounts`. */
export const ALLOWED_ACCOUNTS_MAX = 100;

/**
 * Change an org's AWS settings (SPEC §13.5; its admins): `credentials`, and `allowed_accounts`
 * (12-digit ids, duplicates dropped; `null` or `[]`: any account). Fields left out keep their value.
 * The ExternalId is never set, only rotated.
 */
export const AwsSettingsUpdateInput = z
  .object({
    credentials: z.enum(AWS_CREDENTIALS_MODES).optional(),
    allowed_accounts: z
      .array(z.string().trim().regex(AWS_ACCOUNT_ID, 'each allowed account must be a 12-digit AWS account id'))
      .max(ALLOWED_ACCOUNTS_MAX, `at most ${ALLOWED_ACCOUNTS_MAX} allowed accounts`)
      .nullable()
      .optional(),
  })
  .strict();
export type AwsSettingsUpdateInput = z.infer<typeof AwsSettingsUpdateInput>;

/** An org's AWS settings as the product API and the admin page answer them (SPEC §13.5). */
export const AwsSettingsSchema = z
  .object({
    credentials: z.enum(AWS_CREDENTIALS_MODES),
    external_id: z.string(),
    allowed_accounts: z.array(z.string()).optional(),
    /** Whether the operator lists this org in `SCHEDULER_AWS_WORKER_CREDENTIALS_ORGS` (so it may choose `worker`). */
    worker_credentials_allowed: z.boolean(),
  })
  .strict();
export type AwsSettings = z.infer<typeof AwsSettingsSchema>;

/** The answer of every AWS settings route: `{aws}`. */
export const AwsSettingsAnswer = z.object({ aws: AwsSettingsSchema }).strict();
