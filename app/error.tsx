'use client';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="page">
      <div role="alert" className="alert alert-error">
        <strong>Something went wrong while loading this page.</strong> {error.digest ? <span className="mono small">(ref {error.digest})</span> : null}
      </div>
      <button type="button" className="btn" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
