/**
 * An org's alert channels through the product API (SPEC §17), for its admins. Thin: parse, one
 * lib/schedules call, the answer.
 *
 * - `GET /api/v1/orgs/{org}/alert-channels`: `{channels}`.
 * - `POST /api/v1/orgs/{org}/alert-channels` `{type, name, config}`: `{channel, signing_secret?}` (a
 *   webhook's own `whsec_…`, in this answer only).
 * - `GET|PATCH|DELETE /api/v1/orgs/{org}/alert-channels/{channel}` (id or name): `{channel}`; PATCH
 *   `{name?, config?, rotate_secret?}`; DELETE `{}`.
 * - `POST /api/v1/orgs/{org}/alert-channels/{channel}/test`: Send test, `{ok, status?, message}`.
 */
import type { Actor } from '../auth';
import { parseOrRefuse } from '../errors';
import {
  AlertChannelUpdateInput,
  createAlertChannel,
  deleteAlertChannel,
  getAlertChannel,
  listAlertChannels,
  testAlertChannel,
  updateAlertChannel,
} from '../schedules';
import { json } from './http';
import { readJsonObject } from './revision-command';
import { runtime } from './runtime';

export async function listAlertChannelsResponse(actor: Actor, org: string): Promise<Response> {
  return json({ channels: await listAlertChannels(runtime().db, { actor, org }) });
}

export async function createAlertChannelResponse(req: Request, actor: Actor, org: string): Promise<Response> {
  const input = await readJsonObject(req);
  const { db, httpAllowList } = runtime();
  return json(await createAlertChannel(db, { actor, org, input, now: new Date(), allowList: httpAllowList }));
}

export async function getAlertChannelResponse(actor: Actor, org: string, channel: string): Promise<Response> {
  return json({ channel: await getAlertChannel(runtime().db, { actor, org, channel }) });
}

export async function updateAlertChannelResponse(req: Request, actor: Actor, org: string, channel: string): Promise<Response> {
  const input = parseOrRefuse(AlertChannelUpdateInput, await readJsonObject(req));
  const { db, httpAllowList } = runtime();
  return json(await updateAlertChannel(db, { actor, org, channel, input, now: new Date(), allowList: httpAllowList }));
}

export async function deleteAlertChannelResponse(actor: Actor, org: string, channel: string): Promise<Response> {
  await deleteAlertChannel(runtime().db, { actor, org, channel });
  return json({});
}

export async function testAlertChannelResponse(actor: Actor, org: string, channel: string): Promise<Response> {
  const { db, delivery, http } = runtime();
  return json(await testAlertChannel(db, { actor, org, channel, now: new Date(), delivery: { pool: delivery.pool, allowList: delivery.allowList, resolve: delivery.resolve, publicUrl: http.publicUrl } }));
}
