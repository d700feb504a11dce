'use client';
/**
 * What a page that fails to render shows (production), in place of the whole document.
 *
 * It is the app's only error boundary on purpose: a route `error.tsx` makes every page's segment
 * wait for that file's own script chunk while it hydrates, and when the chunk arrived after
 * hydration began (a loaded machine, a slow link) React failed to hydrate the page's content
 * (error #418, "3 of 21 loads" of the catalog revision page; docs/decisions.md 153). This boundary
 * sits above the root layout, where such a wait holds the whole hydration back instead of breaking it.
 */
import './globals.css';

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <header className="app-header">
          <div className="app-header-inner">
            {/* A plain link: the router may be what failed. */}
            <a href="/schedulers" className="brand">
              <span className="brand-mark" aria-hidden="true">
                ◷
              </span>
              Scheduler
            </a>
          </div>
        </header>
        <main id="main" className="app-main">
          <div className="page">
            <div role="alert" className="alert alert-error">
              <strong>Something went wrong while loading this page.</strong> {error.digest ? <span className="mono small">(ref {error.digest})</span> : null}
            </div>
            <button type="button" className="btn" onClick={reset}>
              Try again
            </button>
          </div>
        </main>
      </body>
    </html>
  );
}
