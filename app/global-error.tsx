'use client';
/**
 * What a page that fails to render shows (production), in place of the whole document.
 *
 * It is the app's only error boundary on purpose: a route `error.tsx` makes every page's segment
 * wait for that file's own script chunk while it hydrates, and when the chunk arrived after
 * hydration began (a loaded machine, a slow link) React failed to hydrate the page's content
 * (error #418, "3 of 21 loads" of the catalog revision page; docs/decisions.md 153). This boundary
 * sits above the root layout, where such a wait holds the whole hydration back instead of breaking it.
 *
 * The error itself reaches the browser without its message (production), so when the cause is the
 * installation's, not the page's, the boundary asks `/api/health` (no session needed, bounded at 5 s)
 * and names it: the database out of reach, or not migrated.
 */
import { useEffect, useState } from 'react';
import { healthCondition } from './lib/health-condition';
import './globals.css';

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const [condition, setCondition] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/health', { cache: 'no-store' })
      .then((res) => res.json())
      .then((health: { database?: unknown; reason?: unknown }) => {
        if (live) setCondition(healthCondition(health));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
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
              <strong>Something went wrong while loading this page.</strong> {condition ? <>{condition} </> : null}
              {error.digest ? <span className="mono small">(ref {error.digest})</span> : null}
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
