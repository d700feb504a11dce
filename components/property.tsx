import type { ReactNode } from 'react';

/** One term and its value in a `<dl className="properties">` (schedule and execution pages). */
export function Property({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="property">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
