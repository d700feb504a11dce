import { createAccessKeyResponse, listAccessKeysResponse, methodNotAllowed, withActor } from '@/lib/api';

export const dynamic = 'force-dynamic';

/** SPEC §14: the access key pairs acting as the calling key's entity. */
export const GET = withActor(async (_req, actor) => listAccessKeysResponse(actor));

/** SPEC §14: issue a pair acting as the caller; the secret is answered once. */
export const POST = withActor(async (req, actor) => createAccessKeyResponse(req, actor));

export const PUT = methodNotAllowed('GET, POST');
export const PATCH = methodNotAllowed('GET, POST');
export const DELETE = methodNotAllowed('GET, POST');
