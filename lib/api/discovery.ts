/** Org-level blob endpoints (SPEC §3.3): how clients (the CLI, scripts) find a scheduler's revision id. */
import type { Actor } from '../auth';
import { createBlobHandler, getBlobHandler, listBlobsHandler } from '../workflows';
import { json } from './http';
import { readJsonObject } from './revision-command';
import { runtime, type Runtime } from './runtime';

/** `GET /api/v1/orgs/{org}/blobs`: the blobs the caller can read. */
export async function listBlobsResponse(actor: Actor, org: string, db: Runtime['db'] = runtime().db): Promise<Response> {
  return json(await listBlobsHandler({ db, actor, org, now: new Date() }));
}

/** `GET /api/v1/orgs/{org}/blobs/{blob}`: one blob's description. */
export async function describeBlobResponse(actor: Actor, org: string, blob: string, db: Runtime['db'] = runtime().db): Promise<Response> {
  return json(await getBlobHandler({ db, actor, org, blob, now: new Date() }));
}

/** `POST /api/v1/orgs/{org}/blobs` with `{type, alias?, name?}`: create a workflow or scheduler blob. */
export async function createBlobResponse(req: Request, actor: Actor, org: string, db: Runtime['db'] = runtime().db): Promise<Response> {
  const params = await readJsonObject(req);
  return json(await createBlobHandler({ db, actor, org, params, now: new Date() }));
}
