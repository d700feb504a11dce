import type { Metadata } from 'next';
import { ActionForm } from '@/app/_components/action-form';
import { AccessKeyFields, AccessKeyTable } from '@/app/_components/access-key-table';
import { ApiKeyFields, ApiKeyTable } from '@/app/_components/api-key-table';
import { DataTable } from '@/app/_components/data-table';
import { orNotFoundPage, webContext } from '@/app/lib/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { LocalTime } from '@/components/local-time';
import { alertChannelUses, listAlertChannels } from '@/lib/schedules';
import { AlertChannelsSection } from './alert-channels';
import { getOrgAwsSettings, listAccessKeys, listApiKeys, listBlobGrants, listOrgInvitations, listOrgMembers, orgAccountId, ROLES } from '@/lib/auth';
import {
  changeRoleAction,
  createOrgAccessKeyAction,
  createOrgKeyAction,
  grantBlobAction,
  inviteMemberAction,
  removeMemberAction,
  revokeGrantAction,
  revokeInvitationAction,
  revokeOrgAccessKeyAction,
  revokeOrgKeyAction,
  rotateExternalIdAction,
  saveAwsSettingsAction,
} from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Organization admin' };

const MEMBER_COLUMNS = [{ label: 'Email' }, { label: 'Name' }, { label: 'Role' }, { label: 'Member since' }, { label: 'Remove' }];
const INVITATION_COLUMNS = [{ label: 'Email' }, { label: 'Role' }, { label: 'Invited' }, { label: 'Link works until' }, { label: 'Withdraw' }];
const GRANT_COLUMNS = [{ label: 'Blob' }, { label: 'Grantee' }, { label: 'Role' }, { label: 'Since' }, { label: 'Revoke' }];

