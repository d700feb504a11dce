import type { Metadata } from 'next';
import { ActionForm } from '@/app/_components/action-form';
import { AccessKeyFields, AccessKeyTable } from '@/app/_components/access-key-table';
import { ApiKeyFields, ApiKeyTable } from '@/app/_components/api-key-table';
import { currentWebSession, webContext } from '@/app/lib/server';
import { listAccessKeys, listApiKeys, listUserOrgs, MIN_PASSWORD_LENGTH } from '@/lib/auth';
import {
  changePasswordAction,
  createPersonalAccessKeyAction,
  createPersonalKeyAction,
  revokePersonalAccessKeyAction,
  revokePersonalKeyAction,
} from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Account' };

/** The signed-in user's account: memberships, personal API keys (acting as the user), password. */
export default async function AccountPage() {
  const { db, actor } = await webContext();
  const session = await currentWebSession();
  const [keys, orgs, accessKeys] = await Promise.all([
    listApiKeys(db, { actor, owner: { type: 'user' } }),
    listUserOrgs(db, { actor }),
    listAccessKeys(db, { actor, of: { type: 'mine' } }),
  ]);
  return (
    <div className="page page-form">
      <div className="page-header">
        <div>
          <h1>Account</h1>
          <p className="page-intro">
            Signed in as <strong>{session?.user.email}</strong>
            {orgs.length > 0 ? <> · {orgs.map((o) => `${o.alias ?? o.name} (${o.role})`).join(', ')}</> : null}
          </p>
        </div>
      </div>

      <section className="container stack" aria-labelledby="keys-title">
        <h2 id="keys-title" className="container-title">
          Personal API keys
        </h2>
        <p className="container-intro small">
          A personal key acts as you, with your roles capped at the key&apos;s role. Send it as <span className="mono">Authorization: Bearer &lt;key&gt;</span>.
        </p>
        <ApiKeyTable keys={keys} revoke={revokePersonalKeyAction} caption="Personal API keys" />
        <ActionForm action={createPersonalKeyAction} submitLabel="Create key" label="New personal key">
          <ApiKeyFields />
        </ActionForm>
      </section>

      <section className="container stack section-gap" aria-labelledby="access-keys-title">
        <h2 id="access-keys-title" className="container-title">
          AWS access keys
        </h2>
        <p className="container-intro small">
          For the AWS CLI, boto3 and the AWS SDKs on this server&apos;s EventBridge Scheduler API (any region, <span className="mono">--endpoint-url</span> this server). A pair
          acts as you in one org, with your roles capped at its role. The secret is shown once.
        </p>
        <AccessKeyTable keys={accessKeys} revoke={revokePersonalAccessKeyAction} caption="AWS access keys" showOrg />
        {orgs.length ? (
          <ActionForm action={createPersonalAccessKeyAction} submitLabel="Create access key" label="New AWS access key">
            <AccessKeyFields orgs={orgs.map((o) => ({ id: o.id, label: o.alias ?? o.name }))} />
          </ActionForm>
        ) : (
          <p className="muted small">An access key belongs to an org: you are not a member of any.</p>
        )}
      </section>

      <section className="container stack section-gap" aria-labelledby="password-title">
        <h2 id="password-title" className="container-title">
          Password
        </h2>
        <ActionForm action={changePasswordAction} submitLabel="Change password" label="Change password">
          <div className="field">
            <label htmlFor="current-password">Current password</label>
            <input id="current-password" name="current_password" type="password" autoComplete="current-password" required />
          </div>
          <div className="field">
            <label htmlFor="new-password">New password</label>
            <input id="new-password" name="new_password" type="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
          </div>
        </ActionForm>
      </section>
    </div>
  );
}
