import { Children, cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';

/** One header cell of a DataTable. */
export interface DataTableColumn {
  /** Header text; also the React key, so it is unique within a table. */
  label: string;
  /** Extra class of the header cell (e.g. `num` for a right-aligned count). */
  className?: string;
}

/** The cells of a row in order, fragments opened; other components (which label their own cells) kept as they are. */
function cellsOf(children: ReactNode): ReactNode[] {
  return Children.toArray(children).flatMap((c) => (isValidElement<{ children?: ReactNode }>(c) && c.type === Fragment ? cellsOf(c.props.children) : [c]));
}

/**
 * `row` with each of its `<td>`/`<th>` cells labelled `data-label` by its column's header, which a
 * narrow screen shows beside the value (the row is then a card). A cell that names its own label
 * keeps it; a component among the cells (`KeyLifeCells`) labels its own and takes the columns after
 * the ones before it.
 */
function labelRow(row: ReactNode, columns: readonly DataTableColumn[]): ReactNode {
  if (!isValidElement<{ children?: ReactNode }>(row) || row.type !== 'tr') return row;
  let i = 0;
  const cells = cellsOf(row.props.children).map((cell) => {
    if (!isValidElement<Record<string, unknown>>(cell) || (cell.type !== 'td' && cell.type !== 'th')) return cell;
    const label = columns[i++]?.label;
    return cell.props['data-label'] !== undefined || label === undefined ? cell : cloneElement(cell as ReactElement<Record<string, unknown>>, { 'data-label': label });
  });
  return cloneElement(row, undefined, ...cells);
}

/**
 * The catalog and account pages' table: a horizontally scrolling box (a wide table scrolls inside it,
 * never the page) around a `.table` with one header row of `scope="col"` cells. `children` are the
 * body rows (`<tr>`). `compact` gives the account screens' tighter rows. On a narrow screen (≤ 640 px)
 * each row is a card of labelled lines (`.table-cards`), so its actions stay on screen.
 */
export function DataTable({ label, columns, compact = false, children }: { label?: string; columns: readonly DataTableColumn[]; compact?: boolean; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className={compact ? 'table table-cards table-compact' : 'table table-cards'} aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={c.className}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{Children.map(children, (row) => labelRow(row, columns))}</tbody>
      </table>
    </div>
  );
}

/** A table row's commands (forms and buttons), side by side on one line, wrapping when narrow. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="row-actions">{children}</div>;
}
