import { ActionForm } from '@/app/_components/action-form';
import { DataTable } from '@/app/_components/data-table';
import { LocalTime } from '@/components/local-time';
import type { AlertChannel, AlertChannelType, ChannelRuleUse } from '@/lib/schedules';
import { addAlertChannelAction, deleteAlertChannelAction, editAlertChannelAction, testAlertChannelAction } from './alert-actions';

/** Delete's confirmation: a channel rules still name is not deleted (decision 340); it names them. */
function deleteConfirm(c: AlertChannel, uses: ChannelRuleUse[]) {
  if (uses.length === 0) return { title: `Delete the alert channel ${c.name}?`, body: <p>No rule names it. The alert log keeps what was sent to it.</p> };
  return {
    title: `The alert channel ${c.name} is still in use`,
    body: (
      <>
        <p>
          {uses.length === 1 ? 'A rule names' : `${uses.length} rules name`} it, so it will not be deleted: remove it from {uses.length === 1 ? 'that rule' : 'those rules'} (or delete{' '}
          {uses.length === 1 ? 'it' : 'them'}) on the scheduler&apos;s Alerts page first.
        </p>
        <ul className="small" data-testid={`channel-uses-${c.name}`}>
          {uses.map((u) => (
            <li key={u.rule_id}>{u.description}</li>
          ))}
        </ul>
      </>
    ),
  };
}

const COLUMNS = [{ label: 'Name' }, { label: 'Type' }, { label: 'Destination' }, { label: 'Last send' }, { label: 'Send test' }, { label: 'Edit' }, { label: 'Delete' }];
const TYPE_WORDS = { webhook: 'Webhook (signed)', slack: 'Slack', email: 'Email (SMTP)' } as const;

function destination(c: AlertChannel): string {
  const cfg = c.config as Record<string, unknown>;
  if (c.type === 'email') return `${(cfg.to as string[]).join(', ')} via ${String(cfg.host)}:${String(cfg.port)} (${String(cfg.tls)})`;
  return String(cfg.url);
}

/**
 * SPEC §17: the org's alert channels on its admin page — each with Send test (what the channel
 * answered), its last send, Edit (the add form of its type, filled in) and Delete (whose confirmation
 * names the rules that still use it: those are refused, decision 340); a form per type to add one.
 * The empty state says what a channel is for.
 */
