/**
 * Structured JSON logs of the worker: one line per event, subscribed to the typed event map, written
 * through lib/log (the line format and the level, LOG_LEVEL, are the web process's too). Each line
 * carries `workerId` when given.
 */
import { log, logEnabled, type LogFields, type LogLevel } from '../lib/log';
import type { WorkerEvents } from './events';

export function logEvents(events: WorkerEvents, workerId?: string): void {
  // `fields` may be a function: a line below the configured level then costs no object (one per fire).
  const write = (lvl: LogLevel, msg: string, fields: LogFields | (() => LogFields)) => {
    if (!logEnabled(lvl)) return;
    log(lvl, msg, { ...(workerId ? { workerId } : {}), ...(typeof fields === 'function' ? fields() : fields) });
  };
  const iso = (d: Date) => d.toISOString();
  events.on('worker:start', (p) => write('info', 'worker started', p));
  events.on('worker:stop', (p) => write('info', 'worker stopping', p));
  events.on('worker:pruned', (p) => write('info', 'dead workers pruned', p));
  events.on('tick:error', (p) => write('error', 'tick failed', { error: p.error.message }));
  events.on('occurrence:fired', (p) =>
    write(p.status === 'success' ? 'info' : 'warn', 'occurrence fired', () => ({ ...p, scheduledFor: iso(p.scheduledFor) })),
  );
  events.on('occurrence:delivering', (p) => write('debug', 'delivering', () => ({ ...p, scheduledFor: iso(p.scheduledFor) })));
  events.on('deliveries:cancelled', (p) => write('info', 'waiting deliveries of deleted or disabled schedules cancelled; not sent', p));
  events.on('delivery:error', (p) => write('error', 'recording deliveries failed; tried again after 1, 2 and 4 s, then left to recovery', { error: p.error.message }));
  events.on('dead-letters:sent', (p) => {
    if (p.sent > 0) write('info', 'dead letters sent to SQS', { sent: p.sent });
    // One line per failed send: which dead letter, which queue, AWS's answer, and whether it is tried again.
    for (const f of p.failures) write(f.final ? 'error' : 'warn', f.final ? 'dead letter not sent to its SQS queue; giving up' : 'dead letter not sent to its SQS queue; trying again in 60 s', f);
  });
  events.on('alerts:swept', (p) => write('debug', 'alert log swept', p));
  events.on('alerts:raised', (p) => write('info', 'alerts raised by the minute check', p));
  events.on('alerts:sent', (p) => {
    if (p.sent > 0) write('info', 'alerts sent', { sent: p.sent });
    // One line per failed send: which alert, which channel, what it answered, and whether it is tried again.
    for (const f of p.failures) write(f.final ? 'error' : 'warn', f.final ? 'alert not sent; giving up' : 'alert not sent; trying again with back-off', f);
  });
  events.on('heartbeat-url:pinged', (p) => write(p.status >= 200 && p.status < 300 ? 'debug' : 'warn', 'SCHEDULER_HEARTBEAT_URL requested', p));
  events.on('heartbeat-url:failed', (p) => write('warn', 'SCHEDULER_HEARTBEAT_URL request failed', { error: p.error.message }));
  events.on('occurrence:skipped', (p) => write('warn', 'occurrences skipped', { ...p, scheduledFor: iso(p.scheduledFor) }));
  events.on('occurrence:already-fired', (p) => write('warn', 'occurrence already fired; advanced without firing again', { ...p, scheduledFor: iso(p.scheduledFor) }));
  events.on('occurrence:error', (p) => write('error', 'occurrence could not be fired', { scheduleId: p.scheduleId, scheduledFor: iso(p.scheduledFor), error: p.error.message }));
  events.on('retention:swept', (p) => {
    const batch = { phase: p.phase, cutoff: p.cutoff ? iso(p.cutoff) : null, limit: p.limit, deleted: p.deleted, heldMs: Math.round(p.durationMs) };
    write('debug', 'retention batch', batch);
    // One line per sweep: what each phase removed (vacuum: pages given back).
    if (p.totals) write('info', 'retention sweep done', { runs: p.totals.runs, activity: p.totals.activity, executions: p.totals.executions, vacuumPages: p.totals.vacuum });
  });
  events.on('tick:end', (p) => {
    if (p.claimed > 0) write('debug', 'tick', { now: iso(p.now), claimed: p.claimed, fired: p.fired, durationMs: Math.round(p.durationMs) });
  });
  events.on('backfill:tick', (p) => {
    write('debug', 'backfill tick', { fired: p.fired, waiting: p.waiting, durationMs: Math.round(p.durationMs) });
    for (const id of p.completed) write('info', 'backfill completed', { backfillId: id });
  });
  events.on('backfill:error', (p) => write('error', 'backfill fires failed; tried again on the next loop', { error: p.error.message }));
  events.on('occurrence:lost-race', (p) => write('debug', 'occurrence taken by another worker', () => ({ ...p, scheduledFor: iso(p.scheduledFor) })));
}
