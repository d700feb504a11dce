'use server';
/**
 * Server actions of the account page: personal API keys and the password. Each resolves the signed-in
 * user, calls one lib/auth function and answers with the server-action contract.
 */
import { revalidatePath } from 'next/cache';
import type { FormAnswer } from '@/app/_components/action-form';
import { currentWebSession, webAction } from '@/app/lib/server';
import { shownOnceAccessKey } from '@/app/_components/access-key-shown-once';
import {
  AccessKeyCreateInput,
  ApiKeyCreateInput,
  changePassword,
  createAccessKey,
  createApiKey,
  parseAuthInput,
  PasswordChangeInput,
  revokeAccessKey,
  revokeApiKey,
} from '@/lib/auth';

/** Create a personal key (acts as the user, capped at its role); the secret is answered once. */
export async function createPersonalKeyAction(_prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const { key, apiKey } = await createApiKey(db, { actor, owner: { type: 'user' }, input: parseAuthInput(ApiKeyCreateInput, form), now });
    revalidatePath('/account');
    return { shownOnce: { label: `Your new ${apiKey.role} key "${apiKey.name}":`, value: key } };
  });
}

/** Revoke one of the user's personal keys (401 from now on). */
export async function revokePersonalKeyAction(_prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    await revokeApiKey(db, { actor, keyId: String(form.get('key_id') ?? ''), now });
    revalidatePath('/account');
    return { message: 'Revoked.' };
  });
}

/** Issue an access key pair acting as the user in one of their orgs (SPEC §14); the secret is answered once. */
export async function createPersonalAccessKeyAction(_prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    const input = parseAuthInput(AccessKeyCreateInput, form);
    const { secretAccessKey, accessKey } = await createAccessKey(db, { actor, owner: { type: 'user', org: input.org ?? '' }, input, now });
    revalidatePath('/account');
    return { shownOnce: shownOnceAccessKey(accessKey.accessKeyId, secretAccessKey) };
  });
}

/** Revoke one of the user's access key pairs (refused with UnrecognizedClientException from now on). */
export async function revokePersonalAccessKeyAction(_prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor, now }) => {
    await revokeAccessKey(db, { actor, keyId: String(form.get('key_id') ?? ''), now });
    revalidatePath('/account');
    return { message: 'Revoked.' };
  });
}

/** Change the user's password; the user's other browser sessions end. */
export async function changePasswordAction(_prev: FormAnswer | null, form: FormData): Promise<FormAnswer> {
  return webAction(async ({ db, actor }) => {
    const session = await currentWebSession();
    await changePassword(db, { actor, input: parseAuthInput(PasswordChangeInput, form), currentToken: session?.token ?? null });
    return { message: 'Password changed. Your other sessions were logged out.' };
  });
}
