/**
 * SPEC §16.1 check-ins, as the web process takes them: `POST`/`GET
 * /api/v1/checkins/<token>[/start|/fail|/<exit code>]`. The token is the credential (no API key): a
 * token this server did not mint, a run swept by retention or never made all answer the same
 * "unknown" (the caller's one 404). The outcome rules are the fire engine's (lib/engine completion.ts).
 */
import type { Db } from '../../db';
import { runIdOfCheckinToken, type CheckinAnswer, type CheckinKind, type Engine } from '../../engine';
import { OUTCOME_MESSAGE_MAX_BYTES } from '../contract';

/**
 * What a check-in path's suffix says (SPEC §16.1): none or `0` = succeeded, `start` = started, `fail`
 * or `1`–`255` = failed (with the exit code when one was sent). Null for anything else (`/07`, `/256`,
 * `/done`: the caller's one 404).
 */
export function checkinKindOf(suffix: string | undefined): CheckinKind | null {
  if (suffix === undefined || suffix === '') return { kind: 'succeeded', exitCode: null };
  if (suffix === 'start') return { kind: 'start' };
  if (suffix === 'fail') return { kind: 'failed', exitCode: null };
  if (!/^(0|[1-9]\d{0,2})$/.test(suffix)) return null;
  const code = Number(suffix);
  if (code > 255) return null;
  return code === 0 ? { kind: 'succeeded', exitCode: 0 } : { kind: 'failed', exitCode: code };
}

/** The first 1 KiB of a check-in's body as UTF-8 text (an incomplete trailing character dropped); null when empty. */
export function outcomeMessageOf(body: Uint8Array): string | null {
  if (body.length === 0) return null;
  const text = new TextDecoder('utf-8').decode(body.subarray(0, OUTCOME_MESSAGE_MAX_BYTES), { stream: true });
  return text.length ? text : null;
}

export interface CheckInOptions {
  db: Db;
  /** The engine that records it (its activity log for an automatic pause). */
  engine: Engine;
  /** `checkinKey` of the server key (lib/api `runtime().checkinKey`). */
  key: Buffer;
  token: string;
  checkin: CheckinKind;
  message: string | null;
  now: Date;
}

/**
 * Record one check-in (SPEC §16.1) at `now`. Returns the run's outcome afterwards (the first terminal
 * check-in wins; later ones change nothing and answer the outcome as it is), or null for an unknown
 * token: not minted with `key`, or naming a run that no longer (or never) exists.
 */
export async function checkIn(opts: CheckInOptions): Promise<CheckinAnswer> {
  const runId = runIdOfCheckinToken(opts.key, opts.token);
  if (runId === null) return null;
  return opts.engine.recordCheckIn(opts.db, { runId, checkin: opts.checkin, message: opts.message, now: opts.now });
}
