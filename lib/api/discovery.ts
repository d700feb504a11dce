/** Discovery endpoints of SPEC §3.3: how clients (the CLI, scripts) find a scheduler's revision id. */
import type { Actor } from '../auth';
import { getDb } from '../db';
import { getBlobDescription, listReadableBlobs } from '../workflows';
import { json } from './http';

/** `GET /api/v1/orgs/{org}/blobs`. */
export async function listBlobsResponse(actor: Actor, org: string): Promise<Response> {
  return json(await listReadableBlobs(getDb(), { actor, org }));
}

/** `GET /api/v1/orgs/{org}/blobs/{blob}`. */
export async function describeBlobResponse(actor: Actor, org: string, blob: string): Promise<Response> {
  return json(await getBlobDescription(getDb(), { actor, org, blob }));
}
