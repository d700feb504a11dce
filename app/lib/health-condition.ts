/**
 * The error page's words for a failure whose cause is the installation's (app/global-error.tsx): what
 * `GET /api/health` says of the database, read by the browser after a page failed to render.
 */

/** What `/api/health` says of the database that explains a failed page, in words; null when the database is fine (the failure is the page's own). */
export function healthCondition(health: { database?: unknown; reason?: unknown }): string | null {
  if (health.database === 'unreachable') return 'The database cannot be reached, so this page cannot be shown. Try again once it is back; nothing needs a restart.';
  if (typeof health.reason === 'string' && health.reason.startsWith('the database is not fully migrated')) return `The database is not ready: ${health.reason}.`;
  return null;
}
