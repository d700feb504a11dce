/**
 * The schedule page's loading state, and its Suspense boundary: the page is streamed and hydrated as
 * one unit inside it. Without this boundary, hydration sometimes met the page's client components
 * (actions, times, auto-refresh) before their code had loaded, and React 19 / Next.js 15.5 then
 * failed hydration of the whole document (#418, about 1 load in 11, measured) and rendered it again
 * in the browser. See docs/decisions.md.
 */
export default function ScheduleLoading() {
  return (
    <div className="page" aria-busy="true">
      <p className="muted">Loading the schedule…</p>
    </div>
  );
}
