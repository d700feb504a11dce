/**
 * An org's AWS settings through the product API (SPEC §13.5), for its admins. Thin: parse, one
 * lib/auth call, the answer `{aws: {credentials, external_id, allowed_accounts?, worker_credentials_allowed}}`.
 *
 * - `GET /api/v1/orgs/{org}/aws`: the settings.
 * - `PATCH /api/v1/orgs/{org}/aws` `{credentials?, allowed_accounts?}`: change them.
 * - `POST /api/v1/orgs/{org}/aws/rotate-external-id`: a new ExternalId (every role's trust policy must name it).
 */
import { AwsSettingsUpdateInput, getOrgAwsSettings, parseAuthInput, rotateOrgExternalId, updateOrgAwsSettings, type Actor } from '../auth';
import { json } from './http';
import { readJsonObject } from './revision-command';
import { runtime } from './runtime';

function context(actor: Actor, org: string) {
  const { db, delivery } = runtime();
  return { db, opts: { actor, org, workerOrgs: delivery.awsWorkerCredentialsOrgs } };
}

export async function getAwsSettingsResponse(actor: Actor, org: string): Promise<Response> {
  const { db, opts } = context(actor, org);
  return json({ aws: await getOrgAwsSettings(db, opts) });
}

export async function updateAwsSettingsResponse(req: Request, actor: Actor, org: string): Promise<Response> {
  const input = parseAuthInput(AwsSettingsUpdateInput, await readJsonObject(req));
  const { db, opts } = context(actor, org);
  return json({ aws: await updateOrgAwsSettings(db, { ...opts, input }) });
}

export async function rotateExternalIdResponse(actor: Actor, org: string): Promise<Response> {
  const { db, opts } = context(actor, org);
  return json({ aws: await rotateOrgExternalId(db, opts) });
}
