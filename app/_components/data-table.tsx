import type { ReactNode } from 'react';

/** One header cell of a DataTable. */
export interface DataTableColumn {
  /** Header text; also the React key, so it is unique within a table. */
  label: string;
  /** Extra class of the header cell (e.g. `num` for a right-aligned count). */
  className?: string;
}

/**
 * The catalog and account pages' table: a horizontally scrolling box (a wide table scrolls inside it,
 * never the page) around a `.table` with one header row of `scope="col"` cells. `children` are the
 * body rows (`<tr>`). `compact` gives the account screens' tighter rows.
 */
export function DataTable({ label, columns, compact = false, children }: { label?: string; columns: readonly DataTableColumn[]; compact?: boolean; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className={compact ? 'table table-compact' : 'table'} aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={c.className}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A table row's commands (forms and buttons), side by side on one line, wrapping when narrow. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="row-actions">{children}</div>;
}