export function AlertChannelsSection({ orgRef, channels, uses }: { orgRef: string; channels: AlertChannel[]; uses: Map<string, ChannelRuleUse[]> }) {
  return (
    <section className="container stack section-gap" aria-labelledby="alert-channels-title">
      <h2 id="alert-channels-title" className="container-title">
        Alert channels
      </h2>
      <p className="container-intro small">
        Where alerts go when a schedule fails, goes silent, is paused by the worker or recovers. A scheduler&apos;s <strong>Alerts</strong> page
        names channels in its rules. Secrets (a webhook&apos;s signing secret, a Slack URL, an SMTP password) are write-only.
      </p>
      {channels.length === 0 ? (
        <div className="empty-inline" data-testid="alert-channels-empty">
          <p>No alert channels yet, so no one is told when a schedule fails.</p>
          <p className="muted small">Add a webhook, a Slack incoming webhook or an email channel below, send a test, then add a rule on a scheduler&apos;s Alerts page.</p>
        </div>
      ) : (
        <DataTable label="Alert channels" columns={COLUMNS} compact>
          {channels.map((c) => (
            <tr key={c.id} data-testid={`alert-channel-${c.name}`}>
              <th scope="row">{c.name}</th>
              <td>{TYPE_WORDS[c.type]}</td>
              <td className="mono small">{destination(c)}</td>
              <td>
                {c.last_status === undefined ? (
                  <span className="muted">never</span>
                ) : (
                  // One element: on a phone the cell is a labelled line (a flex row), whose parts must not sit side by side.
                  <div>
                    <span className={c.last_status === 'ok' ? 'badge badge-ok' : 'badge badge-error'}>{c.last_status === 'ok' ? 'delivered' : 'failing'}</span>{' '}
                    {c.last_sent_at ? <LocalTime instant={c.last_sent_at} /> : null}
                    {c.last_answer ? <div className="small muted">{c.last_answer.message}</div> : null}
                  </div>
                )}
              </td>
              <td>
                <ActionForm action={testAlertChannelAction.bind(null, orgRef, c.id)} submitLabel="Send test" label={`Send a test to ${c.name}`} />
              </td>
              <td>
                <details className="row-details" data-testid={`edit-channel-${c.name}`}>
                  <summary className="btn btn-small">Edit</summary>
                  <ActionForm action={editAlertChannelAction.bind(null, orgRef, c.id, c.type)} submitLabel="Save channel" label={`Edit ${c.name}`}>
                    <ChannelFields type={c.type} idPrefix={`edit-${c.id}`} channel={c} />
                  </ActionForm>
                </details>
              </td>
              <td>
                <ActionForm action={deleteAlertChannelAction.bind(null, orgRef, c.id)} submitLabel="Delete" danger confirm={deleteConfirm(c, uses.get(c.id) ?? [])} label={`Delete ${c.name}`} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <h3 className="subsection-title">Add a Slack channel</h3>
      <ActionForm action={addAlertChannelAction.bind(null, orgRef, 'slack')} submitLabel="Add Slack channel" label="Add a Slack channel">
        <ChannelFields type="slack" idPrefix="slack" />
      </ActionForm>
      <h3 className="subsection-title">Add a webhook channel</h3>
      <p className="small muted">Each alert is a signed POST of JSON (Standard Webhooks); the signing secret is shown once when the channel is added.</p>
      <ActionForm action={addAlertChannelAction.bind(null, orgRef, 'webhook')} submitLabel="Add webhook channel" label="Add a webhook channel">
        <ChannelFields type="webhook" idPrefix="webhook" />
      </ActionForm>
      <h3 className="subsection-title">Add an email channel</h3>
      <ActionForm action={addAlertChannelAction.bind(null, orgRef, 'email')} submitLabel="Add email channel" label="Add an email channel">
        <ChannelFields type="email" idPrefix="email" />
      </ActionForm>
    </section>
  );
}

/**
 * The fields of a channel of `type`: empty in the add form, filled with `channel`'s values in its edit
 * form. Secrets are write-only (decision 277): on an edit their field starts empty and, left empty,
 * keeps the stored value (the form says so); a webhook may rotate its signing secret.
 */
function ChannelFields({ type, idPrefix, channel }: { type: AlertChannelType; idPrefix: string; channel?: AlertChannel }) {
  const cfg = (channel?.config ?? {}) as Record<string, unknown>;
  const id = (field: string) => `${idPrefix}-${field}`;
  const str = (field: string) => (typeof cfg[field] === 'string' ? (cfg[field] as string) : undefined);
  const name = (
    <div className="field">
      <label htmlFor={id('name')}>Name</label>
      <input id={id('name')} name="name" type="text" required maxLength={64} placeholder={`ops-${type === 'email' ? 'mail' : type}`} defaultValue={channel?.name} />
    </div>
  );
  if (type === 'slack')
    return (
      <>
        {name}
        <div className="field">
          <label htmlFor={id('url')}>Incoming-webhook URL</label>
          <input id={id('url')} name="url" type="url" required={!channel} placeholder={channel ? 'leave empty to keep the stored URL' : 'https://hooks.slack.com/services/…'} aria-describedby={channel ? id('url-hint') : undefined} />
          {channel ? (
            <>
              <input type="hidden" name="masked_url" value={str('url') ?? ''} />
              <p id={id('url-hint')} className="small muted">
                Stored as <span className="mono">{str('url')}</span> (write-only): leave empty to keep it.
              </p>
            </>
          ) : null}
        </div>
      </>
    );
  if (type === 'webhook')
    return (
      <>
        {name}
        <div className="field">
          <label htmlFor={id('url')}>URL</label>
          <input id={id('url')} name="url" type="url" required placeholder="https://alerts.example.com/hook" defaultValue={str('url')} />
        </div>
        {channel ? (
          <div className="field-checkbox">
            <input id={id('rotate')} name="rotate" type="checkbox" />
            <label htmlFor={id('rotate')}>Rotate the signing secret (the new one is shown once; the old one stops verifying at once)</label>
          </div>
        ) : null}
      </>
    );
  return (
    <>
      {name}
      <div className="field">
        <label htmlFor={id('to')}>Recipients</label>
        <input id={id('to')} name="to" type="text" required placeholder="oncall@example.com, team@example.com" defaultValue={Array.isArray(cfg.to) ? (cfg.to as string[]).join(', ') : undefined} />
      </div>
      <div className="field">
        <label htmlFor={id('from')}>From</label>
        <input id={id('from')} name="from" type="email" required placeholder="scheduler@example.com" defaultValue={str('from')} />
      </div>
      <div className="field">
        <label htmlFor={id('host')}>SMTP host</label>
        <input id={id('host')} name="host" type="text" required placeholder="smtp.example.com" defaultValue={str('host')} />
      </div>
      <div className="field">
        <label htmlFor={id('port')}>Port</label>
        <input id={id('port')} name="port" type="number" min={1} max={65535} required defaultValue={typeof cfg.port === 'number' ? cfg.port : 587} />
      </div>
      <div className="field">
        <label htmlFor={id('tls')}>TLS</label>
        <select id={id('tls')} name="tls" defaultValue={str('tls') ?? 'starttls'}>
          <option value="starttls">STARTTLS (required)</option>
          <option value="tls">TLS from the start (port 465)</option>
          <option value="none">None</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={id('user')}>User</label>
        <input id={id('user')} name="user" type="text" autoComplete="off" defaultValue={str('user')} />
      </div>
      <div className="field">
        <label htmlFor={id('password')}>Password</label>
        <input
          id={id('password')}
          name="password"
          type="password"
          autoComplete="new-password"
          placeholder={channel && cfg.password ? 'leave empty to keep the stored password' : undefined}
          aria-describedby={channel ? id('password-hint') : undefined}
        />
        {channel ? (
          <p id={id('password-hint')} className="small muted">
            Write-only: {cfg.password ? 'a password is stored; leave empty to keep it.' : 'none is stored.'}
          </p>
        ) : null}
      </div>
    </>
  );
}
