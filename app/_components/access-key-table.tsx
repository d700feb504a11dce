import type { AccessKeyInfo } from '@/lib/auth';
import type { FormAnswer } from './action-form';
import { DataTable } from './data-table';
import { KeyLifeCells } from './key-life-cells';

const COLUMNS = [{ label: 'Name' }, { label: 'Access key id' }, { label: 'Acts as' }, { label: 'Role' }, { label: 'Created' }, { label: 'Last used' }, { label: 'Status' }];

/**
 * Access key pairs of the EventBridge-compatible API (SPEC §14) with their last use, and a Revoke
 * button for the active ones. The access key id is public; the secret is never shown again.
 */
export function AccessKeyTable({
  keys,
  revoke,
  caption,
  showOrg = false,
}: {
  keys: AccessKeyInfo[];
  revoke: (prev: FormAnswer | null, form: FormData) => Promise<FormAnswer>;
  caption: string;
  /** Name each pair's org (the Account page lists pairs of several orgs). */
  showOrg?: boolean;
}) {
  if (keys.length === 0) return <p className="muted">No access keys yet.</p>;
  return (
    <DataTable label={caption} columns={COLUMNS} compact>
      {keys.map((k) => (
        <tr key={k.id}>
          <td>{k.name}</td>
          <td className="mono small">{k.accessKeyId}</td>
          <td className="small">
            {k.actsAs.type === 'org' ? 'the org' : k.actsAs.email}
            {showOrg ? <div className="muted">in {k.org.alias ?? k.org.name}</div> : null}
          </td>
          <td>{k.role}</td>
          <KeyLifeCells
            keyRow={k}
            revoke={revoke}
            confirm={{ title: `Revoke access key "${k.name}" (${k.accessKeyId})?`, body: <p>Requests signed with it are refused from their next request on. This cannot be undone: a revoked pair stays revoked.</p> }}
          />
        </tr>
      ))}
    </DataTable>
  );
}

/** The fields of a new access key pair: name, role, and (on the Account page) the org it belongs to. */
export function AccessKeyFields({ orgs }: { orgs?: { id: string; label: string }[] }) {
  return (
    <>
      <div className="field">
        <label htmlFor="access-key-name">Access key name</label>
        <input id="access-key-name" name="name" type="text" required maxLength={64} placeholder="terraform" />
      </div>
      {orgs ? (
        <div className="field">
          <label htmlFor="access-key-org">Org (AWS account)</label>
          <select id="access-key-org" name="org" required>
            {orgs.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor="access-key-role">Access key role</label>
        <select id="access-key-role" name="role" defaultValue="read">
          <option value="read">read</option>
          <option value="write">write</option>
        </select>
      </div>
    </>
  );
}
