/**
 * Public entry of accounts and access (SPEC §2): actors, roles, the one access function family
 * (the `readableBy`/`writableBy` query scopes, `hasBlobAccess`, `blobRole`, `orgRole`,
 * `visibleOrgIds`), API keys, browser login and sessions, org members and blob grants. Every path
 * (API, pages, server actions, worker) asks here; none re-implements a check.
 */
export { type Actor, type AuthEntity, actorFromEntity, actorKey } from './actor';
export { describeAuthEntities, type AuthEntityInfo } from './describe-auth-entities';
export { blobRole, blobRoles, blobsWithAccess, hasBlobAccess, orgRole, visibleOrgIds } from './access';
export { blobsWith, readableBy, writableBy, orgsVisibleTo, rolesGranting } from './scope';
export { ROLES, type Role, roleAtLeast, maxRole, minRole, isRole } from './roles';
export { generateApiKey, hashSecret, actorFromApiKey, upsertKnownApiKey } from './keys';

// Input shapes of the account screens.
export {
  KEY_ROLES,
  type KeyRole,
  LoginInput,
  MemberAddInput,
  InvitationAcceptInput,
  MemberRoleInput,
  BlobGrantInput,
  ApiKeyCreateInput,
  AccessKeyCreateInput,
  PasswordChangeInput,
  parseAuthInput,
  AWS_CREDENTIALS_MODES,
  type AwsCredentialsMode,
  AWS_ACCOUNT_ID,
  AwsSettingsUpdateInput,
  AwsSettingsSchema,
  AwsSettingsAnswer,
  type AwsSettings,
} from './contract';

// Browser login and sessions.
export { hashPassword, verifyPassword, matchPassword, generatePassword, MIN_PASSWORD_LENGTH } from './password';
export { accountsOfEmail, passwordHashForEmail } from './account-password';
export { DEVICE_COOKIE, DEVICE_TOKEN_TTL_MS, issueDeviceToken, deviceTokenUser } from './login-device';
export { login, normalizeEmail, LOGIN_REFUSED_MESSAGE, type LoginOptions } from './login';
export { loginThrottle, countLoginAttempt, recordLoginFailure, LOGIN_WINDOW_MS, LOGIN_FAILURES_PER_CLIENT, LOGIN_FAILURES_PER_SOURCE, LOGIN_SLOW_AFTER, LOGIN_FAILURES_PER_ACCOUNT, LOGIN_SUCCESSES_PER_ACCOUNT, LOGIN_MAX_DELAY_MS, type LoginThrottle } from './login-rate-limit';
export { DEMO_USER_EMAIL, createWebSession, findWebSession, endWebSession, type WebUser } from './web-session';
export { SESSION_COOKIE, REQUEST_PATH_HEADER, WEB_SESSION_TTL_MS, sessionCookieOptions, isHttpsRequest, isSameOriginPost, safeNextPath } from './session-cookie';
export { changePassword } from './change-password';

// Orgs, members and blob grants (account screens; need a browser login).
export { findOrg, requireOrgRole, requireBrowserUser, type OrgRef } from './org-admin';
export { listUserOrgs } from './members/list-user-orgs';
export { listOrgMembers, type OrgMember } from './members/list-org-members';
export { inviteOrgMember, type InviteOrgMemberOptions } from './invitations/invite-org-member';
export { listOrgInvitations, type OrgInvitation } from './invitations/list-org-invitations';
export { revokeInvitation } from './invitations/revoke-invitation';
export { findInvitation, acceptInvitationWithNewAccount, acceptInvitationAsUser, type InvitationView } from './invitations/accept-invitation';
export { INVITATION_TTL_MS } from './invitations/invitation-token';
export { changeMemberRole } from './members/change-member-role';
export { removeOrgMember } from './members/remove-org-member';
export { type BlobGrantInfo } from './grants/blob-grant-info';
export { listBlobGrants } from './grants/list-blob-grants';
export { grantBlobAccess } from './grants/grant-blob-access';
export { revokeBlobGrant } from './grants/revoke-blob-grant';

// API keys managed in the UI (org keys by org admins, personal keys by their user).
export { type ApiKeyInfo, type ApiKeyOwnerRef } from './api-keys/api-key-info';
export { createApiKey, type CreateApiKeyOptions } from './api-keys/create-api-key';
export { listApiKeys } from './api-keys/list-api-keys';
export { revokeApiKey } from './api-keys/revoke-api-key';

// Access key pairs of the EventBridge-compatible API (SPEC §14): SigV4 secrets sealed with the server key.
export { type AccessKeyInfo } from './access-keys/access-key-info';
export { type AccessKeyListRef, type AccessKeyOwnerRef } from './access-keys/access-key-scope';
export { createAccessKey, type CreateAccessKeyOptions } from './access-keys/create-access-key';
export { listAccessKeys } from './access-keys/list-access-keys';
export { revokeAccessKey } from './access-keys/revoke-access-key';
export { findAccessKeyCredential, touchAccessKey, upsertKnownAccessKey, type AccessKeyCredential } from './access-keys/find-access-key';
export { ensureAccountId, orgAccountId } from './access-keys/account-id';
export { generateAccessKeyPair } from './access-keys/generate-access-key';
export { sealSecret, openSecret } from './access-keys/secret-box';
export { getOrgAwsSettings, updateOrgAwsSettings, rotateOrgExternalId, orgAwsCredentialsMode, readOrgAws, readOrgAwsIn, workerCredentialsAllowed, type OrgAws, type OrgAwsOptions } from './aws-settings/org-aws-settings';
