'use client';
/**
 * The schedules table: TanStack Table's header groups and rows as a plain `<table>`. A sortable
 * header is a button that toggles its column's sort (`aria-sort` says which way); each cell carries
 * its column's header as `data-label` for the stacked layout of narrow screens.
 */
import { flexRender, type Table } from '@tanstack/react-table';
import type { Row } from './rows';

export function GridTable({ table, pending }: { table: Table<Row>; pending: boolean }) {
  return (
    <table className={`table table-grid${pending ? ' is-pending' : ''}`} aria-label="Schedules">
      <thead>
        {table.getHeaderGroups().map((hg) => (
          <tr key={hg.id}>
            {hg.headers.map((h) => {
              const sorted = h.column.getIsSorted();
              return (
                <th key={h.id} scope="col" aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined} className={`col-${h.column.id}`}>
                  {h.column.getCanSort() ? (
                    <button type="button" className="sort-button" onClick={h.column.getToggleSortingHandler()}>
                      {flexRender(h.column.columnDef.header, h.getContext())}
                      <span aria-hidden="true" className="sort-indicator">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </span>
                    </button>
                  ) : (
                    flexRender(h.column.columnDef.header, h.getContext())
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id}>
            {row.getVisibleCells().map((cell) => (
              <td key={cell.id} className={`col-${cell.column.id}`} data-label={typeof cell.column.columnDef.header === 'string' ? cell.column.columnDef.header : undefined}>
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
