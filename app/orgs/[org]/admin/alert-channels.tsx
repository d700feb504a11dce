import { ActionForm } from '@/app/_components/action-form';
import { DataTable } from '@/app/_components/data-table';
import { LocalTime } from '@/components/local-time';
import type { AlertChannel } from '@/lib/schedules';
import { addAlertChannelAction, deleteAlertChannelAction, testAlertChannelAction } from './alert-actions';

const COLUMNS = [{ label: 'Name' }, { label: 'Type' }, { label: 'Destination' }, { label: 'Last send' }, { label: 'Send test' }, { label: 'Delete' }];
const TYPE_WORDS = { webhook: 'Webhook (signed)', slack: 'Slack', email: 'Email (SMTP)' } as const;

function destination(c: AlertChannel): string {
  const cfg = c.config as Record<string, unknown>;
  if (c.type === 'email') return `${(cfg.to as string[]).join(', ')} via ${String(cfg.host)}:${String(cfg.port)} (${String(cfg.tls)})`;
  return String(cfg.url);
}

/**
 * SPEC §17: the org's alert channels on its admin page — each with Send test (what the channel
 * answered) and its last send; a form per type to add one. The empty state says what a channel is for.
 */
export function AlertChannelsSection({ orgRef, channels }: { orgRef: string; channels: AlertChannel[] }) {
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
                  <>
                    <span className={c.last_status === 'ok' ? 'badge badge-ok' : 'badge badge-error'}>{c.last_status === 'ok' ? 'delivered' : 'failing'}</span>{' '}
                    {c.last_sent_at ? <LocalTime instant={c.last_sent_at} /> : null}
                    {c.last_answer ? <div className="small muted">{c.last_answer.message}</div> : null}
                  </>
                )}
              </td>
              <td>
                <ActionForm action={testAlertChannelAction.bind(null, orgRef, c.id)} submitLabel="Send test" label={`Send a test to ${c.name}`} />
              </td>
              <td>
                <ActionForm
                  action={deleteAlertChannelAction.bind(null, orgRef, c.id)}
                  submitLabel="Delete"
                  danger
                  confirm={{ title: `Delete the alert channel ${c.name}?`, body: <p>Rules stop naming it at once; the alert log keeps what was sent to it.</p> }}
                  label={`Delete ${c.name}`}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <h3 className="subsection-title">Add a Slack channel</h3>
      <ActionForm action={addAlertChannelAction.bind(null, orgRef, 'slack')} submitLabel="Add Slack channel" label="Add a Slack channel">
        <div className="field">
          <label htmlFor="slack-name">Name</label>
          <input id="slack-name" name="name" type="text" required maxLength={64} placeholder="ops-slack" />
        </div>
        <div className="field">
          <label htmlFor="slack-url">Incoming-webhook URL</label>
          <input id="slack-url" name="url" type="url" required placeholder="https://hooks.slack.com/services/…" />
        </div>
      </ActionForm>
      <h3 className="subsection-title">Add a webhook channel</h3>
      <p className="small muted">Each alert is a signed POST of JSON (Standard Webhooks); the signing secret is shown once when the channel is added.</p>
      <ActionForm action={addAlertChannelAction.bind(null, orgRef, 'webhook')} submitLabel="Add webhook channel" label="Add a webhook channel">
        <div className="field">
          <label htmlFor="webhook-name">Name</label>
          <input id="webhook-name" name="name" type="text" required maxLength={64} placeholder="ops-webhook" />
        </div>
        <div className="field">
          <label htmlFor="webhook-url">URL</label>
          <input id="webhook-url" name="url" type="url" required placeholder="https://alerts.example.com/hook" />
        </div>
      </ActionForm>
      <h3 className="subsection-title">Add an email channel</h3>
      <ActionForm action={addAlertChannelAction.bind(null, orgRef, 'email')} submitLabel="Add email channel" label="Add an email channel">
        <div className="field">
          <label htmlFor="email-name">Name</label>
          <input id="email-name" name="name" type="text" required maxLength={64} placeholder="ops-mail" />
        </div>
        <div className="field">
          <label htmlFor="email-to">Recipients</label>
          <input id="email-to" name="to" type="text" required placeholder="oncall@example.com, team@example.com" />
        </div>
        <div className="field">
          <label htmlFor="email-from">From</label>
          <input id="email-from" name="from" type="email" required placeholder="scheduler@example.com" />
        </div>
        <div className="field">
          <label htmlFor="email-host">SMTP host</label>
          <input id="email-host" name="host" type="text" required placeholder="smtp.example.com" />
        </div>
        <div className="field">
          <label htmlFor="email-port">Port</label>
          <input id="email-port" name="port" type="number" min={1} max={65535} required defaultValue={587} />
        </div>
        <div className="field">
          <label htmlFor="email-tls">TLS</label>
          <select id="email-tls" name="tls" defaultValue="starttls">
            <option value="starttls">STARTTLS (required)</option>
            <option value="tls">TLS from the start (port 465)</option>
            <option value="none">None</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="email-user">User</label>
          <input id="email-user" name="user" type="text" autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="email-password">Password</label>
          <input id="email-password" name="password" type="password" autoComplete="new-password" />
        </div>
      </ActionForm>
    </section>
  );
}
