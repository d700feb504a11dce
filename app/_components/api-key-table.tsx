import type { ApiKeyInfo } from '@/lib/auth';
import type { FormAnswer } from './action-form';
import { DataTable } from './data-table';
import { KeyLifeCells } from './key-life-cells';

const KEY_COLUMNS = [{ label: 'Name' }, { label: 'Key' }, { label: 'Role' }, { label: 'Created' }, { label: 'Last used' }, { label: 'Status' }];

/** API keys with their last use, and a Revoke button for the active ones. Never shows a secret. */
export function ApiKeyTable({ keys, revoke, caption }: { keys: ApiKeyInfo[]; revoke: (prev: FormAnswer | null, form: FormData) => Promise<FormAnswer>; caption: string }) {
  if (keys.length === 0) return <p className="muted">No keys yet.</p>;
  return (
    <DataTable label={caption} columns={KEY_COLUMNS} compact>
      {keys.map((k) => (
        <tr key={k.id}>
          <td>{k.name}</td>
          <td className="mono small">sk_{k.prefix}_…</td>
          <td>{k.role}</td>
          <KeyLifeCells
            keyRow={k}
            revoke={revoke}
            confirm={{ title: `Revoke key "${k.name}"?`, body: <p>Requests with it are refused from their next request on. This cannot be undone: a revoked key stays revoked.</p> }}
          />
        </tr>
      ))}
    </DataTable>
  );
}

/** The fields of a new API key: its name and its role (read or write). */
export function ApiKeyFields() {
  return (
    <>
      <div className="field">
        <label htmlFor="key-name">Key name</label>
        <input id="key-name" name="name" type="text" required maxLength={64} placeholder="ci-deploy" />
      </div>
      <div className="field">
        <label htmlFor="key-role">Key role</label>
        <select id="key-role" name="role" defaultValue="read">
          <option value="read">read</option>
          <option value="write">write</option>
        </select>
      </div>
    </>
  );
}
