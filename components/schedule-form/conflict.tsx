'use client';
/**
 * The edit form's conflict (SPEC §15): the schedule was saved by someone else since this form opened,
 * so the save was refused with `version_conflict` and nothing was written. The panel lists, field by
 * field, what is saved now beside what this form holds (the fields either side changed), and lets
 * the operator choose: Reload (take the saved values, discarding this form's) or Overwrite (save this
 * form's changes over them). Nothing is saved until one is chosen.
 */
import type { Schedule } from '@/lib/schedules/contract';
import type { ConflictRow } from './conflict-rows';

const BY_WORDS = { them: 'saved since you opened the form', you: 'your change', both: 'both changed' } as const;

export function ConflictPanel({ rows, current, busy, onReload, onOverwrite }: { rows: ConflictRow[]; current: Schedule; busy: boolean; onReload: () => void; onOverwrite: () => void }) {
  const by = current.updated_at ? new Date(current.updated_at) : null;
  return (
    <div role="alert" className="alert alert-warning conflict-panel" data-testid="version-conflict" tabIndex={-1}>
      <p>
        <strong>This schedule was changed by someone else while you edited it.</strong> Nothing was saved. It is now at version {current.version}
        {by ? ` (saved ${by.toISOString().replace('T', ' ').slice(0, 19)} UTC)` : ''}. Compare, then choose.
      </p>
      {rows.length ? (
        <table className="table conflict-table">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Saved now</th>
              <th scope="col">Yours</th>
              <th scope="col">Changed</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.field} data-field={r.field}>
                <th scope="row">{r.label}</th>
                <td className="conflict-saved">{r.saved}</td>
                <td className="conflict-yours">{r.yours}</td>
                <td className="muted small">{BY_WORDS[r.changedBy]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="small">The saved values now match yours.</p>
      )}
      <div className="conflict-actions">
        <button type="button" className="btn" onClick={onReload} disabled={busy}>
          Reload (discard my changes)
        </button>
        <button type="button" className="btn btn-primary" onClick={onOverwrite} disabled={busy}>
          Overwrite with my changes
        </button>
      </div>
    </div>
  );
}
