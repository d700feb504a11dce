'use server';
/**
 * Server actions of an org's admin page: members, blob grants, org API keys. Each resolves the
 * signed-in user, calls one lib/auth function (which checks `admin` on the org or blob) and answers
 * with the server-action contract.
 */
import { revalidatePath } from 'next/cache';
import type { FormAnswer } from '@/app/_components/action-form';
import { shownOnceAccessKey } from '@/app/_components/access-key-shown-once';
import { requestOrigin, webAction } from '@/app/lib/server';
import { formatUtc } from '@/components/format';
import {
  AccessKeyCreateInput,
  inviteOrgMember,
  ApiKeyCreateInput,
  BlobGrantInput,
  changeMemberRole,
  createAccessKey,
  createApiKey,
  grantBlobAccess,
  MemberAddInput,
  MemberRoleInput,
  parseAuthInput,
  removeOrgMember,
  revokeAccessKey,
  revokeApiKey,
  revokeBlobGrant,
  revokeInvitation,
} from '@/lib/auth';

const adminPath = (org: string) => `/orgs/${org}/admin`;

/**
 * Invite a member by email: answers the one-time link once, in the same words whether or not the
 * email has an account anywhere (docs/decisions.md 51, 160).
 */
export async function inviteMemberAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const inv = await inviteOrgMember(db, { actor, org, input: parseAuthInput(MemberAddInput, form), now });
    revalidatePath(adminPath(org));
    const link = `${await requestOrigin()}/invite/${inv.token}`;
    return { shownOnce: { label: `Invitation for ${inv.email} as ${inv.role}: pass this link on. It works once, until ${formatUtc(inv.expiresAt)}.`, value: link } };
  });
}

export async function revokeInvitationAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor }) => {
    await revokeInvitation(db, { actor, org, invitationId: String(form.get('invitation_id') ?? '') });
    revalidatePath(adminPath(org));
    return { message: 'Invitation withdrawn.' };
  });
}

export async function changeRoleAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor }) => {
    await changeMemberRole(db, { actor, org, input: parseAuthInput(MemberRoleInput, form) });
    revalidatePath(adminPath(org));
    return { message: 'Role saved.' };
  });
}

export async function removeMemberAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor }) => {
    await removeOrgMember(db, { actor, org, userId: String(form.get('user_id') ?? '') });
    revalidatePath(adminPath(org));
    return { message: 'Removed.' };
  });
}

export async function grantBlobAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const grant = await grantBlobAccess(db, { actor, org, input: parseAuthInput(BlobGrantInput, form), now });
    revalidatePath(adminPath(org));
    const what = `${grant.role} on ${grant.blob.alias ?? grant.blob.name}`;
    if (!grant.pending) return { message: `${grant.grantee.label} holds ${what}.` };
    if (!grant.invitation) return { message: `${grant.grantee.label} gets ${what} on accepting the invitation already sent to them (Pending invitations).` };
    const link = `${await requestOrigin()}/invite/${grant.invitation.token}`;
    return {
      shownOnce: {
        label: `${grant.grantee.label} gets ${what} on accepting this link (logged in, or with a new account): pass it on. It works once, until ${formatUtc(grant.invitation.expiresAt)}, and replaces any earlier blob-access link for that email.`,
        value: link,
      },
    };
  });
}

export async function revokeGrantAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor }) => {
    await revokeBlobGrant(db, { actor, grantId: String(form.get('grant_id') ?? '') });
    revalidatePath(adminPath(org));
    return { message: 'Revoked.' };
  });
}

/** Create an org key (acts as the org, capped at its role); the secret is answered once. */
export async function createOrgKeyAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const { key, apiKey } = await createApiKey(db, { actor, owner: { type: 'org', org }, input: parseAuthInput(ApiKeyCreateInput, form), now });
    revalidatePath(adminPath(org));
    return { shownOnce: { label: `New ${apiKey.role} key "${apiKey.name}" for the org:`, value: key } };
  });
}

export async function revokeOrgKeyAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    await revokeApiKey(db, { actor, keyId: String(form.get('key_id') ?? ''), now });
    revalidatePath(adminPath(org));
    return { message: 'Revoked.' };
  });
}

/** Issue an access key pair acting as the org (SPEC §14); the secret is answered once. */
export async function createOrgAccessKeyAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const input = parseAuthInput(AccessKeyCreateInput, form);
    const { secretAccessKey, accessKey } = await createAccessKey(db, { actor, owner: { type: 'org', org }, input, now });
    revalidatePath(adminPath(org));
    return { shownOnce: shownOnceAccessKey(accessKey.accessKeyId, secretAccessKey) };
  });
}

/** Revoke any access key pair of the org (the org's own, or a member's). */
export async function revokeOrgAccessKeyAction(org: string, _prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    await revokeAccessKey(db, { actor, keyId: String(form.get('key_id') ?? ''), now });
    revalidatePath(adminPath(org));
    return { message: 'Revoked.' };
  });
}
