/**
 * The fire engine as the product composes it (lib/engine; SPEC §8, §12, §13): the per-scheduler facts
 * its drivers need, from the domain (an org's account id and AWS settings, a scheduler's signing secrets, its name in
 * schedule ARNs: its alias, else its id), the activity log its transactions write (SPEC §15), and no
 * facade. A process edge layers its facades on it (`schedulerEngine.with(…)`, worker/main.ts and
 * lib/api/runtime.ts); the verbs below are this product engine's, for callers that name no facade.
 */
import { ensureAccountId, orgAccountId, readOrgAws, readOrgAwsIn } from '../auth';
import { createEngine, NO_FACADE, type Engine, type EngineActivity } from '../engine';
import type { SchedulerFactSources } from '../targets';
import { recordActivities, type ActivityInput } from './activity';
import { raiseAlerts } from './alerts/raise';
import { signingSecretsForDelivery, signingSecretsIn } from './signing-secrets/signing-secrets';

/** The domain's facts (SPEC §13.1, §14), read with the client or the transaction the engine passes. */
export const SCHEDULER_FACTS: SchedulerFactSources = {
  account: (r, s) => (r.kind === 'db' ? orgAccountId(r.db, s.orgId) : ensureAccountId(r.tx, s.orgId)),
  name: async (_r, s) => s.alias ?? s.blobId,
  signingSecrets: (r, s, now) => (r.kind === 'db' ? signingSecretsForDelivery(r.db, s.blobId, now) : signingSecretsIn(r.tx, s.blobId, now)),
  aws: (r, s) => (r.kind === 'db' ? readOrgAws(r.db, s.orgId) : readOrgAwsIn(r.tx, s.orgId)),
};

/** An engine activity entry as the activity log records it: by `system` (SPEC §15). */
function activityOf(e: EngineActivity): ActivityInput {
  const schedule = { id: e.schedule.id, name: e.schedule.name, alias: e.schedule.alias };
  return { revisionId: e.schedule.revisionId, schedule, action: e.action, by: 'system', at: e.at, ...(e.action === 'auto_pause' ? { fields: ['enabled'] } : {}) };
}

/** The product's fire engine: the domain's facts and activity log, no facade. */
export const schedulerEngine: Engine = createEngine({
  facts: SCHEDULER_FACTS,
  facade: NO_FACADE,
  recordActivity: (tx, entries) => recordActivities(tx, entries.map(activityOf)),
  // SPEC §16.1: a process's edge passes its check-in URLs (SCHEDULER_PUBLIC_URL, the server key).
  checkins: null,
  // SPEC §17: alerts are raised in the transaction of the fact they report.
  raise: async (tx, facts, now) => void (await raiseAlerts(tx, facts, now)),
});

/** `schedulerEngine`'s verbs, for callers that name no facade (tests, benches, scripts). */
export const fireDue: Engine['fireDue'] = (opts) => schedulerEngine.fireDue(opts);
export const fireBackfills: Engine['fireBackfills'] = (opts) => schedulerEngine.fireBackfills(opts);
export const fireOccurrence: Engine['fireOccurrence'] = (opts) => schedulerEngine.fireOccurrence(opts);
export const fireRetry: Engine['fireRetry'] = (opts) => schedulerEngine.fireRetry(opts);
export const deliverEach: Engine['deliverEach'] = (...args) => schedulerEngine.deliverEach(...args);
export const recordDelivered: Engine['recordDelivered'] = (...args) => schedulerEngine.recordDelivered(...args);
export const deliverAndRecord: Engine['deliverAndRecord'] = (...args) => schedulerEngine.deliverAndRecord(...args);
export const sendDueDeadLetters: Engine['sendDueDeadLetters'] = (...args) => schedulerEngine.sendDueDeadLetters(...args);
