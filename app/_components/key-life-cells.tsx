import type { ReactNode } from 'react';
import { LocalTime } from '@/components/local-time';
import { ActionForm, type FormAnswer } from './action-form';

/**
 * The last three cells of a key's row (API keys, access key pairs): when it was created, its last
 * use (in the viewer's zone), and its status: the revocation instant, or a Revoke button that asks `confirm` first.
 */
export function KeyLifeCells({
  keyRow,
  revoke,
  confirm,
}: {
  /** The key's row: the hidden field names `id`; `name` labels the Revoke button. */
  keyRow: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };
  revoke: (prev: FormAnswer | null, form: FormData) => Promise<FormAnswer>;
  confirm: { title: string; body?: ReactNode };
}) {
  const { id, name, createdAt, lastUsedAt, revokedAt } = keyRow;
  return (
    <>
      <td className="small nowrap" data-label="Created">
        <LocalTime instant={createdAt} />
      </td>
      <td className="small nowrap" data-label="Last used">
        {lastUsedAt ? <LocalTime instant={lastUsedAt} /> : <span className="muted">never</span>}
      </td>
      <td data-label="Status">
        {revokedAt ? (
          <span className="badge badge-muted">
            revoked <LocalTime instant={revokedAt} />
          </span>
        ) : (
          <ActionForm action={revoke} submitLabel="Revoke" danger confirm={confirm} label={`Revoke ${name}`}>
            <input type="hidden" name="key_id" value={id} />
          </ActionForm>
        )}
      </td>
    </>
  );
}
