/**
 * TEST-ONLY: the product API of SPEC §3 served over real HTTP on a free loopback port, with the real
 * handlers the web app's route files call (`handleRevisionCommand`, `describeBlobResponse`,
 * `createBlobResponse`) on a test database, so a client (the CLI) runs against the real API in-process
 * without building the web app. Routes: `POST /api/v1/revisions/{id}/data`,
 * `GET /api/v1/orgs/{org}/blobs/{blob}`, `POST /api/v1/orgs/{org}/blobs`; the caller's API key as the
 * web app reads it (`X-API-Key` or `Authorization: Bearer`).
 */
import { createBlobResponse, credentialOf, describeBlobResponse, errorResponse, handleRevisionCommand, type Runtime } from '../api';
import { actorFromApiKey } from '../auth';
import { DomainError } from '../errors';
import { serveFetch, type FetchServer } from './serve-fetch';

/** Serve the product API on `rt` (its database, limits and webhook allow list). Close it with `close()`. */
export function serveProductApi(rt: Pick<Runtime, 'db' | 'limits'> & Partial<Pick<Runtime, 'httpAllowList'>>): Promise<FetchServer> {
  return serveFetch(async (req) => {
    try {
      const key = credentialOf(req);
      const actor = key ? await actorFromApiKey(rt.db, key) : null;
      if (!actor) throw new DomainError('unauthorized', 'the API key is not valid');
      const parts = new URL(req.url).pathname.split('/').map(decodeURIComponent);
      // ['', 'api', 'v1', 'revisions', id, 'data'] or ['', 'api', 'v1', 'orgs', org, 'blobs', blob?]
      if (req.method === 'POST' && parts[3] === 'revisions' && parts[5] === 'data' && parts.length === 6) return await handleRevisionCommand(req, actor, parts[4], rt);
      if (parts[3] === 'orgs' && parts[5] === 'blobs') {
        if (req.method === 'GET' && parts.length === 7) return await describeBlobResponse(actor, parts[4], parts[6], rt.db);
        if (req.method === 'POST' && parts.length === 6) return await createBlobResponse(req, actor, parts[4], rt.db);
      }
      throw new DomainError('not_found', `no route for ${req.method} ${new URL(req.url).pathname}`);
    } catch (e) {
      return errorResponse(e);
    }
  });
}