function RoleSelect({ id, name = 'role', defaultValue = 'read', label }: { id: string; name?: string; defaultValue?: string; label: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={defaultValue}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * An org's members, blob grants and org API keys (SPEC §2). Needs `admin` on the org: anyone else,
 * member or not, gets the 404 page, as for an org that does not exist.
 */
export default async function OrgAdminPage({ params }: { params: Promise<{ org: string }> }) {
  const { org: orgRef } = await params;
  const { db, actor, now, delivery } = await webContext();
  const { org, members } = await orNotFoundPage(listOrgMembers(db, { actor, org: orgRef }));
  const ref = org.alias ?? org.id;
  const [{ blobs, grants }, keys, invitations, accessKeys] = await Promise.all([
    listBlobGrants(db, { actor, org: org.id }),
    listApiKeys(db, { actor, owner: { type: 'org', org: org.id } }),
    listOrgInvitations(db, { actor, org: org.id, now }),
    listAccessKeys(db, { actor, of: { type: 'org', org: org.id } }),
  ]);
  const accountId = await orgAccountId(db, org.id);
  const aws = await getOrgAwsSettings(db, { actor, org: org.id, workerOrgs: delivery.awsWorkerCredentialsOrgs });
  const alertChannels = await listAlertChannels(db, { actor, org: org.id });
  const alertChannelUsesByChannel = await alertChannelUses(db, { actor, org: org.id });
  return (
    <div className="page">
      <Breadcrumbs items={[{ label: 'Organizations', href: '/orgs' }, { label: org.name }]} />
      <div className="page-header">
        <div>
          <h1>{org.name}</h1>
          <p className="page-intro">
            {org.alias ? <span className="mono">{org.alias}</span> : null} · members, blob access and org API keys
          </p>
          <p className="small muted">
            Org id <span className="mono">{org.id}</span>: another org&apos;s admin names this org by it to grant it access to a blob.
          </p>
          <p className="small">
            AWS account id <span className="mono" data-testid="account-id">{accountId}</span>
            <span className="muted"> · in every ARN of this org on the EventBridge Scheduler API</span>
          </p>
        </div>
      </div>

      <section className="container stack" aria-labelledby="members-title">
        <h2 id="members-title" className="container-title">
          Members <span className="count">({members.length})</span>
        </h2>
        <DataTable label="Members" columns={MEMBER_COLUMNS} compact>
          {members.map((m) => (
            <tr key={m.userId}>
              <td>{m.email}</td>
              <td>{m.name}</td>
              <td>
                <ActionForm action={changeRoleAction.bind(null, ref)} submitLabel="Save role" label={`Role of ${m.email}`}>
                  <input type="hidden" name="user_id" value={m.userId} />
                  <RoleSelect id={`role-${m.userId}`} defaultValue={m.role} label="Role" />
                </ActionForm>
              </td>
              <td className="small nowrap">
                <LocalTime instant={m.since} />
              </td>
              <td>
                <ActionForm action={removeMemberAction.bind(null, ref)} submitLabel="Remove" danger confirm={{ title: `Remove ${m.email} from ${org.name}?`, body: <p>They lose their {m.role} role on every blob of {org.name} at once (blob grants of their own stay). Schedules they created keep firing only as far as their remaining access reaches.</p> }} label={`Remove ${m.email}`}>
                  <input type="hidden" name="user_id" value={m.userId} />
                </ActionForm>
              </td>
            </tr>
          ))}
        </DataTable>
        <h3 className="subsection-title">Pending invitations</h3>
        {invitations.length === 0 ? (
          <p className="muted">No pending invitations.</p>
        ) : (
          <DataTable label="Pending invitations" columns={INVITATION_COLUMNS} compact>
            {invitations.map((inv) => (
              <tr key={inv.id}>
                <td>{inv.email}</td>
                <td>
                  {inv.role ?? <span className="muted">blob access only</span>}
                  {inv.grants > 0 ? <span className="muted small"> (+ {inv.grants} blob grant{inv.grants === 1 ? '' : 's'})</span> : null}
                </td>
                <td className="small nowrap">
                  <LocalTime instant={inv.createdAt} />
                </td>
                <td className="small nowrap">{inv.expired ? 'expired' : <LocalTime instant={inv.expiresAt} />}</td>
                <td>
                  <ActionForm action={revokeInvitationAction.bind(null, ref)} submitLabel="Withdraw" danger confirm={{ title: `Withdraw the invitation of ${inv.email}?`, body: <p>Its link stops working at once, and the blob grants waiting for it are dropped; invite them again to send a new one.</p> }} label={`Withdraw the invitation of ${inv.email}`}>
                    <input type="hidden" name="invitation_id" value={inv.id} />
                  </ActionForm>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <h3 className="subsection-title">Invite a member</h3>
        <ActionForm action={inviteMemberAction.bind(null, ref)} submitLabel="Invite" label="Invite a member">
          <div className="field">
            <label htmlFor="member-email">Email</label>
            <input id="member-email" name="email" type="email" required />
          </div>
          <RoleSelect id="member-role" label="Role" />
        </ActionForm>
        <p className="small muted">
          You get a one-time link to pass on, valid for 7 days. With it the invitee makes an account (choosing their own password) or,
          with an account already, logs in and accepts. The link also carries the blob grants waiting for that email. Inviting again
          makes a new link; the old one stops working.
        </p>
      </section>

      <section className="container stack section-gap" aria-labelledby="grants-title">
        <h2 id="grants-title" className="container-title">
          Blob access grants <span className="count">({grants.length})</span>
        </h2>
        <p className="container-intro small">
          A grant gives a user or another org a role on one blob of this org, on top of any org role. A user is named by email: a member
          of this org (or someone who already holds a grant here) gets it at once; anyone else gets it by accepting this org&apos;s
          invitation link, which the grant gives you to pass on (it stays <em>pending</em> until then). An org you belong to is named by
          its alias, any other org by its id.
        </p>
        {grants.length === 0 ? (
          <p className="muted">No grants.</p>
        ) : (
          <DataTable label="Blob access grants" columns={GRANT_COLUMNS} compact>
            {grants.map((g) => (
              <tr key={g.id}>
                <td>
                  {g.blob.alias ?? g.blob.name} <span className="muted small">({g.blob.type})</span>
                </td>
                <td>
                  {g.grantee.label} <span className="muted small">({g.grantee.type}{g.pending ? ', pending: until the invitation is accepted' : ''})</span>
                </td>
                <td>{g.role}</td>
                <td className="small nowrap">
                  <LocalTime instant={g.createdAt} />
                </td>
                <td>
                  <ActionForm action={revokeGrantAction.bind(null, ref)} submitLabel="Revoke" danger confirm={{ title: `Revoke ${g.grantee.label}'s ${g.role} on ${g.blob.alias ?? g.blob.name}?`, body: <p>It takes effect at once, fires of schedules they created included.</p> }} label={`Revoke grant of ${g.grantee.label}`}>
                    <input type="hidden" name="grant_id" value={g.id} />
                  </ActionForm>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <h3 className="subsection-title">Grant access to a blob</h3>
        <ActionForm action={grantBlobAction.bind(null, ref)} submitLabel="Grant" label="Grant access to a blob">
          <div className="field">
            <label htmlFor="grant-blob">Blob</label>
            <select id="grant-blob" name="blob" required>
              {blobs.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.alias ?? b.name} ({b.type})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="grantee-type">Grantee type</label>
            <select id="grantee-type" name="grantee_type" defaultValue="user">
              <option value="user">user (by email)</option>
              <option value="org">org (by alias or id)</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="grantee">Grantee</label>
            <input id="grantee" name="grantee" type="text" required placeholder="name@example.com, or an org's alias or id" />
          </div>
          <RoleSelect id="grant-role" label="Role" />
        </ActionForm>
      </section>

      <section className="container stack section-gap" aria-labelledby="org-keys-title">
        <h2 id="org-keys-title" className="container-title">
          Org API keys
        </h2>
        <p className="container-intro small">An org key acts as the org (admin on its blobs), capped at the key&apos;s role.</p>
        <ApiKeyTable keys={keys} revoke={revokeOrgKeyAction.bind(null, ref)} caption="Org API keys" />
        <ActionForm action={createOrgKeyAction.bind(null, ref)} submitLabel="Create key" label="New org key">
          <ApiKeyFields />
        </ActionForm>
      </section>

      <AlertChannelsSection orgRef={ref} channels={alertChannels} uses={alertChannelUsesByChannel} />

      <section className="container stack section-gap" aria-labelledby="aws-credentials-title">
        <h2 id="aws-credentials-title" className="container-title">
          AWS credentials
        </h2>
        <p className="container-intro small">
          How this org&apos;s AWS targets and SQS dead-letter queues are delivered. With <strong>assumed roles</strong>, each target names
          a role (<span className="mono">role_arn</span>) that the scheduler assumes with the external ID below; the role&apos;s trust
          policy must name it in an <span className="mono">sts:ExternalId</span> condition.
        </p>
        <p className="small">
          External ID <span className="mono" data-testid="aws-external-id">{aws.external_id}</span>
        </p>
        <ActionForm
          action={rotateExternalIdAction.bind(null, ref)}
          submitLabel="Rotate external ID"
          danger
          confirm={{
            title: `Rotate the external ID of ${org.name}?`,
            body: (
              <p>
                Every AWS delivery of {org.name} fails with <span className="mono">assume_role_failed</span> until each role&apos;s trust
                policy names the new external ID. The current one stops working at once.
              </p>
            ),
          }}
          label="Rotate the external ID"
        />
        <ActionForm action={saveAwsSettingsAction.bind(null, ref)} submitLabel="Save AWS settings" label="AWS settings">
          <div className="field">
            <label htmlFor="aws-credentials">Credentials</label>
            <select id="aws-credentials" name="credentials" defaultValue={aws.credentials} aria-describedby="aws-credentials-hint">
              <option value="role">Assumed roles (each target&apos;s role_arn, with the external ID)</option>
              <option value="worker" disabled={!aws.worker_credentials_allowed}>
                The scheduler&apos;s own credentials{aws.worker_credentials_allowed ? '' : ' (not offered to this org)'}
              </option>
            </select>
            <p id="aws-credentials-hint" className="small muted">
              {aws.worker_credentials_allowed
                ? "The operator lets this org use the scheduler's own AWS credentials."
                : "The scheduler's own AWS credentials are only for orgs the operator lists."}
            </p>
          </div>
          <div className="field">
            <label htmlFor="aws-allowed-accounts">Allowed AWS accounts</label>
            <textarea id="aws-allowed-accounts" name="allowed_accounts" rows={2} defaultValue={(aws.allowed_accounts ?? []).join(', ')} aria-describedby="aws-accounts-hint" />
            <p id="aws-accounts-hint" className="small muted">
              12-digit account ids, separated by commas. When set, a target, dead-letter queue or role in any other account is refused
              when saved and when fired. Empty: any account.
            </p>
          </div>
        </ActionForm>
      </section>

      <section className="container stack section-gap" aria-labelledby="org-access-keys-title">
        <h2 id="org-access-keys-title" className="container-title">
          AWS access keys
        </h2>
        <p className="container-intro small">
          Access key pairs for the EventBridge Scheduler API (the AWS CLI, boto3, the SDKs): the org&apos;s own, acting as the org capped at their role, and the members&apos;
          personal ones, which you can revoke here. The secret is shown once.
        </p>
        <AccessKeyTable keys={accessKeys} revoke={revokeOrgAccessKeyAction.bind(null, ref)} caption="AWS access keys" />
        <ActionForm action={createOrgAccessKeyAction.bind(null, ref)} submitLabel="Create access key" label="New org access key">
          <AccessKeyFields />
        </ActionForm>
      </section>
    </div>
  );
}
