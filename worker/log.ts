/** Structured JSON logs of the worker: one line per event, subscribed to the typed event map. */
import type { WorkerEvents } from './events';

export function logEvents(events: WorkerEvents, level: 'debug' | 'info' | 'warn' | 'error'): void {
  const write = (lvl: string, msg: string, fields: Record<string, unknown>) =>
    console.log(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }));
  events.on('worker:start', (p) => write('info', 'worker started', p));
  events.on('worker:stop', (p) => write('info', 'worker stopping', p));
  events.on('tick:error', (p) => write('error', 'tick failed', { error: p.error.message }));
  events.on('occurrence:fired', (p) =>
    write(p.status === 'success' ? 'info' : 'warn', 'occurrence fired', { ...p, scheduledFor: p.scheduledFor.toISOString() }),
  );
  events.on('occurrence:skipped', (p) => write('warn', 'occurrences skipped', { ...p, scheduledFor: p.scheduledFor.toISOString() }));
  if (level === 'debug') {
    events.on('tick:start', (p) => write('debug', 'tick', { now: p.now.toISOString(), due: p.due }));
    events.on('occurrence:lost-race', (p) => write('debug', 'occurrence taken by another worker', { ...p, scheduledFor: p.scheduledFor.toISOString() }));
  }
}
